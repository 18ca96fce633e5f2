// RUN: sage-opt %s --sage-lower-staging -split-input-file -verify-diagnostics | FileCheck %s

// A kernel after outlining (docs/Levels.md, L3): a 64 x 64 i8 K window
// (its last block short) and a whole 16 x 32 f16 tile staged together, then
// dS computed into workgroup memory by a fill and a matvec. The tiles
// become 16-byte-aligned workgroup attributions; the copies each thread's
// 16-byte pieces (2 of K's 256 a thread, zero-filled past the window's
// rows; 64 of the f16 tile's, for threads 0 to 63); dS a row a thread,
// fused with its fill, while they are in flight; then one group waited
// for and one barrier.
// CHECK-LABEL: gpu.func @kernel
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8>, %[[W:[^:]*]]: memref<16x32xf16>, %[[KRAW:[^:]*]]: memref<?x64xf16>, %[[MEAN:[^:]*]]: memref<64xf32>)
//  CHECK-SAME: workgroup(%[[KT_ROWS:.*]] : memref<64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[WT_ROWS:.*]] : memref<16x40xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[DS:.*]] : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// Rows of 64 bytes are padded by 16 (no bank conflicts down a column) and
// viewed at the tile's shape.
//   CHECK-DAG:   %[[KT:.*]] = memref.subview %[[KT_ROWS]][0, 0] [64, 64] [1, 1] : memref<64x80xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[WT:.*]] = memref.subview %[[WT_ROWS]][0, 0] [16, 32] [1, 1] : memref<16x40xf16, #gpu.address_space<workgroup>> to memref<16x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
//       CHECK:   gpu.barrier
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[ROWS:.*]] = memref.dim %[[K]], %{{.*}} : memref<?x64xi8>
//       CHECK:   %[[IN_ROWS:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[ROWS]] : index
//       CHECK:   %[[LEFT:.*]] = arith.minui %{{.*}}, %c16{{.*}} : index
//       CHECK:   %[[N0:.*]] = arith.select %{{.*}}, %[[LEFT]], %{{.*}} : index
//       CHECK:   %[[READS:.*]] = arith.cmpi ne, %[[N0]], %{{.*}} : index
//       CHECK:   %[[SROW:.*]] = arith.select %[[READS]], %[[ROW]], %{{.*}} : index
//       CHECK:   %[[C0:.*]] = nvgpu.device_async_copy %[[K]][%[[SROW]], %{{.*}}], %[[KT]][%[[ROW]], %{{.*}}], 16, %[[N0]] {bypassL1}
//       CHECK:   %[[SECOND:.*]] = arith.addi %[[T]], %c128
//       CHECK:   %[[C1:.*]] = nvgpu.device_async_copy %[[K]][%{{.*}}, %{{.*}}], %[[KT]][%{{.*}}, %{{.*}}], 16, %{{.*}} {bypassL1}
//   CHECK-NOT:   nvgpu.device_async_copy
// dS while the copies are in flight, its fill fused: 64 rows for 128
// threads, so lanes 2r and 2r + 1 share row r, each every other 16-byte
// chunk of the row and of the mean, the f16 products in f32 added into a
// vector of sums by fma and reduced; the lanes' parts are added by a
// shuffle that every thread joins, and lane 2r stores the fill's zero plus
// row r's dot product where K's window has row r.
//       CHECK:   %[[T3:.*]] = gpu.thread_id x
//       CHECK:   %[[KROWS:.*]] = memref.dim %[[KRAW]], %{{.*}} : memref<?x64xf16>
//       CHECK:   %[[ROW:.*]] = arith.divui %[[T3]], %[[TWO:.*]] : index
//       CHECK:   %[[PART:.*]] = arith.remui %[[T3]], %[[TWO]] : index
//       CHECK:   %[[HAS_ROW:.*]] = arith.cmpi ult, %[[ROW]], %[[KROWS]] : index
//       CHECK:   %[[DOT:.*]] = scf.if %[[HAS_ROW]] -> (f32) {
//       CHECK:     %[[COL0:.*]] = arith.muli %[[PART]], %c8{{.*}} : index
//       CHECK:     %[[A0:.*]] = vector.load %[[KRAW]][%[[ROW]], %[[COL0]]] {alignment = 16 : i64} : memref<?x64xf16>, vector<8xf16>
//       CHECK:     %[[A0F:.*]] = arith.extf %[[A0]] : vector<8xf16> to vector<8xf32>
//       CHECK:     %[[X0:.*]] = vector.load %[[MEAN]][%[[COL0]]] {alignment = 16 : i64} : memref<64xf32>, vector<8xf32>
//       CHECK:     %[[S0:.*]] = vector.fma %[[A0F]], %[[X0]], %{{.*}} : vector<8xf32>
//       CHECK:     %[[COL1:.*]] = arith.addi %[[COL0]], %c16{{.*}} : index
//       CHECK:     vector.load %[[KRAW]][%[[ROW]], %[[COL1]]]
//       CHECK:     %[[S1:.*]] = vector.fma %{{.*}}, %{{.*}}, %[[S0]] : vector<8xf32>
//  CHECK-COUNT-2:     vector.fma
//       CHECK:     %[[SUM:.*]] = vector.reduction <add>, %{{.*}} fastmath<reassoc> : vector<8xf32> into f32
//       CHECK:     scf.yield %[[SUM]] : f32
//       CHECK:   } else {
//       CHECK:     scf.yield %[[ZERO:.*]] : f32
//       CHECK:   }
//       CHECK:   %[[OTHER:.*]], %{{.*}} = gpu.shuffle xor %[[DOT]], %c1{{.*}}, %c32{{.*}} : f32
//       CHECK:   %[[BOTH:.*]] = arith.addf %[[DOT]], %[[OTHER]] : f32
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %c0{{.*}} : index
//       CHECK:   %[[IN_TILE:.*]] = arith.cmpi ult, %[[ROW]], %c64{{.*}} : index
//       CHECK:   %[[STORES:.*]] = arith.andi %[[FIRST]], %[[IN_TILE]] : i1
//       CHECK:   scf.if %[[STORES]] {
//       CHECK:     %[[IN_K:.*]] = arith.cmpi ult, %[[ROW]], %[[KROWS]] : index
//       CHECK:     %[[PLUS:.*]] = arith.addf %[[FILL:.*]], %[[BOTH]] : f32
//       CHECK:     %[[VALUE:.*]] = arith.select %[[IN_K]], %[[PLUS]], %[[FILL]] : f32
//       CHECK:     memref.store %[[VALUE]], %[[DS]][%[[ROW]]]
//       CHECK:   }
//   CHECK-NOT:   gpu.barrier
//       CHECK:   %[[G:.*]] = nvgpu.device_async_create_group %[[C0]], %[[C1]]
//       CHECK:   nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
//       CHECK:   %[[SOME:.*]] = arith.cmpi ult, %[[PIECE:.*]], %c64{{.*}} : index
//       CHECK:   scf.if %[[SOME]] {
//       CHECK:     %[[C2:.*]] = nvgpu.device_async_copy %[[W]][%[[WR:.*]], %[[WC:.*]]], %[[WT]][%[[WR]], %[[WC]]], 8 {bypassL1}
//       CHECK:     %[[G2:.*]] = nvgpu.device_async_create_group %[[C2]]
//       CHECK:     nvgpu.device_async_wait %[[G2]] {numGroups = 0 : i32}
//       CHECK:   }
//       CHECK:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
//   CHECK-NOT:   linalg.
//   CHECK-NOT:   sage.stage_tile
//   CHECK-NOT:   memref.alloc
gpu.module @kernels {
  gpu.func @kernel(%k: memref<?x64xi8>, %w: memref<16x32xf16>,
                   %kraw: memref<?x64xf16>, %mean: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    %wt = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    sage.stage_tile %w into %wt : memref<16x32xf16> into memref<16x32xf16, #gpu.address_space<workgroup>>
    %ds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    linalg.fill ins(%z : f32) outs(%ds : memref<64xf32, #gpu.address_space<workgroup>>)
    %rows = memref.dim %kraw, %c0 : memref<?x64xf16>
    %part = memref.subview %ds[0] [%rows] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>
    linalg.matvec ins(%kraw, %mean : memref<?x64xf16>, memref<64xf32>) outs(%part : memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_no_block_size(%k: memref<?x64xi8>) kernel {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{is shared by the threads of a CTA, but its kernel @negative_no_block_size has no known block size of x threads only (known_block_size = array<i32: x, 1, 1>)}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A block size no CTA has (found by the fuzzer,
// tools/sage-fuzz/regressions/sage-stage-tile-block-size.mlir: the split
// among -8388608 threads ran out of memory).
gpu.module @kernels {
  gpu.func @negative_block_size(%k: memref<?x64xi8>) kernel
      attributes {known_block_size = array<i32: -8388608, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{is shared by the threads of a CTA, but its kernel @negative_block_size has a known block size of -8388608 threads; a CTA holds 1 to 1024}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_padding(%k: memref<?x64xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i1 = arith.constant 1 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{pads with a value other than zero; asynchronous copies fill what lies past the window with zeros only}}
    sage.stage_tile %k pad(%i1 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_rows(%k: memref<?x6xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x6xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows of 48 bits from 'memref<?x6xi8>' into 'memref<64x6xi8, #gpu.address_space<workgroup>>', which 4-, 8- or 16-byte copies do not tile: the rows' strides and the window's and the tile's starts must be provably aligned}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x6xi8> into memref<64x6xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_dynamic_stride(%k: memref<?x64xi8, strided<[?, 1], offset: ?>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows of 512 bits from 'memref<?x64xi8, strided<[?, 1], offset: ?>>' into 'memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>', which 4-, 8- or 16-byte copies do not tile: the rows' strides and the window's and the tile's starts must be provably aligned}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[?, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_unknown_offset(%k: memref<?x64xi8, strided<[64, 1], offset: ?>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // A window at an offset only known at run time may start anywhere.
    // expected-error @below {{copies rows of 512 bits from 'memref<?x64xi8, strided<[64, 1], offset: ?>>' into 'memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>', which 4-, 8- or 16-byte copies do not tile: the rows' strides and the window's and the tile's starts must be provably aligned}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_columns(%k: memref<?x64xi8, strided<[1, 64]>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows that are not contiguous ('memref<?x64xi8, strided<[1, 64]>>' into 'memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>')}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[1, 64]>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_dynamic_tile(%n: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // expected-error @below {{allocates a workgroup tile of type 'memref<?xf32, #gpu.address_space<workgroup>>'; a kernel's are static and row-major}}
    %t = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_private_product(%x: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %z = arith.constant 0.0 : f32
    // expected-error @below {{in a kernel writes memory other than the workgroup's: every thread would compute it}}
    linalg.fill ins(%z : f32) outs(%x : memref<64xf32>)
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_reduction_outside(%m: memref<64x64xf32>, %x: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    // Column sums, the reduction outermost.
    // expected-error @below {{writes workgroup memory, but its outermost loop is not a parallel one every output is indexed by, so the CTA's threads cannot share it}}
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                    iterator_types = ["reduction", "parallel"]}
        ins(%m : memref<64x64xf32>) outs(%t : memref<64xf32, #gpu.address_space<workgroup>>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_rank0(%x: memref<f32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = memref.alloc() : memref<f32, #gpu.address_space<workgroup>>
    // expected-error @below {{stages a rank-0 tile; copy it whole}}
    sage.stage_tile %x into %t : memref<f32> into memref<f32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// K copied and V^T staged in P's key order in one run (docs/Levels.md,
// L3): K's asynchronous copies are issued first; then each thread moves
// its 4 x 4-byte blocks of V^T (256 blocks, 2 a thread): four word loads
// of V rows key(p0 + i) (a row past the window reads row 0 and becomes
// zeros), transposed, four word stores of V^T rows; then the wait and
// one barrier.
// CHECK-LABEL: gpu.func @rearranged
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8>, %[[V:[^:]*]]: memref<?x64xf8E4M3FN>)
//  CHECK-SAME: workgroup(%{{.*}} : memref<64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[VT_ROWS:.*]] : memref<64x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//   CHECK-DAG:   %[[VT:.*]] = memref.subview %[[VT_ROWS]][0, 0] [64, 64] [1, 1]
//       CHECK:   gpu.barrier
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[C0:.*]] = nvgpu.device_async_copy %[[K]]
//       CHECK:   %[[C1:.*]] = nvgpu.device_async_copy %[[K]]
//   CHECK-NOT:   nvgpu.device_async_copy
// The first block of thread T: rows 4 (T mod 16), columns 4 (T / 16).
//       CHECK:   %[[RB:.*]] = arith.remui %[[T]], %c16{{.*}} : index
//       CHECK:   %[[R0:.*]] = arith.muli %[[RB]], %c4{{.*}} : index
//       CHECK:   %[[CB:.*]] = arith.divui %[[T]], %c16{{.*}} : index
//       CHECK:   %[[P0:.*]] = arith.muli %[[CB]], %c4{{.*}} : index
//       CHECK:   %[[WROWS:.*]] = memref.dim %[[V]], %c0{{.*}} : memref<?x64xf8E4M3FN>
//       CHECK:   %[[ZERO_WORD:.*]] = arith.constant dense<0.000000e+00> : vector<4xf8E4M3FN>
//       CHECK:   %[[IN0:.*]] = arith.cmpi ult, %[[KEY0:.*]], %[[WROWS]] : index
//       CHECK:   %[[ROW0:.*]] = arith.select %[[IN0]], %[[KEY0]], %{{.*}} : index
//       CHECK:   %[[L0:.*]] = vector.load %[[V]][%[[ROW0]], %[[R0]]] {alignment = 4 : i64} : memref<?x64xf8E4M3FN>, vector<4xf8E4M3FN>
//       CHECK:   %[[W0:.*]] = arith.select %[[IN0]], %[[L0]], %[[ZERO_WORD]] : vector<4xf8E4M3FN>
//   CHECK-COUNT-3:   vector.load %[[V]]
//       CHECK:   %[[E00:.*]] = vector.extract %[[W0]][0] : f8E4M3FN from vector<4xf8E4M3FN>
//       CHECK:   %[[S0:.*]] = vector.from_elements %[[E00]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf8E4M3FN>
//       CHECK:   vector.store %[[S0]], %[[VT]][%{{.*}}, %[[P0]]] {alignment = 4 : i64} : memref<64x64xf8E4M3FN, strided<[80, 1]>, #gpu.address_space<workgroup>>, vector<4xf8E4M3FN>
//   CHECK-COUNT-3:   vector.store %{{.*}}, %[[VT]]
// The second block: thread T + 128.
//       CHECK:   arith.addi %[[T]], %c128
//   CHECK-COUNT-4:   vector.load %[[V]]
//   CHECK-COUNT-4:   vector.store %{{.*}}, %[[VT]]
//       CHECK:   %[[G:.*]] = nvgpu.device_async_create_group %[[C0]], %[[C1]]
//       CHECK:   nvgpu.device_async_wait %[[G]]
//       CHECK:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
//   CHECK-NOT:   sage.stage_tile
#keys = affine_map<(d0, d1) -> (d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2, d0)>
gpu.module @kernels {
  gpu.func @rearranged(%k: memref<?x64xi8>, %v: memref<?x64xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %f0 = arith.constant 0.0 : f8E4M3FN
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    %vt = memref.alloc() : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    sage.stage_tile %v pad(%f0 : f8E4M3FN) into %vt {indexing_map = #keys} : memref<?x64xf8E4M3FN> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_not_transposing(%v: memref<?x64xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %vt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{stages along affine_map<(d0, d1) -> (d0, d1 mod 8)>; a kernel stages tiles whose element (r, p) is window element (f(p), r) only}}
    sage.stage_tile %v pad(%i0 : i8) into %vt {indexing_map = affine_map<(d0, d1) -> (d0, d1 mod 8)>} : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_rearranged_padding(%v: memref<?x64xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i1 = arith.constant 1 : i8
    %vt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{pads a rearranged tile with a value other than zero; only zeros are supported}}
    sage.stage_tile %v pad(%i1 : i8) into %vt {indexing_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_rearranged_rows(%v: memref<?x32xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %vt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{transposes 'memref<?x32xi8>' into 'memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>', which words do not tile: window rows must be contiguous, hold as many elements as the tile has rows and start at static strides of whole 32-bit words}}
    sage.stage_tile %v pad(%i0 : i8) into %vt {indexing_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x32xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A matvec whose rows start at strides no 16-byte load can rely on stays
// a loop nest, rows shared by the threads.
// CHECK-LABEL: gpu.func @strided_matvec
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[FIRST:.*]] = arith.addi %{{.*}}, %[[T]] : index
//       CHECK:   scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %{{.*}} {
//       CHECK:     scf.for
//       CHECK:       memref.load %{{.*}} : memref<?x64xf16, strided<[?, 1]>>
//   CHECK-NOT:   vector.load
gpu.module @kernels {
  gpu.func @strided_matvec(%kraw: memref<?x64xf16, strided<[?, 1]>>, %mean: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %ds = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %rows = memref.dim %kraw, %c0 : memref<?x64xf16, strided<[?, 1]>>
    %part = memref.subview %ds[0] [%rows] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>
    linalg.matvec ins(%kraw, %mean : memref<?x64xf16, strided<[?, 1]>>, memref<64xf32>) outs(%part : memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// A matvec with no fill before it and no run to ride: its rows (at most
// 64, for 128 threads) a lane pair each, onto y's initial values, between
// barriers.
// CHECK-LABEL: gpu.func @matvec_alone
//  CHECK-SAME: (%[[A:[^:]*]]: memref<?x64xf16>, %[[X:[^:]*]]: memref<64xf32>, %[[Y:[^:]*]]: memref<64xf32, #gpu.address_space<workgroup>>)
//       CHECK:   gpu.barrier
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[ROWS:.*]] = memref.dim %[[A]]
//       CHECK:   %[[ROW:.*]] = arith.divui %[[T]], %c2{{.*}} : index
//       CHECK:   %[[DOT:.*]] = scf.if
//       CHECK:   %[[OTHER:.*]], %{{.*}} = gpu.shuffle xor %[[DOT]]
//       CHECK:   %[[BOTH:.*]] = arith.addf %[[DOT]], %[[OTHER]] : f32
//       CHECK:   %[[SOME:.*]] = arith.cmpi ult, %[[ROW]], %[[ROWS]] : index
//       CHECK:   %[[STORES:.*]] = arith.andi %{{.*}}, %[[SOME]] : i1
//       CHECK:   scf.if %[[STORES]] {
//       CHECK:     %[[INIT:.*]] = memref.load %[[PART:.*]][%[[ROW]]]
//       CHECK:     %[[SUM:.*]] = arith.addf %[[INIT]], %[[BOTH]] : f32
//       CHECK:     memref.store %[[SUM]], %[[PART]][%[[ROW]]]
//       CHECK:   }
//       CHECK:   gpu.barrier
gpu.module @kernels {
  gpu.func @matvec_alone(%a: memref<?x64xf16>, %x: memref<64xf32>,
                         %y: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %rows = memref.dim %a, %c0 : memref<?x64xf16>
    %part = memref.subview %y[0] [%rows] [1] : memref<64xf32, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>
    linalg.matvec ins(%a, %x : memref<?x64xf16>, memref<64xf32>) outs(%part : memref<?xf32, strided<[1]>, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// 32 rows for 128 threads: four adjacent lanes a row, each taking every
// fourth 16-byte chunk (2 of the 8), their parts added by two shuffles.
// CHECK-LABEL: gpu.func @four_lanes_a_row
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[ROW:.*]] = arith.divui %[[T]], %c4{{.*}} : index
//       CHECK:   %[[PART:.*]] = arith.remui %[[T]], %c4{{.*}} : index
//       CHECK:   %[[DOT:.*]] = scf.if
//       CHECK:     %[[COL0:.*]] = arith.muli %[[PART]], %c8{{.*}} : index
//       CHECK:     vector.load %{{.*}}[%[[ROW]], %[[COL0]]]
//       CHECK:     %[[COL1:.*]] = arith.addi %[[COL0]], %c32{{.*}} : index
//       CHECK:     vector.load %{{.*}}[%[[ROW]], %[[COL1]]]
//       CHECK:     vector.load %{{.*}}[%[[COL1]]]
//   CHECK-NOT:     vector.load
//       CHECK:     vector.reduction <add>
//       CHECK:   %[[OTHER1:.*]], %{{.*}} = gpu.shuffle xor %[[DOT]], %c1{{.*}}, %c32{{.*}} : f32
//       CHECK:   %[[SUM1:.*]] = arith.addf %[[DOT]], %[[OTHER1]] : f32
//       CHECK:   %[[OTHER2:.*]], %{{.*}} = gpu.shuffle xor %[[SUM1]], %c2{{.*}}, %c32{{.*}} : f32
//       CHECK:   arith.addf %[[SUM1]], %[[OTHER2]] : f32
//   CHECK-NOT:   gpu.shuffle
gpu.module @kernels {
  gpu.func @four_lanes_a_row(%a: memref<32x64xf16>, %x: memref<64xf32>,
                             %y: memref<32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    linalg.matvec ins(%a, %x : memref<32x64xf16>, memref<64xf32>) outs(%y : memref<32xf32, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// 128 rows for 128 threads: a row a thread, its 8 chunks in one vector of
// sums; no shuffle.
// CHECK-LABEL: gpu.func @a_row_a_thread
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[SOME:.*]] = arith.cmpi ult, %[[T]], %{{.*}} : index
//       CHECK:   scf.if %[[SOME]] {
//   CHECK-NOT:     arith.divui
//  CHECK-COUNT-8:     vector.fma
//       CHECK:     vector.reduction <add>
//       CHECK:     memref.store %{{.*}}, %{{.*}}[%[[T]]]
//   CHECK-NOT:   gpu.shuffle
gpu.module @kernels {
  gpu.func @a_row_a_thread(%a: memref<128x64xf16>, %x: memref<64xf32>,
                           %y: memref<128xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    linalg.matvec ins(%a, %x : memref<128x64xf16>, memref<64xf32>) outs(%y : memref<128xf32, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// 48 rows for 128 threads: lane pairs (four lanes a row would need 192
// threads); threads 96 to 127 compute nothing, join the shuffle, and store
// nothing.
// CHECK-LABEL: gpu.func @leftover_threads
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[ROWS:.*]] = memref.dim
//       CHECK:   %[[ROW:.*]] = arith.divui %[[T]], %c2{{.*}} : index
//       CHECK:   %[[PART:.*]] = arith.remui %[[T]], %c2{{.*}} : index
//       CHECK:   %[[HAS_ROW:.*]] = arith.cmpi ult, %[[ROW]], %[[ROWS]] : index
//       CHECK:   %[[DOT:.*]] = scf.if %[[HAS_ROW]] -> (f32)
//       CHECK:   gpu.shuffle xor %[[DOT]], %c1{{.*}}, %c32{{.*}} : f32
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[PART]], %c0{{.*}} : index
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %[[ROWS]] : index
//       CHECK:   arith.andi %[[FIRST]], %[[IN]] : i1
gpu.module @kernels {
  gpu.func @leftover_threads(%a: memref<48x64xf16>, %x: memref<64xf32>,
                             %y: memref<48xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    linalg.matvec ins(%a, %x : memref<48x64xf16>, memref<64xf32>) outs(%y : memref<48xf32, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// 256 rows for 128 threads: each thread's rows t and t + 128 in a loop,
// each row's 8 chunks in one vector of sums; no shuffle.
// CHECK-LABEL: gpu.func @more_rows_than_threads
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   scf.for %[[ROW:.*]] = %[[T]] to %{{.*}} step %c128{{.*}} {
//  CHECK-COUNT-8:     vector.fma
//       CHECK:     vector.reduction <add>
//       CHECK:     memref.store %{{.*}}, %{{.*}}[%[[ROW]]]
//   CHECK-NOT:   gpu.shuffle
gpu.module @kernels {
  gpu.func @more_rows_than_threads(%a: memref<256x64xf16>, %x: memref<64xf32>,
                                   %y: memref<256xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    linalg.matvec ins(%a, %x : memref<256x64xf16>, memref<64xf32>) outs(%y : memref<256xf32, #gpu.address_space<workgroup>>)
    gpu.return
  }
}

// -----

// A copy into a view of the tile 4 bytes past a 16-byte boundary: no copy
// size is aligned at both ends. (A tile something views is not padded: the
// view's type depends on its layout.)
gpu.module @kernels {
  gpu.func @negative_misaligned_dest(%k: memref<?x32xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x48xi8, #gpu.address_space<workgroup>>
    %view = memref.subview %kt[0, 2] [64, 32] [1, 1] : memref<64x48xi8, #gpu.address_space<workgroup>> to memref<64x32xi8, strided<[48, 1], offset: 2>, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows of 256 bits from 'memref<?x32xi8>' into 'memref<64x32xi8, strided<[48, 1], offset: 2>, #gpu.address_space<workgroup>>', which 4-, 8- or 16-byte copies do not tile: the rows' strides and the window's and the tile's starts must be provably aligned}}
    sage.stage_tile %k pad(%i0 : i8) into %view : memref<?x32xi8> into memref<64x32xi8, strided<[48, 1], offset: 2>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A tile of index elements, rearranged: no 32-bit word holds whole ones.
gpu.module @kernels {
  gpu.func @negative_rearranged_index(%v: memref<?x64xindex>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : index
    %vt = memref.alloc() : memref<64x64xindex, #gpu.address_space<workgroup>>
    // expected-error @below {{transposes elements of 'index'; words of 32 bits must hold whole ones}}
    sage.stage_tile %v pad(%i0 : index) into %vt {indexing_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x64xindex> into memref<64x64xindex, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A tile of index elements, copied as it is: index has no fixed width
// (found by the fuzzer, tools/sage-fuzz/regressions/sage-stage-tile-index.mlir).
gpu.module @kernels {
  gpu.func @negative_copied_index(%v: memref<?x64xindex>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : index
    %vt = memref.alloc() : memref<64x64xindex, #gpu.address_space<workgroup>>
    // expected-error @below {{copies elements of 'index', which have no fixed width to split rows by}}
    sage.stage_tile %v pad(%i0 : index) into %vt : memref<?x64xindex> into memref<64x64xindex, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A tile a view reads is left unpadded (the view's type names the tile's
// layout); the copy and the read work on the 64-byte rows.
// CHECK-LABEL: gpu.func @viewed_tile
//  CHECK-SAME: workgroup(%[[KT:.*]] : memref<64x64xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//       CHECK:   nvgpu.device_async_copy %{{.*}}, %[[KT]]
//       CHECK:   memref.subview %[[KT]][32, 0] [32, 64] [1, 1] : memref<64x64xi8, #gpu.address_space<workgroup>> to memref<32x64xi8, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @viewed_tile(%k: memref<?x64xi8>, %i: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    %half = memref.subview %kt[32, 0] [32, 64] [1, 1] : memref<64x64xi8, #gpu.address_space<workgroup>> to memref<32x64xi8, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
    %x = memref.load %half[%i, %i] : memref<32x64xi8, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A pipelined K/V loop (sage-pipeline-tiles): two stages of each tile, the
// rows of each stage padded (stage views at the padded strides); block
// j + 1's group issued first (its copies, V^T's word loads, dS's row dots),
// block j read from the other stage, then the group completed at its
// await: V^T's transposed stores, the wait, one barrier. The loop's body
// starts with no barrier: the await's ends every iteration and the one
// before the loop the first.
// CHECK-LABEL: gpu.func @pipelined
//  CHECK-SAME: workgroup(%[[KT_ROWS:.*]] : memref<2x64x80xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[VT_ROWS:.*]] : memref<2x64x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[DS:.*]] : memref<2x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//   CHECK-DAG:   %[[KT:.*]] = memref.subview %[[KT_ROWS]][0, 0, 0] [2, 64, 64] [1, 1, 1] : memref<2x64x80xi8, #gpu.address_space<workgroup>> to memref<2x64x64xi8, strided<[5120, 80, 1]>, #gpu.address_space<workgroup>>
//   CHECK-DAG:   %[[VT:.*]] = memref.subview %[[VT_ROWS]][0, 0, 0] [2, 64, 64] [1, 1, 1]
//       CHECK:   gpu.barrier
//       CHECK:   scf.for %[[J:.*]] =
//   CHECK-NOT:     gpu.barrier
//       CHECK:     %[[STAGE:.*]] = arith.remui %[[J]], %c2
//       CHECK:     %[[NEXT:.*]] = arith.xori %[[STAGE]], %c1
//       CHECK:     %[[KN:.*]] = memref.subview %[[KT]][%[[NEXT]], 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xi8, strided<[5120, 80, 1]>, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[80, 1], offset: ?>, #gpu.address_space<workgroup>>
//       CHECK:     %[[VN:.*]] = memref.subview %[[VT]][%[[NEXT]], 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf8E4M3FN, strided<[5120, 80, 1]>, #gpu.address_space<workgroup>> to memref<64x64xf8E4M3FN, strided<[80, 1], offset: ?>, #gpu.address_space<workgroup>>
//   CHECK-NOT:     gpu.barrier
//       CHECK:     %[[C0:.*]] = nvgpu.device_async_copy {{.*}}, %[[KN]][{{.*}}], 16, {{.*}} {bypassL1}
//       CHECK:     %[[C1:.*]] = nvgpu.device_async_copy {{.*}}, %[[KN]][{{.*}}], 16, {{.*}} {bypassL1}
// CHECK-COUNT-8:     vector.load {{.*}} : memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>>, vector<4xf8E4M3FN>
//   CHECK-NOT:     vector.store
//       CHECK:     vector.load {{.*}} : memref<?x64xf16, strided<[64, 1], offset: ?>>, vector<8xf16>
//       CHECK:     memref.store {{.*}}, %{{.*}}[%{{.*}}] : memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// The group is committed where it is issued, waited for at the await.
//       CHECK:     %[[G:.*]] = nvgpu.device_async_create_group %[[C0]], %[[C1]]
//   CHECK-NOT:     gpu.barrier
//       CHECK:     %[[KJ:.*]] = memref.subview %[[KT]][%[[STAGE]], 0, 0] [1, 64, 64]
//       CHECK:     vector.transfer_read %[[KJ]]
//       CHECK:     memref.store
//   CHECK-NOT:     gpu.barrier
// CHECK-COUNT-8:     vector.store {{.*}}, %[[VN]][{{.*}}] {alignment = 4 : i64} : memref<64x64xf8E4M3FN, strided<[80, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<4xf8E4M3FN>
//   CHECK-NOT:     gpu.barrier
//       CHECK:     nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
//       CHECK:     gpu.barrier
//  CHECK-NEXT:   }
//   CHECK-NOT:   sage.stage
#keys = affine_map<(d, p) -> (p floordiv 32 * 32 + ((p mod 32) floordiv 16) * 16 + ((p mod 4) floordiv 2) * 8 + ((p mod 16) floordiv 4) * 2 + p mod 2, d)>
gpu.module @pipelined {
  gpu.func @pipelined(%k: memref<?x64xi8>, %v: memref<?x64xf8E4M3FN>, %kraw: memref<?x64xf16>,
                      %mean: memref<64xf32>, %blocks: index,
                      %out: memref<64xi8, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i8
    %f0 = arith.constant 0.0 : f8E4M3FN
    %z = arith.constant 0.0 : f32
    %keys = memref.dim %k, %c0 : memref<?x64xi8>
    %kt = memref.alloc() : memref<2x64x64xi8, #gpu.address_space<workgroup>>
    %vt = memref.alloc() : memref<2x64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    %ds = memref.alloc() : memref<2x64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.for %j = %c0 to %blocks step %c1 {
      %stage = arith.remui %j, %c2 : index
      %next = arith.xori %stage, %c1 : index
      %group = sage.stage_async {
        %kn = memref.subview %kt[%next, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %vn = memref.subview %vt[%next, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf8E4M3FN, #gpu.address_space<workgroup>> to memref<64x64xf8E4M3FN, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %dn = memref.subview %ds[%next, 0] [1, 64] [1, 1] : memref<2x64xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
        %jn = arith.addi %j, %c1 : index
        %row = arith.muli %jn, %c64 : index
        %left = arith.subi %keys, %row : index
        %rows = arith.minsi %left, %c64 : index
        %kw = memref.subview %k[%row, 0] [%rows, 64] [1, 1] : memref<?x64xi8> to memref<?x64xi8, strided<[64, 1], offset: ?>>
        sage.stage_tile %kw pad(%i0 : i8) into %kn : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %vw = memref.subview %v[%row, 0] [%rows, 64] [1, 1] : memref<?x64xf8E4M3FN> to memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>>
        sage.stage_tile %vw pad(%f0 : f8E4M3FN) into %vn {indexing_map = #keys} : memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>> into memref<64x64xf8E4M3FN, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %rw = memref.subview %kraw[%row, 0] [%rows, 64] [1, 1] : memref<?x64xf16> to memref<?x64xf16, strided<[64, 1], offset: ?>>
        linalg.fill ins(%z : f32) outs(%dn : memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>)
        %part = memref.subview %dn[0] [%rows] [1] : memref<64xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>> to memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
        linalg.matvec ins(%rw, %mean : memref<?x64xf16, strided<[64, 1], offset: ?>>, memref<64xf32>) outs(%part : memref<?xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>)
      }
      %kj = memref.subview %kt[%stage, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %a = vector.transfer_read %kj[%c0, %c0], %i0 {in_bounds = [true]} : memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<4xi8>
      %x = vector.extract %a[0] : i8 from vector<4xi8>
      memref.store %x, %out[%c0] : memref<64xi8, #gpu.address_space<workgroup>>
      sage.stage_await %group
    }
    gpu.return
  }
}

// -----

gpu.module @group_product {
  gpu.func @kernel(%w: memref<64x64xi8>, %t: memref<64x64xi8, #gpu.address_space<workgroup>>,
                   %u: memref<64x64xi8, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %group = sage.stage_async {
      sage.stage_tile %w into %t : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
      // expected-error @below {{is staged in a sage.stage_async, where sage-lower-staging lowers only sage.stage_tile copies and row dots (a linalg.matvec whose rows 16-byte loads read, just after the linalg.fill of its result)}}
      linalg.copy ins(%w : memref<64x64xi8>) outs(%u : memref<64x64xi8, #gpu.address_space<workgroup>>)
    }
    sage.stage_await %group
    gpu.return
  }
}

// -----

gpu.module @group_fill {
  gpu.func @kernel(%w: memref<64x64xi8>, %t: memref<64x64xi8, #gpu.address_space<workgroup>>,
                   %d: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %z = arith.constant 0.0 : f32
    %group = sage.stage_async {
      sage.stage_tile %w into %t : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
      // expected-error @below {{is staged in a sage.stage_async, where sage-lower-staging computes fills only just before the row dots they start}}
      linalg.fill ins(%z : f32) outs(%d : memref<64xf32, #gpu.address_space<workgroup>>)
    }
    sage.stage_await %group
    gpu.return
  }
}

// -----

gpu.module @group_dots_alone {
  gpu.func @kernel(%a: memref<64x64xf16>, %x: memref<64xf32>,
                   %d: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %z = arith.constant 0.0 : f32
    // expected-error @below {{stages row dots without copies; sage-lower-staging issues row dots with a group's copies only}}
    %group = sage.stage_async {
      linalg.fill ins(%z : f32) outs(%d : memref<64xf32, #gpu.address_space<workgroup>>)
      linalg.matvec ins(%a, %x : memref<64x64xf16>, memref<64xf32>) outs(%d : memref<64xf32, #gpu.address_space<workgroup>>)
    }
    sage.stage_await %group
    gpu.return
  }
}

// -----

// One stage: a loop whose body stages its tiles and does not end with a
// barrier keeps the barrier that starts it (the last iteration's readers
// may still read the tile); a group awaited last in an scf.if without an
// else ends with its barrier after the if.
// CHECK-LABEL: gpu.func @one_stage
//       CHECK:   scf.if
//       CHECK:     nvgpu.device_async_wait {{.*}}
//  CHECK-NEXT:   }
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   scf.for
//  CHECK-NEXT:     gpu.barrier
//       CHECK:     nvgpu.device_async_copy
gpu.module @one_stage {
  gpu.func @one_stage(%k: memref<64x64xi8>, %blocks: index, %runs: i1,
                      %out: memref<64xi8, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i8
    %first = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    scf.if %runs {
      %group = sage.stage_async {
        sage.stage_tile %k into %first : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
      }
      sage.stage_await %group
    }
    scf.for %j = %c0 to %blocks step %c1 {
      %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
      sage.stage_tile %k into %kt : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
      %a = vector.transfer_read %kt[%c0, %c0], %i0 {in_bounds = [true]} : memref<64x64xi8, #gpu.address_space<workgroup>>, vector<4xi8>
      %x = vector.extract %a[0] : i8 from vector<4xi8>
      memref.store %x, %out[%c0] : memref<64xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// A window of V stored for the P V MMA ([.., features, groups, 32]): its
// groups collapsed into rows whose stride is dynamic but a multiple of 32
// bytes (the buffer's static inner size), so each row is copied in 16-byte
// pieces, zero past the window's groups.
// CHECK-LABEL: gpu.func @stored_values
//  CHECK-SAME: (%[[V:[^:]*]]: memref<?x?x64x?x32xf8E4M3FN>
//  CHECK-SAME: workgroup(%[[VT_ROWS:.*]] : memref<64x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//       CHECK:   %[[VT:.*]] = memref.subview %[[VT_ROWS]][0, 0] [64, 64] [1, 1]
//       CHECK:   %[[WINDOW:.*]] = memref.subview %[[V]]
//       CHECK:   %[[ROWS:.*]] = memref.collapse_shape %[[WINDOW]] {{\[\[}}0], [1, 2]]
//       CHECK:   nvgpu.device_async_copy %[[ROWS]][%{{.*}}, %{{.*}}], %[[VT]][%{{.*}}, %{{.*}}], 16, %{{.*}} {bypassL1} : memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>> to memref<64x64xf8E4M3FN, strided<[80, 1]>, #gpu.address_space<workgroup>>
//       CHECK:   nvgpu.device_async_copy %[[ROWS]]
//   CHECK-NOT:   nvgpu.device_async_copy
//       CHECK:   nvgpu.device_async_create_group
gpu.module @kernels {
  gpu.func @stored_values(%v: memref<?x?x64x?x32xf8E4M3FN>, %b: index, %h: index, %g: index, %groups: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %f0 = arith.constant 0.0 : f8E4M3FN
    %window = memref.subview %v[%b, %h, 0, %g, 0] [1, 1, 64, %groups, 32] [1, 1, 1, 1, 1] : memref<?x?x64x?x32xf8E4M3FN> to memref<64x?x32xf8E4M3FN, strided<[?, 32, 1], offset: ?>>
    %rows = memref.collapse_shape %window [[0], [1, 2]] : memref<64x?x32xf8E4M3FN, strided<[?, 32, 1], offset: ?>> into memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>>
    %vt = memref.alloc() : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    sage.stage_tile %rows pad(%f0 : f8E4M3FN) into %vt : memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// The same window of V^T stored [.., features, keys]: nothing says a row's
// stride (the key count) is a multiple of 16 bytes.
gpu.module @kernels {
  gpu.func @negative_unknown_row_stride(%v: memref<?x?x64x?xf8E4M3FN>, %b: index, %h: index, %first: index, %keys: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %f0 = arith.constant 0.0 : f8E4M3FN
    %rows = memref.subview %v[%b, %h, 0, %first] [1, 1, 64, %keys] [1, 1, 1, 1] : memref<?x?x64x?xf8E4M3FN> to memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>>
    %vt = memref.alloc() : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows of 512 bits from 'memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>>' into 'memref<64x64xf8E4M3FN, strided<[80, 1]>, #gpu.address_space<workgroup>>', which 4-, 8- or 16-byte copies do not tile: the rows' strides and the window's and the tile's starts must be provably aligned}}
    sage.stage_tile %rows pad(%f0 : f8E4M3FN) into %vt : memref<64x?xf8E4M3FN, strided<[?, 1], offset: ?>> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Windows staged as K-major core matrices ([K / 16, rows, 16] bytes, what a
// wgmma reads through descriptors: sage-distribute-tiles): each becomes a
// plain copy of the window split into 16-byte columns (an expand_shape;
// V's stored keys are whole groups of 32, so its dynamic width splits too)
// into the tile's transposed view, 16 bytes a copy, a core matrix's 8
// rows to 8 consecutive threads (128 contiguous bytes: no bank conflict).
// The MMA reads the tiles through the async proxy: the wait is followed
// by a proxy fence before the barrier.
// CHECK-LABEL: gpu.func @core_matrices
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8>, %{{[^:]*}}: memref<64x?x32xf8E4M3FN>)
//  CHECK-SAME: workgroup(%[[KT:.*]] : memref<4x64x16xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[VT:.*]] : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//       CHECK:   %[[WINDOW:.*]] = memref.collapse_shape
//       CHECK:   %[[K_COLUMNS:.*]] = memref.expand_shape %[[K]] {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 4, 16] : memref<?x64xi8> into memref<?x4x16xi8>
//       CHECK:   %[[K_VIEW:.*]] = memref.transpose %[[KT]] (d0, d1, d2) -> (d1, d0, d2) : memref<4x64x16xi8, #gpu.address_space<workgroup>> to memref<64x4x16xi8, strided<[16, 1024, 1]>, #gpu.address_space<workgroup>>
//       CHECK:   gpu.barrier
//       CHECK:   %[[PIECE:.*]] = arith.addi %{{.*}}, %c0{{.*}} : index
//       CHECK:   %[[IN_GROUP:.*]] = arith.remui %[[PIECE]], %c8 : index
//       CHECK:   %[[REST:.*]] = arith.divui %[[PIECE]], %c8 : index
//       CHECK:   %[[COLUMN:.*]] = arith.remui %[[REST]], %c4 : index
//       CHECK:   %[[GROUP:.*]] = arith.divui %[[REST]], %c4 : index
//       CHECK:   %[[FIRST_ROW:.*]] = arith.muli %[[GROUP]], %c8 : index
//       CHECK:   %[[ROW:.*]] = arith.addi %[[FIRST_ROW]], %[[IN_GROUP]] : index
//       CHECK:   %[[C0:.*]] = nvgpu.device_async_copy %[[K_COLUMNS]][{{.*}}], %[[K_VIEW]][%[[ROW]], %[[COLUMN]], %{{.*}}], 16, %{{.*}} {bypassL1}
//       CHECK:   %[[C1:.*]] = nvgpu.device_async_copy %[[K_COLUMNS]][{{.*}}], %[[K_VIEW]][{{.*}}], 16, %{{.*}} {bypassL1}
//       CHECK:   %[[WIDTH:.*]] = memref.dim %[[WINDOW]], %c1{{.*}} : memref<64x?xf8E4M3FN>
//       CHECK:   %[[V_16:.*]] = arith.divui %[[WIDTH]], %c16{{.*}} : index
//       CHECK:   %[[V_COLUMNS:.*]] = memref.expand_shape %[[WINDOW]] {{\[}}[0], [1, 2]] output_shape [64, %[[V_16]], 16] : memref<64x?xf8E4M3FN> into memref<64x?x16xf8E4M3FN>
//       CHECK:   %[[V_VIEW:.*]] = memref.transpose %[[VT]] (d0, d1, d2) -> (d1, d0, d2)
//       CHECK:   %[[C2:.*]] = nvgpu.device_async_copy %[[V_COLUMNS]][{{.*}}], %[[V_VIEW]][{{.*}}], 16, %{{.*}} {bypassL1}
//       CHECK:   %[[C3:.*]] = nvgpu.device_async_copy %[[V_COLUMNS]][{{.*}}], %[[V_VIEW]][{{.*}}], 16, %{{.*}} {bypassL1}
//       CHECK:   %[[G:.*]] = nvgpu.device_async_create_group %[[C0]], %[[C1]], %[[C2]], %[[C3]]
//       CHECK:   nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
//       CHECK:   nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//       CHECK:   gpu.barrier
//       CHECK:   sage.tile_descriptor %[[KT]]
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
gpu.module @kernels {
  gpu.func @core_matrices(%k: memref<?x64xi8>, %v: memref<64x?x32xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i8
    %f0 = arith.constant 0.0 : f8E4M3FN
    %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %vt = memref.alloc() : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    %window = memref.collapse_shape %v [[0], [1, 2]] : memref<64x?x32xf8E4M3FN> into memref<64x?xf8E4M3FN>
    sage.stage_tile %k pad(%i0 : i8) into %kt {indexing_map = #core} : memref<?x64xi8> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    sage.stage_tile %window pad(%f0 : f8E4M3FN) into %vt {indexing_map = #core} : memref<64x?xf8E4M3FN> into memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    %dk = sage.tile_descriptor %kt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_core_matrix_columns(%k: memref<?x40xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{cannot view 'memref<?x40xi8>' as rows of 16-element columns: the width must be provably a multiple of 16}}
    sage.stage_tile %k pad(%i0 : i8) into %kt {indexing_map = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>} : memref<?x40xi8> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// A dynamic width that nothing proves a multiple of 16 (a stored V's
// would be collapsed from groups of 32).
gpu.module @kernels {
  gpu.func @negative_core_matrix_width(%v: memref<64x?xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %f0 = arith.constant 0.0 : f8E4M3FN
    %vt = memref.alloc() : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    // expected-error @below {{cannot view 'memref<64x?xf8E4M3FN>' as rows of 16-element columns: the width must be provably a multiple of 16}}
    sage.stage_tile %v pad(%f0 : f8E4M3FN) into %vt {indexing_map = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>} : memref<64x?xf8E4M3FN> into memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    gpu.return
  }
}
