// RUN: sage-opt %s -split-input-file --sage-emulate-block-scaled-mma -verify-diagnostics | FileCheck %s

// The test aid that runs NVFP4 kernels without sm_120a: each block-scaled
// m16n8k64 MMA becomes a call of one function of the module, which
// computes it in lane arithmetic over the same registers (docs/Mma.md).
// Rows g and g + 8 come from the quad of lane 4g (A registers 0, 2 and
// 1, 3), columns 2t and 2t + 1 from the quads of lanes 8t and 8t + 4 (B
// registers 0, 1): 32 shuffles; A's scales from lanes 4g and 4g + 1, B's
// from lanes 8t and 8t + 4: four more. Other rows are left alone.
// CHECK-LABEL: func.func private @sage_emulated_mma_nvfp4(
//  CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i32, %{{.*}}: i32) -> (f32, f32, f32, f32) attributes {no_inline}
//       CHECK: gpu.lane_id
// CHECK-COUNT-36: gpu.shuffle idx
//   CHECK-NOT: gpu.shuffle
//       CHECK: return
// CHECK-LABEL: func @two_mmas
//       CHECK: %[[A:.*]] = vector.bitcast %{{.*}} : vector<32xf4E2M1FN> to vector<4xi32>
//       CHECK: %[[D:.*]]:4 = call @sage_emulated_mma_nvfp4(
//       CHECK: %[[E:.*]]:4 = call @sage_emulated_mma_nvfp4({{.*}}, %[[D]]#0, %[[D]]#1, %[[D]]#2, %[[D]]#3, %{{.*}}, %{{.*}})
//       CHECK: vector.from_elements %[[E]]#0, %[[E]]#1, %[[E]]#2, %[[E]]#3 : vector<4xf32>
//       CHECK: sage.warp_mma {{.*}}acc = i32
//   CHECK-NOT: func.func private
func.func @two_mmas(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>, %sa: i32, %sb: i32,
    %a8: vector<16xi8>, %b8: vector<8xi8>, %c8: vector<4xi32>) -> (vector<4xf32>, vector<4xi32>) {
  %0 = sage.warp_mma %a, %b, %c scales(%sa, %sb) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  %1 = sage.warp_mma %a, %b, %0 scales(%sa, %sb) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  %2 = sage.warp_mma %a8, %b8, %c8 {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
  return %1, %2 : vector<4xf32>, vector<4xi32>
}

// -----

// The emulation models the default scale lanes only.
func.func @negative_selectors(%a: vector<32xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %c: vector<4xf32>, %s: i32) -> vector<4xf32> {
  // expected-error@+1 {{'sage.warp_mma' op is emulated with the default scale selectors only (lanes t = 0 and 1)}}
  %0 = sage.warp_mma %a, %b, %c scales(%s, %s) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>, scale_selectors = array<i32: 0, 1, 0, 2>} : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
  return %0 : vector<4xf32>
}
