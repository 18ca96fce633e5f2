// RUN: sage-opt %s --sage-pipeline-tiles -split-input-file | FileCheck %s
// RUN: sage-opt %s --sage-pipeline-tiles=stages=1 -split-input-file | FileCheck %s --check-prefix=ONE
// RUN: not sage-opt %s --sage-pipeline-tiles=stages=3 -split-input-file 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: sage-opt %s --sage-pipeline-tiles=stages=0 -split-input-file | FileCheck %s --check-prefix=AUTO

// One stage: every loop as it is.
//   ONE-NOT: sage.stage_async
//   ONE-NOT: memref<2x

// THREE: error: sage-pipeline-tiles asked for 3 stages; it makes 1 or 2, or picks one of them with 0 (more would wait for all but the newest groups, which it does not count yet)

// A kernel's K/V loop after outlining (docs/Levels.md, L3): each block
// allocates its K tile, V^T tile (staged in P's key order) and dS, fills
// them, and reads them. Two stages of each tile: block 0 before the loop
// (where it runs), block j + 1 (j itself on the last iteration) issued
// into the other stage first thing in iteration j, awaited last; block j
// read from stage j mod 2.
// stages=0 keeps one stage of a block of 8.25 KiB (mma.sync at D = 64).
// AUTO-LABEL: gpu.func @kv_loop
//   AUTO-NOT:   sage.stage_async
//       AUTO:   gpu.return
// CHECK-LABEL: gpu.func @kv_loop
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8>, %[[V:[^:]*]]: memref<?x64xf8E4M3FN>, %[[KRAW:[^:]*]]: memref<?x64xf16>, %[[MEAN:[^:]*]]: memref<64xf32>, %[[BLOCKS:[^:]*]]: index, %[[OUT:[^:]*]]: memref<64xi8, #gpu.address_space<workgroup>>)
//       CHECK:   %[[KT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:   %[[VT:.*]] = memref.alloc() : memref<2x64x64xf8E4M3FN, #gpu.address_space<workgroup>>
//       CHECK:   %[[DS:.*]] = memref.alloc() : memref<2x64xf32, #gpu.address_space<workgroup>>
//       CHECK:   %[[RUNS:.*]] = arith.cmpi slt, %[[C0:.*]], %[[BLOCKS]] : index
//       CHECK:   scf.if %[[RUNS]] {
//       CHECK:     %[[FIRST:.*]] = sage.stage_async {
//       CHECK:       %[[KT0:.*]] = memref.subview %[[KT]][0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[64, 1]>, #gpu.address_space<workgroup>>
//       CHECK:       %[[VT0:.*]] = memref.subview %[[VT]][0, 0, 0] [1, 64, 64]
//       CHECK:       %[[DS0:.*]] = memref.subview %[[DS]][0, 0] [1, 64] [1, 1] : memref<2x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
//       CHECK:       %[[ROW0:.*]] = arith.muli %[[C0]], %c64
//       CHECK:       %[[KW0:.*]] = memref.subview %[[K]][%[[ROW0]], 0]
//       CHECK:       sage.stage_tile %[[KW0]] pad({{.*}}) into %[[KT0]]
//       CHECK:       sage.stage_tile %{{.*}} pad({{.*}}) into %[[VT0]] {indexing_map = #{{.*}}}
//       CHECK:       linalg.fill {{.*}} outs(%[[DS0]] :
//       CHECK:       %[[PART0:.*]] = memref.subview %[[DS0]][0] [%{{.*}}] [1] : memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>
//       CHECK:       linalg.matvec {{.*}} outs(%[[PART0]] :
//       CHECK:     }
//       CHECK:     sage.stage_await %[[FIRST]]
//       CHECK:   }
//       CHECK:   scf.for %[[J:.*]] = %[[C0]] to %[[BLOCKS]] step %[[C1:[^ ]*]] {
//       CHECK:     %[[DONE:.*]] = arith.subi %[[J]], %[[C0]] : index
//       CHECK:     %[[COUNT:.*]] = arith.divui %[[DONE]], %[[C1]] : index
//       CHECK:     %[[STAGE:.*]] = arith.remui %[[COUNT]], %c2 : index
//       CHECK:     %[[NEXT_STAGE:.*]] = arith.xori %[[STAGE]], %c1
//       CHECK:     %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
//       CHECK:     %[[HAS_NEXT:.*]] = arith.cmpi slt, %[[NEXT]], %[[BLOCKS]] : index
//       CHECK:     %[[BLOCK:.*]] = arith.select %[[HAS_NEXT]], %[[NEXT]], %[[J]] : index
//       CHECK:     %[[GROUP:.*]] = sage.stage_async {
//       CHECK:       %[[KTN:.*]] = memref.subview %[[KT]][%[[NEXT_STAGE]], 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
//       CHECK:       %[[ROWN:.*]] = arith.muli %[[BLOCK]], %c64
//       CHECK:       %[[KWN:.*]] = memref.subview %[[K]][%[[ROWN]], 0]
//       CHECK:       sage.stage_tile %[[KWN]] pad({{.*}}) into %[[KTN]]
//       CHECK:       linalg.matvec
//       CHECK:     }
//   CHECK-DAG:     %[[KTJ:.*]] = memref.subview %[[KT]][%[[STAGE]], 0, 0] [1, 64, 64]
//   CHECK-DAG:     %[[VTJ:.*]] = memref.subview %[[VT]][%[[STAGE]], 0, 0] [1, 64, 64]
//   CHECK-DAG:     %[[DSJ:.*]] = memref.subview %[[DS]][%[[STAGE]], 0] [1, 64]
//   CHECK-NOT:     sage.stage_tile
//       CHECK:     %[[A:.*]] = vector.transfer_read %[[KTJ]]
//       CHECK:     %[[B:.*]] = vector.transfer_read %[[VTJ]]
//       CHECK:     %[[S:.*]] = memref.load %[[DSJ]]
//       CHECK:     memref.store %{{.*}}, %[[OUT]]
//       CHECK:     sage.stage_await %[[GROUP]]
//  CHECK-NEXT:   }
#keys = affine_map<(d, p) -> (p floordiv 32 * 32 + ((p mod 32) floordiv 16) * 16 + ((p mod 4) floordiv 2) * 8 + ((p mod 16) floordiv 4) * 2 + p mod 2, d)>
gpu.module @kernels {
  gpu.func @kv_loop(%k: memref<?x64xi8>, %v: memref<?x64xf8E4M3FN>, %kraw: memref<?x64xf16>,
                    %mean: memref<64xf32>, %blocks: index,
                    %out: memref<64xi8, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    %f0 = arith.constant 0.0 : f8E4M3FN
    %z = arith.constant 0.0 : f32
    %keys = memref.dim %k, %c0 : memref<?x64xi8>
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %left = arith.subi %keys, %row : index
      %rows = arith.minsi %left, %c64 : index
      %kw = memref.subview %k[%row, 0] [%rows, 64] [1, 1] : memref<?x64xi8> to memref<?x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() {alignment = 64 : i64} : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
      %vw = memref.subview %v[%row, 0] [%rows, 64] [1, 1] : memref<?x64xf8E4M3FN> to memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>>
      %vt = memref.alloc() : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
      sage.stage_tile %vw pad(%f0 : f8E4M3FN) into %vt {indexing_map = #keys} : memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
      %rw = memref.subview %kraw[%row, 0] [%rows, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
      %ds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      linalg.fill ins(%z : f32) outs(%ds : memref<64xf32, #gpu.address_space<workgroup>>)
      %part = memref.subview %ds[0] [%rows] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>
      linalg.matvec ins(%rw, %mean : memref<?x64xf16, strided<[64, 1], offset: ?>>, memref<64xf32>) outs(%part : memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>)
      %a = vector.transfer_read %kt[%c0, %c0], %i0 {in_bounds = [true]} : memref<64x64xi8, #gpu.address_space<workgroup>>, vector<4xi8>
      %b = vector.transfer_read %vt[%c0, %c0], %f0 {in_bounds = [true]} : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, vector<4xf8E4M3FN>
      %s = memref.load %ds[%c1] : memref<64xf32, #gpu.address_space<workgroup>>
      %x = vector.extract %a[0] : i8 from vector<4xi8>
      memref.store %x, %out[%c0] : memref<64xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// Left as they are: a loop that writes global memory (the next block's
// stagings could read what this one writes), and one that reads a tile
// before staging it.
// CHECK-LABEL: gpu.func @writes_global
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for
//       CHECK:     memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:     sage.stage_tile
// CHECK-LABEL: gpu.func @reads_before_staging
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for
//       CHECK:     memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:     vector.transfer_read
//       CHECK:     sage.stage_tile
gpu.module @left_alone {
  gpu.func @writes_global(%k: memref<?x64xi8>, %blocks: index, %out: memref<64xi8>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %kw = memref.subview %k[%row, 0] [64, 64] [1, 1] : memref<?x64xi8> to memref<64x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw into %kt : memref<64x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
      %x = memref.load %kt[%c0, %c0] : memref<64x64xi8, #gpu.address_space<workgroup>>
      memref.store %x, %out[%c0] : memref<64xi8>
    }
    gpu.return
  }
  gpu.func @reads_before_staging(%k: memref<?x64xi8>, %blocks: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %kw = memref.subview %k[%row, 0] [64, 64] [1, 1] : memref<?x64xi8> to memref<64x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      %a = vector.transfer_read %kt[%c0, %c0], %i0 {in_bounds = [true]} : memref<64x64xi8, #gpu.address_space<workgroup>>, vector<4xi8>
      sage.stage_tile %kw into %kt : memref<64x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// Left as it is: a window that depends on a value the loop carries (block
// j + 1's would be unknown in iteration j).
// CHECK-LABEL: gpu.func @carried_window
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for
//       CHECK:     sage.stage_tile
gpu.module @carried {
  gpu.func @carried_window(%k: memref<?x64xi8>, %blocks: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    %last = scf.for %j = %c0 to %blocks step %c1 iter_args(%row = %c0) -> (index) {
      %kw = memref.subview %k[%row, 0] [64, 64] [1, 1] : memref<?x64xi8> to memref<64x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw into %kt : memref<64x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
      %a = vector.transfer_read %kt[%c0, %c0], %i0 {in_bounds = [true]} : memref<64x64xi8, #gpu.address_space<workgroup>>, vector<4xi8>
      %next = arith.addi %row, %c64 : index
      scf.yield %next : index
    }
    gpu.return
  }
}

// -----

// A loop of wgmmas on a core-matrix tile: they read it through
// descriptors and write only the warpgroup's wgmma queue, which is no
// memory, so the tile gets two stages and the wgmmas read stage j mod 2.
// stages=0 gives a loop of wgmmas two stages whatever its size.
// AUTO-LABEL: gpu.func @wgmma_loop
//       AUTO:   memref.alloc() : memref<2x4x64x16xi8, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @wgmma_loop
//       CHECK:   %[[KT:.*]] = memref.alloc() : memref<2x4x64x16xi8, #gpu.address_space<workgroup>>
//       CHECK:   scf.for
//       CHECK:     %[[NEXT:.*]] = sage.stage_async {
//       CHECK:       sage.stage_tile
//       CHECK:     }
//       CHECK:     %[[KTJ:.*]] = memref.subview %[[KT]][%{{.*}}, 0, 0, 0] [1, 4, 64, 16]
//       CHECK:     sage.warpgroup_fence
//       CHECK:     %[[D:.*]] = sage.tile_descriptor %[[KTJ]]
//       CHECK:     sage.warpgroup_mma %{{.*}}, %[[D]]
//       CHECK:     sage.warpgroup_commit
//       CHECK:     sage.warpgroup_wait 0
//       CHECK:     sage.stage_await %[[NEXT]]
//  CHECK-NEXT:   }
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
#wqk = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
gpu.module @wgmma {
  gpu.func @wgmma_loop(%k: memref<?x64xi8>, %blocks: index, %q: i64, %out: memref<32xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %kw = memref.subview %k[%row, 0] [64, 64] [1, 1] : memref<?x64xi8> to memref<64x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw pad(%i0 : i8) into %kt {indexing_map = #core} : memref<64x64xi8, strided<[64, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
      sage.warpgroup_fence
      %d = sage.tile_descriptor %kt[%c0, %c0] {mma = #wqk} : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
      %s = sage.warpgroup_mma %q, %d {mma = #wqk} : i64 -> vector<32xi32>
      %g = sage.warpgroup_commit(%s : vector<32xi32>)
      %r = sage.warpgroup_wait 0 on %g, %s : vector<32xi32>
      vector.transfer_write %r, %out[%c0] {in_bounds = [true]} : vector<32xi32>, memref<32xi32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// Left as it is: a tile no staging fills (its threads store into it).
// CHECK-LABEL: gpu.func @stored_tile
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for
//       CHECK:     memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
gpu.module @stored {
  gpu.func @stored_tile(%k: memref<?x64xi8>, %blocks: index, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %kw = memref.subview %k[%row, 0] [64, 64] [1, 1] : memref<?x64xi8> to memref<64x64xi8, strided<[64, 1], offset: ?>>
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw into %kt : memref<64x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
      %st = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %x, %st[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// Left as they are: loops on i32 or with unsigned bounds (the stage
// arithmetic is on signed index bounds).
// CHECK-LABEL: gpu.func @i32_loop
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for
//       CHECK:     sage.stage_tile
// CHECK-LABEL: gpu.func @unsigned_loop
//   CHECK-NOT:   sage.stage_async
//       CHECK:   scf.for unsigned
//       CHECK:     sage.stage_tile
gpu.module @bounds {
  gpu.func @i32_loop(%k: memref<64x64xi8>, %blocks: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %j = %c0 to %blocks step %c1 : i32 {
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %k into %kt : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
  gpu.func @unsigned_loop(%k: memref<64x64xi8>, %blocks: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for unsigned %j = %c0 to %blocks step %c1 {
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %k into %kt : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// A loop from %lb by 2, carrying a value its windows do not use, inside a
// loop that allocates nothing: the inner loop gets the stages. Block j's
// stage is ((j - lb) / 2) mod 2, the next block j + 2, and the carried
// value stays with the compute; the warps read their matrices of the
// stage view.
// CHECK-LABEL: gpu.func @strided_carrying_loop
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8>, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[HEADS:[^:]*]]: index
//       CHECK:   scf.for %[[H:.*]] = %{{.*}} to %[[HEADS]]
//       CHECK:     %[[KT:.*]] = memref.alloc() : memref<2x64x64xi8, #gpu.address_space<workgroup>>
//       CHECK:     %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : index
//       CHECK:     scf.if %[[RUNS]] {
//       CHECK:       sage.stage_async {
//       CHECK:     %[[SUM:.*]] = scf.for %[[J:.*]] = %[[LB]] to %[[UB]] step %[[C2:[^ ]*]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<4xi8>) {
//       CHECK:       %[[DONE:.*]] = arith.subi %[[J]], %[[LB]] : index
//       CHECK:       %[[COUNT:.*]] = arith.divui %[[DONE]], %[[C2]] : index
//       CHECK:       %[[STAGE:.*]] = arith.remui %[[COUNT]], %c2{{.*}} : index
//       CHECK:       %[[NEXT:.*]] = arith.addi %[[J]], %[[C2]] : index
//       CHECK:       %[[HAS_NEXT:.*]] = arith.cmpi slt, %[[NEXT]], %[[UB]] : index
//       CHECK:       %[[GROUP:.*]] = sage.stage_async {
//       CHECK:       %[[KTJ:.*]] = memref.subview %[[KT]][%[[STAGE]], 0, 0] [1, 64, 64]
//       CHECK:       %[[B:.*]] = sage.warp_load_matrices %[[KTJ]]
//       CHECK:       %[[NEW:.*]] = arith.addi %[[ACC]], %[[B]]
//       CHECK:       sage.stage_await %[[GROUP]]
//       CHECK:       scf.yield %[[NEW]]
//   CHECK-NOT:   sage.stage_async
gpu.module @kernels {
  gpu.func @strided_carrying_loop(%k: memref<?x64xi8>, %lb: index, %ub: index, %heads: index,
                                  %out: memref<4xi8>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    %zeros = arith.constant dense<0> : vector<4xi8>
    %keys = memref.dim %k, %c0 : memref<?x64xi8>
    scf.for %h = %c0 to %heads step %c1 {
      %sum = scf.for %j = %lb to %ub step %c2 iter_args(%acc = %zeros) -> (vector<4xi8>) {
        %row = arith.muli %j, %c64 : index
        %left = arith.subi %keys, %row : index
        %rows = arith.minsi %left, %c64 : index
        %kw = memref.subview %k[%row, 0] [%rows, 64] [1, 1] : memref<?x64xi8> to memref<?x64xi8, strided<[64, 1], offset: ?>>
        %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
        sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
        %b = sage.warp_load_matrices %kt[%c0, %c0] rows [0] columns [0]
            : memref<64x64xi8, #gpu.address_space<workgroup>> -> vector<4xi8>
        %new = arith.addi %acc, %b : vector<4xi8>
        scf.yield %new : vector<4xi8>
      }
      vector.store %sum, %out[%c0] : memref<4xi8>, vector<4xi8>
    }
    gpu.return
  }
}

// -----

// stages=0 gives two stages to a block of 16 KiB (mma.sync at D = 128:
// K and V^T tiles of 64 x 128 bytes).
// AUTO-LABEL: gpu.func @d128_block
//       AUTO:   memref.alloc() : memref<2x64x128xi8, #gpu.address_space<workgroup>>
//       AUTO:   memref.alloc() : memref<2x128x64xf8E4M3FN, #gpu.address_space<workgroup>>
//       AUTO:   scf.for
//       AUTO:     sage.stage_async
// CHECK-LABEL: gpu.func @d128_block
//       CHECK:     sage.stage_async
gpu.module @d128 {
  gpu.func @d128_block(%k: memref<?x128xi8>, %v: memref<128x?xf8E4M3FN>, %blocks: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    scf.for %j = %c0 to %blocks step %c1 {
      %row = arith.muli %j, %c64 : index
      %kw = memref.subview %k[%row, 0] [64, 128] [1, 1] : memref<?x128xi8> to memref<64x128xi8, strided<[128, 1], offset: ?>>
      %kt = memref.alloc() : memref<64x128xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %kw into %kt : memref<64x128xi8, strided<[128, 1], offset: ?>> into memref<64x128xi8, #gpu.address_space<workgroup>>
      %vw = memref.subview %v[0, %row] [128, 64] [1, 1] : memref<128x?xf8E4M3FN> to memref<128x64xf8E4M3FN, strided<[?, 1], offset: ?>>
      %vt = memref.alloc() : memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
      sage.stage_tile %vw into %vt : memref<128x64xf8E4M3FN, strided<[?, 1], offset: ?>> into memref<128x64xf8E4M3FN, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}
