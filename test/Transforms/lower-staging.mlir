// RUN: sage-opt %s --sage-lower-staging -split-input-file -verify-diagnostics | FileCheck %s

// A kernel after outlining (docs/Levels.md, L3): a 64 x 64 i8 K window
// (its last block short) and a whole 16 x 32 f16 tile staged together, then
// dS computed into workgroup memory by a fill and a matvec. The tiles
// become 16-byte-aligned workgroup attributions; the copies each thread's
// 16-byte pieces (2 of K's 256 a thread, zero-filled past the window's
// rows; 64 of the f16 tile's, for threads 0 to 63), one group waited for;
// the products loops whose rows the threads share.
// CHECK-LABEL: gpu.func @kernel
//  CHECK-SAME: (%[[K:[^:]*]]: memref<?x64xi8, strided<[64, 1], offset: ?>>, %[[W:[^:]*]]: memref<16x32xf16>, %[[KRAW:[^:]*]]: memref<?x64xf16>, %[[MEAN:[^:]*]]: memref<64xf32>)
//  CHECK-SAME: workgroup(%[[KT:.*]] : memref<64x64xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[WT:.*]] : memref<16x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[DS:.*]] : memref<64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//       CHECK:   gpu.barrier
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[ROWS:.*]] = memref.dim %[[K]], %{{.*}} : memref<?x64xi8, strided<[64, 1], offset: ?>>
//       CHECK:   %[[IN_ROWS:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[ROWS]] : index
//       CHECK:   %[[LEFT:.*]] = arith.minui %{{.*}}, %c16{{.*}} : index
//       CHECK:   %[[N0:.*]] = arith.select %{{.*}}, %[[LEFT]], %{{.*}} : index
//       CHECK:   %[[READS:.*]] = arith.cmpi ne, %[[N0]], %{{.*}} : index
//       CHECK:   %[[SROW:.*]] = arith.select %[[READS]], %[[ROW]], %{{.*}} : index
//       CHECK:   %[[C0:.*]] = nvgpu.device_async_copy %[[K]][%[[SROW]], %{{.*}}], %[[KT]][%[[ROW]], %{{.*}}], 16, %[[N0]] {bypassL1}
//       CHECK:   %[[SECOND:.*]] = arith.addi %[[T]], %c128
//       CHECK:   %[[C1:.*]] = nvgpu.device_async_copy %[[K]][%{{.*}}, %{{.*}}], %[[KT]][%{{.*}}, %{{.*}}], 16, %{{.*}} {bypassL1}
//   CHECK-NOT:   nvgpu.device_async_copy
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
//       CHECK:   %[[T2:.*]] = gpu.thread_id x
//       CHECK:   %[[FIRST:.*]] = arith.addi %{{.*}}, %[[T2]] : index
//       CHECK:   %[[STEP:.*]] = arith.muli %{{.*}}, %c128{{.*}} : index
//       CHECK:   scf.for %[[I:.*]] = %[[FIRST]] to %c64{{.*}} step %[[STEP]] {
//       CHECK:     memref.store %{{.*}}, %[[DS]]
//       CHECK:   gpu.barrier
//   CHECK-NOT:   gpu.barrier
//       CHECK:   %[[T3:.*]] = gpu.thread_id x
//       CHECK:   %[[FIRST3:.*]] = arith.addi %{{.*}}, %[[T3]] : index
//       CHECK:   scf.for %[[R:.*]] = %[[FIRST3]] to %{{.*}} step %{{.*}} {
//       CHECK:     scf.for
//       CHECK:       memref.load %[[KRAW]]
//       CHECK:   gpu.barrier
//   CHECK-NOT:   sage.stage_tile
//   CHECK-NOT:   memref.alloc
gpu.module @kernels {
  gpu.func @kernel(%k: memref<?x64xi8, strided<[64, 1], offset: ?>>, %w: memref<16x32xf16>,
                   %kraw: memref<?x64xf16>, %mean: memref<64xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    %wt = memref.alloc() : memref<16x32xf16, #gpu.address_space<workgroup>>
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
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
    // expected-error @below {{copies rows of 48 bits from 'memref<?x6xi8>', which 4-, 8- or 16-byte copies do not tile at static row strides}}
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
    // expected-error @below {{copies rows of 512 bits from 'memref<?x64xi8, strided<[?, 1], offset: ?>>', which 4-, 8- or 16-byte copies do not tile at static row strides}}
    sage.stage_tile %k pad(%i0 : i8) into %kt : memref<?x64xi8, strided<[?, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @negative_columns(%k: memref<?x64xi8, strided<[1, 64]>>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    // expected-error @below {{copies rows that are not contiguous ('memref<?x64xi8, strided<[1, 64]>>' into 'memref<64x64xi8, #gpu.address_space<workgroup>>')}}
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
