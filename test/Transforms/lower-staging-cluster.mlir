// RUN: sage-opt %s --sage-lower-staging=bulk-copies=1 --cse --split-input-file --verify-diagnostics | FileCheck %s

// A kernel launched in clusters of two CTAs along x (nvvm.cluster_dim,
// which sage-attach-nvvm-target copies from the launch). Q's window is
// indexed by the x block id: each CTA copies its own, as without a
// cluster. K's block is the same in both CTAs (the y block id and the
// loop's block): before it is issued every thread of the cluster waits on
// the cluster barrier (the other CTA may still read the stage it
// overwrites), thread 0 fences the async proxy at cluster scope and arms
// its barrier with the whole block (4096 bytes), and CTA r's thread 0
// copies bytes [2048 r, 2048 r + 2048), multicast to both CTAs (mask
// 0b11). The barrier is split: each thread arrives at the end of an
// iteration (and once before the loop) and waits where the next block is
// issued (and once after the loop).
// CHECK-LABEL: gpu.func @cluster
//       CHECK:   nvvm.mbarrier.init
//       CHECK:   %[[Q_STATE:.*]] = scf.if
//       CHECK:     nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
//       CHECK:     nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32
//       CHECK:   scf.if
//       CHECK:     nvvm.cp.async.bulk.shared.cluster.global %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}}, %c4096_i32 : !llvm.ptr<7>, <1>
//       CHECK:   nvvm.cluster.arrive {aligned}
//  CHECK-NEXT:   scf.for
//   CHECK-NOT:     nvvm.cluster.arrive
//       CHECK:     nvvm.cluster.wait {aligned}
//       CHECK:     scf.if %{{.*}} -> (i64) {
//       CHECK:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
//       CHECK:       nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32
//       CHECK:     scf.if
//       CHECK:       %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
//       CHECK:       %[[OFFSET:.*]] = arith.muli %[[RANK]], %c2048_i32 : i32
//       CHECK:       %[[DST:.*]] = llvm.getelementptr %{{.*}}[%[[OFFSET]]] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, i8
//       CHECK:       %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%[[OFFSET]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i8
//       CHECK:       nvvm.cp.async.bulk.shared.cluster.global %[[DST]], %[[SRC]], %{{[^ ]*}}, %c2048_i32 multicast_mask = %c3_i16
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}mbarrier.try_wait
//       CHECK:     gpu.barrier
//  CHECK-NEXT:     nvvm.cluster.arrive {aligned}
//  CHECK-NEXT:   }
//  CHECK-NEXT:   nvvm.cluster.wait {aligned}
gpu.module @kernels {
  gpu.func @cluster(%q: memref<?x4x64x16xi8>, %k: memref<?x?x4x64x16xi8>, %blocks: index,
                    %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %i0 = arith.constant 0 : i8
    %x = gpu.block_id x
    %y = gpu.block_id y
    %qt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %qw = memref.subview %q[%x, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
    sage.stage_tile %qw pad(%i0 : i8) into %qt : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %dq = sage.tile_descriptor %qt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    memref.store %dq, %out[%c0] : memref<1xi64>
    %kt = memref.alloc() : memref<2x4x64x16xi8, #gpu.address_space<workgroup>>
    scf.for %j = %c0 to %blocks step %c1 {
      %next = arith.addi %j, %c1 : index
      %s = arith.remui %next, %c2 : index
      %stage = memref.subview %kt[%s, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<2x4x64x16xi8, #gpu.address_space<workgroup>> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
      %g = sage.stage_async {
        %kw = memref.subview %k[%y, %next, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1] : memref<?x?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
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

// A shared tile whose half is not a whole number of 16-byte pieces (48
// bytes) is copied whole by one CTA of the cluster, multicast to all.
// CHECK-LABEL: gpu.func @unsplit
//       CHECK:   nvvm.cluster.arrive {aligned}
//       CHECK:   %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
//       CHECK:   %[[MINE:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
//       CHECK:   scf.if %[[MINE]] {
//       CHECK:     nvvm.cp.async.bulk.shared.cluster.global %{{[^ ]*}}, %{{[^ ]*}}, %{{[^ ]*}}, %c48_i32 multicast_mask = %c3_i16
gpu.module @kernels {
  gpu.func @unsplit(%k: memref<?x3x16xi8>, %out: memref<1xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i8
    %y = gpu.block_id y
    %kt = memref.alloc() {alignment = 16 : i64} : memref<3x16xi8, #gpu.address_space<workgroup>>
    %kw = memref.subview %k[%y, 0, 0] [1, 3, 16] [1, 1, 1] : memref<?x3x16xi8> to memref<3x16xi8, strided<[16, 1], offset: ?>>
    sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<3x16xi8, strided<[16, 1], offset: ?>> into memref<3x16xi8, #gpu.address_space<workgroup>>
    %v = memref.load %kt[%c0, %c0] : memref<3x16xi8, #gpu.address_space<workgroup>>
    memref.store %v, %out[%c0] : memref<1xi8>
    gpu.return
  }
}

// -----

// A cluster none of whose stagings every CTA shares (each is indexed by
// the x block id) would only add barriers: refused.
gpu.module @kernels {
  // expected-error @+1 {{is launched in clusters of 2 CTAs, but none of its stagings is a bulk copy (bulk-copies, sm_90a) of a window every CTA of the cluster stages, which the cluster would multicast}}
  gpu.func @negative_nothing_shared(%q: memref<?x4x64x16xi8>, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i8
    %x = gpu.block_id x
    %qt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %qw = memref.subview %q[%x, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
    sage.stage_tile %qw pad(%i0 : i8) into %qt : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %dq = sage.tile_descriptor %qt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    memref.store %dq, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// Clusters run along x (the Q blocks): a kernel's y block ids are the
// same in each CTA of the cluster only then.
gpu.module @kernels {
  // expected-error @+1 {{is launched in clusters of shape array<i32: 1, 2, 1>; sage-lower-staging shares stages in clusters along x only (the Q blocks of sage-tile-attention's cluster-ctas)}}
  gpu.func @negative_cluster_along_y(%k: memref<?x4x64x16xi8>, %out: memref<1xi64>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 1, 2, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i8
    %y = gpu.block_id y
    %kt = memref.alloc() : memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %kw = memref.subview %k[%y, 0, 0, 0] [1, 4, 64, 16] [1, 1, 1, 1] : memref<?x4x64x16xi8> to memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>>
    sage.stage_tile %kw pad(%i0 : i8) into %kt : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>> into memref<4x64x16xi8, #gpu.address_space<workgroup>>
    %dk = sage.tile_descriptor %kt[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
        : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
    memref.store %dk, %out[%c0] : memref<1xi64>
    gpu.return
  }
}
