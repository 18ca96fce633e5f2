// sage-bound-registers: nvvm.minctasm = 3 on a kernel that issues warp
// or warpgroup MMAs from at most 128 threads, accumulates 64 to 127 f32 elements a lane
// (O at D = 128) and whose workgroup memory (plus 1 KiB a CTA) fits three
// times in an SM of its module's chip (228 KiB on sm_90, 100 KiB on sm_89);
// nvvm.minctasm = 4 on a wgmma one that accumulates 32 to 63 (O at D = 64).
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(sage-bound-registers))" | FileCheck %s
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(sage-bound-registers{wide-mma-ctas-per-sm=0}))" | FileCheck %s --check-prefix=OFF
// RUN: sage-opt %s --pass-pipeline="builtin.module(gpu.module(sage-bound-registers{narrow-wgmma-ctas-per-sm=0}))" | FileCheck %s --check-prefix=NARROW-OFF

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>

// CHECK-LABEL: gpu.func @wide
//  CHECK-SAME:   nvvm.minctasm = 3 : i32
// CHECK-LABEL: gpu.func @narrow
//   CHECK-NOT:   nvvm.minctasm
// CHECK-LABEL: gpu.func @wider
//   CHECK-NOT:   nvvm.minctasm
// CHECK-LABEL: gpu.func @own
//  CHECK-SAME:   nvvm.minctasm = 1 : i32
// CHECK-LABEL: gpu.func @two_hundred_fifty_six_threads
//   CHECK-NOT:   nvvm.minctasm
// CHECK-LABEL: gpu.func @no_warp_mma
//   CHECK-NOT:   nvvm.minctasm
// CHECK-LABEL: gpu.func @wide_wgmma
//  CHECK-SAME:   nvvm.minctasm = 3 : i32
// CHECK-LABEL: gpu.func @narrow_wgmma
//  CHECK-SAME:   nvvm.minctasm = 4 : i32
//   NARROW-OFF:  gpu.func @narrow_wgmma
//   NARROW-OFF-NOT: nvvm.minctasm
//   NARROW-OFF:  gpu.func
// CHECK-LABEL: gpu.func @fits_on_sm89
//  CHECK-SAME:   nvvm.minctasm = 3 : i32
// CHECK-LABEL: gpu.func @too_much_on_sm89
//   CHECK-NOT:   nvvm.minctasm
//   OFF-NOT:   nvvm.minctasm = 3
module attributes {gpu.container_module} {
  gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
    // The D = 128 kernel's shape: 47.5 KiB of tiles, O a vector<64xf32>.
    gpu.func @wide(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) workgroup(%tiles : memref<48640xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
    // O of D = 64: 32 elements a lane (128 registers fit four CTAs already).
    gpu.func @narrow(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<32xf32>,
        %a: vector<2xf32>, %out: memref<32xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
      vector.store %o1, %out[%c0] : memref<32xf32>, vector<32xf32>
      gpu.return
    }
    // O of D = 256: 128 elements a lane, which 168 registers would spill.
    gpu.func @wider(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<128xf32>,
        %a: vector<2xf32>, %out: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<128xf32>, vector<2xf32> -> vector<128xf32>
      vector.store %o1, %out[%c0] : memref<128xf32>, vector<128xf32>
      gpu.return
    }
    gpu.func @own(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
    gpu.func @two_hundred_fifty_six_threads(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
    gpu.func @no_warp_mma(%out: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      gpu.return
    }
    // The wgmma kernel of one warpgroup at 64 x 128, D = 128: 73 KiB of
    // stages, P V's m64n128k32 into a vector<64xf32> a lane.
    gpu.func @wide_wgmma(%p: vector<16xf8E4M3FN>, %desc: i64, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) workgroup(%tiles : memref<74752xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %r = sage.warpgroup_mma %p, %desc {mma = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : vector<16xf8E4M3FN> -> vector<64xf32>
      %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
    // The wgmma kernel of one warpgroup at 64 x 128, D = 64: 36 KiB of
    // stages, O a vector<32xf32> a lane; four CTAs an SM.
    gpu.func @narrow_wgmma(%p: vector<16xf8E4M3FN>, %desc: i64, %o: vector<32xf32>,
        %a: vector<2xf32>, %out: memref<32xf32>) workgroup(%tiles : memref<36864xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %r = sage.warpgroup_mma %p, %desc {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : vector<16xf8E4M3FN> -> vector<32xf32>
      %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
      vector.store %o1, %out[%c0] : memref<32xf32>, vector<32xf32>
      gpu.return
    }
  }
  // sm_89 shares 100 KiB an SM: three CTAs fit up to 32.3 KiB each.
  gpu.module @sm89 [#nvvm.target<chip = "sm_89">] {
    // 3 x (32768 + 1024) = 101376 <= 102400 bytes.
    gpu.func @fits_on_sm89(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) workgroup(%tiles : memref<32768xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
    // 3 x (33280 + 1024) = 102912 > 102400 bytes.
    gpu.func @too_much_on_sm89(%p: vector<16xf8E4M3FN>, %v: vector<8xf8E4M3FN>, %o: vector<64xf32>,
        %a: vector<2xf32>, %out: memref<64xf32>) workgroup(%tiles : memref<33280xi8, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %z = arith.constant dense<0.0> : vector<4xf32>
      %r = sage.warp_mma %p, %v, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
      %rs = vector.shuffle %r, %r [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
      %o1 = sage.accumulate %rs into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<64xf32>, vector<2xf32> -> vector<64xf32>
      vector.store %o1, %out[%c0] : memref<64xf32>, vector<64xf32>
      gpu.return
    }
  }
}
