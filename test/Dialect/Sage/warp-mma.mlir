// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// sage.warp_mma: one mma.sync of a warp on a lane's fragments, for every
// warp-scope row of the MMA table.

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
#s4 = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers, b = i4, b_source = registers, acc = i32, scales = none>
#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#e4m3h = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
#f16 = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>
#f16h = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f16, scales = none>

// CHECK-LABEL: func @rows
//  CHECK-SAME: (%[[A8:.*]]: vector<16xi8>, %[[B8:.*]]: vector<8xi8>, %[[C32:.*]]: vector<4xi32>
//       CHECK: sage.warp_mma %[[A8]], %[[B8]], %[[C32]] {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       CHECK: sage.warp_mma {{.*}} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
//       CHECK: sage.warp_mma {{.*}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//       CHECK: sage.warp_mma {{.*}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
//       CHECK: sage.warp_mma {{.*}} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
//       CHECK: sage.warp_mma {{.*}} : vector<8xf16>, vector<4xf16> -> vector<4xf16>
func.func @rows(%a8: vector<16xi8>, %b8: vector<8xi8>, %c32: vector<4xi32>,
                %a4: vector<32xi4>, %b4: vector<16xi4>,
                %af8: vector<16xf8E4M3FN>, %bf8: vector<8xf8E4M3FN>,
                %cf32: vector<4xf32>, %cf16: vector<4xf16>,
                %ah: vector<8xf16>, %bh: vector<4xf16>) {
  %0 = sage.warp_mma %a8, %b8, %c32 {mma = #s8} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  %1 = sage.warp_mma %a4, %b4, %c32 {mma = #s4} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
  %2 = sage.warp_mma %af8, %bf8, %cf32 {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  %3 = sage.warp_mma %af8, %bf8, %cf16 {mma = #e4m3h} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
  %4 = sage.warp_mma %ah, %bh, %cf32 {mma = #f16} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
  %5 = sage.warp_mma %ah, %bh, %cf16 {mma = #f16h} : vector<8xf16>, vector<4xf16> -> vector<4xf16>
  return
}

// -----

func.func @negative_warpgroup(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>) {
  // expected-error@+1 {{'sage.warp_mma' op is one instruction of a warp, but its mma is of scope warpgroup}}
  %0 = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  return
}

// -----

func.func @negative_block_scales(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>) {
  // expected-error@+1 {{'sage.warp_mma' op mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 needs a_scales and b_scales}}
  %0 = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  return
}

// -----

func.func @negative_a_fragment(%a: vector<8xi8>, %b: vector<8xi8>, %c: vector<4xi32>) {
  // expected-error@+1 {{'sage.warp_mma' op expected a of type 'vector<16xi8>' (a lane's share of 16x32) for mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32, got 'vector<8xi8>'}}
  %0 = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>} : vector<8xi8>, vector<8xi8> -> vector<4xi32>
  return
}

// -----

func.func @negative_b_element(%a: vector<16xi8>, %b: vector<8xf8E4M3FN>, %c: vector<4xi32>) {
  // expected-error@+1 {{'sage.warp_mma' op expected b of type 'vector<8xi8>' (a lane's share of 8x32)}}
  %0 = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>} : vector<16xi8>, vector<8xf8E4M3FN> -> vector<4xi32>
  return
}

// -----

func.func @negative_accumulator(%a: vector<16xf8E4M3FN>, %b: vector<8xf8E4M3FN>, %c: vector<4xf16>) {
  // expected-error@+1 {{'sage.warp_mma' op expected acc of type 'vector<4xf32>' (a lane's share of 16x8) for mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32, got 'vector<4xf16>'}}
  %0 = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
  return
}

// -----

// NVFP4: the block-scaled row takes the lane's scale registers.
// CHECK-LABEL: func @nvfp4
//       CHECK:   sage.warp_mma %{{.*}}, %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) {mma = #sage.mma<{{.*}}scales = ue4m3_block16>, scale_selectors = array<i32: 0, 1, 0, 2>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
func.func @nvfp4(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>, %sa: i32, %sb: i32) -> vector<4xf32> {
  %0 = sage.warp_mma %a, %b, %c scales(%sa, %sb) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>, scale_selectors = array<i32: 0, 1, 0, 2>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

func.func @negative_scales_without_block_scaling(%a: vector<16xi8>, %b: vector<8xi8>, %c: vector<4xi32>, %s: i32) {
  // expected-error@+1 {{'sage.warp_mma' op mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 takes no scale registers}}
  %0 = sage.warp_mma %a, %b, %c scales(%s, %s) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  return
}

// -----

func.func @negative_selectors(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>, %s: i32) {
  // expected-error@+1 {{'sage.warp_mma' op expected scale_selectors of a block-scaled row: four values in [0, 3] (a byte, a thread, b byte, b thread)}}
  %0 = sage.warp_mma %a, %b, %c scales(%s, %s) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>, scale_selectors = array<i32: 0, 4, 0, 0>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  return
}
