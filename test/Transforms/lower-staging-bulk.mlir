// RUN: sage-opt %s --sage-lower-staging=bulk-copies=1 --cse --split-input-file | FileCheck %s
// RUN: sage-opt %s --sage-lower-staging --split-input-file | FileCheck %s --check-prefix=THREADS

// Tiles stored in stage order (contiguous, 16-byte aligned: blocks of a
// [heads, blocks, 4, 64, 16] operand) into contiguous workgroup tiles: one
// bulk copy each. Thread 0 initializes the CTA's staging mbarrier for the
// 128 threads at the kernel's start; at the run every thread arrives on it
// (thread 0 expecting both tiles' 8192 bytes, after a proxy fence), thread
// 0 issues the copies, and every thread waits for the phase it arrived on
// before the barrier after which the tiles are read.
// CHECK-LABEL: gpu.func @bulk
//  CHECK-SAME: workgroup(%[[KT:[^ ]*]] : memref<4x64x16xi8, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[VT:[^ ]*]] : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[BAR:[^ ]*]] : memref<1xi64, #gpu.address_space<workgroup>> {llvm.align = 8 : i64})
//       CHECK:   %[[T:.*]] = gpu.thread_id x
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[T]], %c0
//       CHECK:   scf.if %[[FIRST]] {
//       CHECK:     %[[INIT_AT:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
//       CHECK:     nvvm.mbarrier.init %[[INIT_AT]], %c128_i32
//       CHECK:     nvvm.fence.mbarrier.init
//       CHECK:   }
//  CHECK-NEXT:   gpu.barrier
//       CHECK:   %[[K_WINDOW:.*]] = memref.subview
//       CHECK:   %[[AT:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
//       CHECK:   %[[STATE:.*]] = scf.if %{{.*}} -> (i64) {
//       CHECK:     nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//       CHECK:     %[[EXPECTING:.*]] = nvvm.mbarrier.arrive.expect_tx %[[AT]], %c8192_i32 : !llvm.ptr<3>, i32 -> i64
//       CHECK:     scf.yield %[[EXPECTING]]
//       CHECK:   } else {
//       CHECK:     %[[ARRIVED:.*]] = nvvm.mbarrier.arrive %[[AT]] : !llvm.ptr<3> -> i64
//       CHECK:     scf.yield %[[ARRIVED]]
//       CHECK:   scf.if %{{.*}} {
//       CHECK:     memref.extract_aligned_pointer_as_index %[[KT]]
//       CHECK:     %[[K_SHARED:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
//       CHECK:     %[[K_DST:.*]] = llvm.addrspacecast %[[K_SHARED]] : !llvm.ptr<3> to !llvm.ptr<7>
//       CHECK:     memref.extract_aligned_pointer_as_index %[[K_WINDOW]]
//       CHECK:     %[[K_GENERIC:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
//       CHECK:     %[[K_SRC:.*]] = llvm.addrspacecast %[[K_GENERIC]] : !llvm.ptr to !llvm.ptr<1>
//       CHECK:     nvvm.cp.async.bulk.shared.cluster.global %[[K_DST]], %[[K_SRC]], %[[AT]], %c4096_i32
//       CHECK:   %[[V_WINDOW:.*]] = memref.subview
//       CHECK:   scf.if %{{.*}} {
//       CHECK:     memref.extract_aligned_pointer_as_index %[[VT]]
//       CHECK:     memref.extract_aligned_pointer_as_index %[[V_WINDOW]]
//       CHECK:     nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %[[AT]], %c4096_i32
// The wait polls inside one instruction, so that LLVM sees no loop to
// sink the values computed before it into (BulkCopies.cpp).
//       CHECK:   llvm.inline_asm has_side_effects "{\0A.reg .pred done;\0Await:\0Ambarrier.try_wait.shared::cta.b64 done, [$0], $1;\0A@!done bra wait;\0A}", "l,l,~{memory}" %[[AT]], %[[STATE]] : (!llvm.ptr<3>, i64) -> ()
//   CHECK-NOT:   nvvm.fence.proxy
//       CHECK:   gpu.barrier
//  CHECK-NEXT:   sage.tile_descriptor %[[KT]]
//   CHECK-NOT:   nvgpu.device_async_copy
// Without bulk-copies, the threads copy 16 bytes at a time.
// THREADS-LABEL: gpu.func @bulk
//   THREADS-NOT:   mbarrier
//       THREADS:   nvgpu.device_async_copy
gpu.module @kernels {
  gpu.func @bulk(%k: memref<?x?x4x64x16xi8>, %v: memref<?x?x4x64x16xf8E4M3FN>, %j: index, %h: index,
                 %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i8
    %f0 = arith.constant 0.0 : f8E4M3FN
    %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %vt = memref.alloc() : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    %kw = memref.subview %k[%h, %j, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1] : memref<?x?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
    sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %vw = memref.subview %v[%h, %j, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1] : memref<?x?x4x64x16xf8E4M3FN> to memref<4x64x16xf8E4M3FN, strided<[1024, 16, 1], offset: ?>>
    sage.stage_tile %vw pad(%f0 : f8E4M3FN) into %vt : memref<4x64x16xf8E4M3FN, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>
    %dk = sage.tile_descriptor %kt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    memref.store %dk, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// Two stages (sage-pipeline-tiles): block j + 1 is issued into a stage
// view (contiguous, at a dynamic multiple of 4096 bytes) where the group
// stands and waited for at its await, with the same mbarrier.
// CHECK-LABEL: gpu.func @group
//       CHECK:   nvvm.mbarrier.init
//       CHECK:   scf.for
//       CHECK:     %[[STAGE:.*]] = memref.subview %{{.*}}[%{{.*}}, 0, 0, 0] [1, 4, 64, 16]
//       CHECK:     %[[STATE:.*]] = scf.if %{{.*}} -> (i64) {
//       CHECK:       nvvm.mbarrier.arrive.expect_tx %[[AT:[^,]*]], %c4096_i32
//       CHECK:     scf.if
//       CHECK:       memref.extract_aligned_pointer_as_index %[[STAGE]]
//       CHECK:       nvvm.cp.async.bulk.shared.cluster.global
//       CHECK:     sage.tile_descriptor %[[STAGE]]
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}mbarrier.try_wait{{.*}} %[[AT]], %[[STATE]]
//       CHECK:     gpu.barrier
//  CHECK-NEXT:   }
gpu.module @kernels {
  gpu.func @group(%k: memref<?x4x64x16xi8>, %blocks: index, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<2x4x64x16xi8, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %blocks step %c1 {
      %next = arith.addi %j, %c1 : index
      %s = arith.remui %next, %c2 : index
      %stage = memref.subview %kt[%s, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<2x4x64x16xi8, #gpu.address_space<workgroup>> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
      %g = sage.stage_async {
        %kw = memref.subview %k[%next, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
        sage.stage_tile %kw pad(%i0 : i8) into %stage : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
      }
      %dk = sage.tile_descriptor %stage[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
          a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
          : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>> -> i64
      memref.store %dk, %out[%c0] : memref<1xi64>
      sage.stage_await %g
    }
    gpu.return
  }
}

// -----

// A window that is not contiguous (16 of each 64-byte row) is copied by
// the threads even with bulk-copies.
// CHECK-LABEL: gpu.func @rows
//   CHECK-NOT:   mbarrier
//       CHECK:   nvgpu.device_async_copy
gpu.module @kernels {
  gpu.func @rows(%k: memref<64x64xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<64x16xi8, #gpu.address_space<workgroup>>
    %kw = memref.subview %k[0, 16] [64, 16] [1, 1] : memref<64x64xi8> to memref<64x16xi8, strided<[64, 1], offset: 16>>
    sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<64x16xi8, strided<[64, 1], offset: 16>> into memref<64x16xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Two groups in flight together (the second issued before the first is
// awaited): one staging mbarrier cannot tell their phases apart, so the
// threads copy both.
// CHECK-LABEL: gpu.func @overlapping_groups
//   CHECK-NOT:   mbarrier
//       CHECK:   nvgpu.device_async_copy
gpu.module @kernels {
  gpu.func @overlapping_groups(%k: memref<?x4x64x16xi8>, %j: index, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i8
    %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %kn = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %next = arith.addi %j, %c1 : index
    %g1 = sage.stage_async {
      %kw = memref.subview %k[%j, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
      sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    }
    %g2 = sage.stage_async {
      %kw = memref.subview %k[%next, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
      sage.stage_tile %kw pad(%i0 : i8) into %kn : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    }
    sage.stage_await %g1
    %dk = sage.tile_descriptor %kt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    memref.store %dk, %out[%c0] : memref<1xi64>
    sage.stage_await %g2
    gpu.return
  }
}
