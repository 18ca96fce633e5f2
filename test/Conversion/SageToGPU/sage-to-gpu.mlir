// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90" -split-input-file -verify-diagnostics | FileCheck %s

// The default int8-fp8 recipe, D = 64, causal: six kernels and their plan.
// CHECK-LABEL: module attributes {gpu.container_module, sage.launch_plans = {attention = {
//  CHECK-SAME: causal = true, causal_alignment = "bottom_right", chip = "sm_90"
//  CHECK-SAME: kernels = [{{.*}}name = "sage_sum_tokens_d64"{{.*}}name = "sage_value_absmax"{{.*}}name = "sage_quantize_k"{{.*}}name = "sage_quantize_v"{{.*}}name = "sage_quantize_q"{{.*}}name = "sage_attention"
//  CHECK-SAME: smooth = {k = true, q = true, v = false}
//  CHECK-SAME: tiles = {block_k = 64 : i64, block_q = 64 : i64, warp_q = 16 : i64, warps = 4 : i64}
//   CHECK-NOT: func.func @attention
//       CHECK: gpu.module @attention
//       CHECK: gpu.func @sage_sum_tokens_d64({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:   llvm.atomicrmw fadd
//       CHECK: gpu.func @sage_value_absmax
//       CHECK:   llvm.atomicrmw umax
//       CHECK: gpu.func @sage_quantize_k
//       CHECK:   gpu.barrier
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.f2i.rn"
//       CHECK: gpu.func @sage_quantize_v
//       CHECK:   nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK: gpu.func @sage_quantize_q
// The attention kernel: per K/V block of 64 keys and D = 64, 8 key tiles x 2
// k-chunks of INT8 MMAs, the online softmax on their accumulators, then per
// value tile 2 key chunks of FP8 MMAs added to the FP32 buffer.
// Causal: no minimum of CTAs an SM (four were slower on the H200).
//       CHECK: gpu.func @sage_attention({{.*}} kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
//       CHECK:   scf.for
// CHECK-COUNT-16:  sage.warp_mma {{.*}} {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       CHECK:   sage.mask_scores {{.*}} {causal, fragment = #sage.mma<{{.*}}a = i8{{.*}}>} : vector<32xf32>, i32
// With Q smoothing the scores add dS: they are dequantized before the
// softmax, which returns P~ already scaled to P_r = 448.
//       CHECK:   sage.online_softmax {{%[^ ]*}}, {{%[^ ]*}}, {{%[^ ]*}} {base2, fragment = #sage.mma<{{.*}}a = i8{{.*}}>, prob_scale = 4.480000e+02 : f64} : vector<32xf32>, vector<2xf32>
//       CHECK:   sage.quantize {{.*}} {bound = 4.480000e+02 : f64, fragment = #sage.mma<{{.*}}a = i8{{.*}}>, quant = #sage.quant<f8E4M3FN, per_tensor>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
//       CHECK:   vector.shuffle {{.*}} : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>
// CHECK-COUNT-2:   sage.warp_mma {{.*}} {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//       CHECK:   sage.accumulate {{.*}} {fragment = #sage.mma<{{.*}}a = f8E4M3FN{{.*}}>, scheme = #sage.accum<f32>} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
//       CHECK:   scf.yield
// The epilogue: 1 / l once a row, delta_V / P_r once for each of the
// lane's 16 channels (both rows use it), then per row that exists one
// 4-byte store of two adjacent channels per 8-channel tile.
// CHECK-COUNT-2:   arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-COUNT-32:  arith.divf %{{.*}}, %{{.*}} : f32
//   CHECK-NOT:     arith.divf
//       CHECK:     scf.if
//   CHECK-NOT:     arith.divf
// CHECK-COUNT-8:     llvm.store {{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
//   CHECK-NOT:     arith.divf
//       CHECK:     scf.if
//   CHECK-NOT:     arith.divf
// CHECK-COUNT-8:     llvm.store {{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
//   CHECK-NOT:     {{arith.divf|llvm.store}}
//       CHECK:   gpu.return
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qs, %qm = sage.smooth %q {block = 64 : i64} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf32>
  %qv, %qscale = sage.quantize %qs {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) q_smooth(%qm, %k) k_smooth(%km) {
      causal, k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// K smoothing only (the official SageAttention2 recipe): no dS and no mask
// bias, so the scores stay the MMA's integers as f32 and the softmax
// applies the lane's dequantization factor, clamped to a positive normal
// so that a masked -inf stays -inf.
// CHECK-LABEL: sage.launch_plans = {attention_k_smoothing =
//       CHECK: gpu.func @sage_attention
//       CHECK:   %[[PRODUCT:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
//       CHECK:   %[[LOG2:.*]] = arith.mulf %[[PRODUCT]], %{{.*}} : f32
//       CHECK:   %[[FACTOR:.*]] = llvm.intr.maximum(%[[LOG2]], %{{.*}}) : (f32, f32) -> f32
//       CHECK:   %[[SCORE0:.*]] = arith.sitofp %{{.*}} : i32 to f32
//   CHECK-NOT:   arith.mulf %[[SCORE0]]
//       CHECK:   %[[SCALE:.*]] = vector.from_elements %[[FACTOR]] : vector<1xf32>
//       CHECK:   sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} scaled %[[SCALE]] : vector<1xf32> {base2, {{.*}}prob_scale = 4.480000e+02 : f64} : vector<32xf32>, vector<2xf32>
func.func @attention_k_smoothing(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      causal, k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// per_warp Q scales must name the Q block (the CTA tile) their warps tile.
func.func @negative_per_warp(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_block, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_warp, warp = 16>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{per_warp Q scales need the Q block their tokens are tiled by (the CTA's), as 'block'; got #sage.quant<i8, per_warp, warp = 16>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_block, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_warp, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}

// -----

// per_token scales must name the tiles their tokens are in, as per_warp.
func.func @negative_per_token(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_token>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_token>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{per_token Q scales need the Q block their tokens are tiled by (the CTA's), as 'block'; got #sage.quant<i8, per_token>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_token>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_token>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}

// -----

// K's per_token scales must name the K/V block too.
func.func @negative_per_token_key(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_token>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_token, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{per_token K scales need the K/V block their tokens are tiled by, as 'block'; got #sage.quant<i8, per_token>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_token>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_token, block = 64>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}

// -----

// Q and K scales of different kinds are refused, naming both (K per_block
// goes only with Q per_warp or per_block).
func.func @negative_mixed_granularity(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_block, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_token, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{the GPU lowering implements per_thread, per_warp (K per_block), per_block or per_token Q/K scales; got #sage.quant<i8, per_token, block = 64> and #sage.quant<i8, per_block, block = 64>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_block, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_token, block = 64>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}

// -----

// The function must only compute attention: its host side becomes the plan.
func.func @negative_other_work(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  // expected-error@+1 {{'math.exp' op is not part of the attention; the GPU lowering compiles functions that only compute attention}}
  %e = math.exp %q : tensor<1x1x?x64xf16>
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %e {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}

// -----

// Heads split out of the features ([B, N, H*D] -> [B, N, H, D]) change the
// memory order the kernels read: not an argument the plan can describe.
func.func @negative_features_split(%x: tensor<1x256x256xf16>) -> tensor<1x4x256x64xf16> {
  %q = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 256, 4, 64] : tensor<1x256x256xf16> into tensor<1x256x4x64xf16>
  %e = tensor.empty() : tensor<1x4x256x64xf16>
  %qt = linalg.transpose ins(%q : tensor<1x256x4x64xf16>) outs(%e : tensor<1x4x256x64xf16>) permutation = [0, 2, 1, 3]
  %kv, %kscale = sage.quantize %qt {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x4x256x64xf16> -> tensor<1x4x256x64xi8>, tensor<1x4x16x1xf32>
  %qv, %qscale = sage.quantize %qt {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x4x256x64xf16> -> tensor<1x4x256x64xi8>, tensor<1x4x128x1xf32>
  %vv, %vscale = sage.quantize %qt {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf8E4M3FN>, tensor<1x4x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected query to be an argument of the function, as the launch plan fills it}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x4x256x64xi8>, tensor<1x4x128x1xf32>, tensor<1x4x256x64xi8>, tensor<1x4x16x1xf32>, tensor<1x4x256x64xf8E4M3FN>, tensor<1x4x1x64xf32>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}

// -----

// D = 96: three groups of 32 channels, so Q and K take the 8-byte packing
// (8-byte fragment loads), and the token-sum kernel, whose 128 threads hold
// one stream of 96 channels, leaves the 32 threads past it idle.
// CHECK-LABEL: gpu.module @attention_d96
//       CHECK: gpu.func @sage_sum_tokens_d96
//       CHECK:   %[[GROUP:.*]] = arith.divui %{{.*}}, %c96_i32
//       CHECK:   %[[IDLE:.*]] = arith.cmpi ult, %[[GROUP]], %c1_i32
//       CHECK:   %[[FIRST:.*]] = arith.select %[[IDLE]], %{{.*}}, %{{.*}} : i32
//       CHECK:   scf.for %{{.*}} = %[[FIRST]]
//       CHECK: gpu.func @sage_attention
//       CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
func.func @attention_d96(%q: tensor<?x?x?x96xf16>, %k: tensor<?x?x?x96xf16>, %v: tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x96xf16> -> tensor<?x?x1x96xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x96xf16> -> tensor<?x?x?x96xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x96xf16> -> tensor<?x?x?x96xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x96xf16> -> tensor<?x?x?x96xf8E4M3FN>, tensor<?x?x1x96xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x96xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x96xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x96xf8E4M3FN>, tensor<?x?x1x96xf32>, tensor<?x?x1x96xf32>) -> tensor<?x?x?x96xf16>
  return %o : tensor<?x?x?x96xf16>
}

// -----

// D = 80 is stored padded to three groups of 32 channels (the MMA's 96):
// the quantized Q and K buffers are 96 wide, the quantizers load the 80
// channels of the input and write zeros past them, and the attention
// kernel runs three 32-channel chunks per key tile.
// CHECK-LABEL: sage.launch_plans = {attention_d80 = {
//  CHECK-SAME: name = "k_q", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 64]}, 96]
//  CHECK-SAME: name = "q_q", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 64]}, 96]
//  CHECK-SAME: head_dim = 80
//       CHECK: gpu.func @sage_quantize_k
//       CHECK:   %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %c80_i32
//       CHECK:   arith.select %[[INSIDE]]
//       CHECK: gpu.func @sage_attention
//       CHECK:   scf.for
// CHECK-COUNT-24:  sage.warp_mma {{.*}} a = i8
//       CHECK:   scf.yield
func.func @attention_d80(%q: tensor<?x?x?x80xf16>, %k: tensor<?x?x?x80xf16>, %v: tensor<?x?x?x80xf16>) -> tensor<?x?x?x80xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x80xf16> -> tensor<?x?x1x80xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x80xf16> -> tensor<?x?x?x80xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x80xf16> -> tensor<?x?x?x80xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x80xf16> -> tensor<?x?x?x80xf8E4M3FN>, tensor<?x?x1x80xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x80xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x80xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x80xf8E4M3FN>, tensor<?x?x1x80xf32>, tensor<?x?x1x80xf32>) -> tensor<?x?x?x80xf16>
  return %o : tensor<?x?x?x80xf16>
}

// -----

// The LSE: a plan output [B, H, Nq] f32, and the attention kernel reads Q
// and the K sums to restore the K-smoothing shift, takes lg2 of the row sum
// and stores from lane 0 of each quad.
// CHECK-LABEL: sage.launch_plans = {attention_lse = {
//  CHECK-SAME: {kind = "output", name = "lse", shape = ["B", "H", "Nq"], type = "f32"}
//  CHECK-SAME: name = "sage_attention", params = [{{.*}}{buffer = "lse"}, {buffer = "q"}, {buffer = "k_sum"}, {buffer = "o"}
//       CHECK: gpu.func @sage_attention
//       CHECK:   scf.for
//       CHECK:   scf.yield
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
//       CHECK:   scf.if
//       CHECK:     llvm.store {{.*}} : f32, !llvm.ptr<1>
func.func @attention_lse(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>) {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) lse_query(%q) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  return %o, %lse : tensor<?x?x?x64xf16>, tensor<?x?x?xf32>
}

// -----

// Causal aligned top-left (the frontends' is_causal with Nq != Nk): the
// plan says so, and the attention kernel's loop bound and masking use no
// Nk - Nq shift.
// CHECK-LABEL: module attributes {gpu.container_module, sage.launch_plans = {top_left = {
//  CHECK-SAME: causal = true, causal_alignment = "top_left"
//       CHECK: gpu.func @sage_attention
//       CHECK:   sage.mask_scores {{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>, fragment = #sage.mma<
func.func @top_left(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x128x64xf16>, %v: tensor<1x1x128x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x128x64xf16> -> tensor<1x1x128x64xi8>, tensor<1x1x8x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x128x64xf16> -> tensor<1x1x128x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      causal, causal_alignment = #sage.causal_alignment<top_left>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x128x64xi8>, tensor<1x1x8x1xf32>, tensor<1x1x128x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// D = 256: the attention kernel's two K/V stages (2 x (64 x 272 + 256 x 80)
// bytes) pass the 48 KiB of static shared memory, so they are dynamic
// shared memory (an external array of 0 bytes) that the plan's launch
// asks for; the other kernels need none.
// CHECK-LABEL: module attributes {gpu.container_module, sage.launch_plans = {d256 = {
//  CHECK-SAME: {block = [128, 1, 1], grid = [{cdiv = ["Nq", 64]}, "H", "B"], name = "sage_attention", params = [{{.*}}], shared_bytes = 75776 : i64}
//       CHECK: llvm.mlir.global external @sage_attention_kv() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
//       CHECK: gpu.func @sage_attention
func.func @d256(%q: tensor<1x1x64x256xf16>, %k: tensor<1x1x64x256xf16>, %v: tensor<1x1x64x256xf16>) -> tensor<1x1x64x256xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x256xf16> -> tensor<1x1x64x256xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x256xf16> -> tensor<1x1x64x256xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x256xf16> -> tensor<1x1x64x256xf8E4M3FN>, tensor<1x1x1x256xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 6.250000e-02 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x256xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x256xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x256xf8E4M3FN>, tensor<1x1x1x256xf32>) -> tensor<1x1x64x256xf16>
  return %o : tensor<1x1x64x256xf16>
}

// -----

// Microscaling other than NVFP4's (here MXFP4: E8M0 scales over 32) is
// refused by name, not lowered as NVFP4.
func.func @negative_mx_microscale(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %ks = sage.quantize %k {quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x2xf8E8M0FNU>
  %qv, %qs = sage.quantize %q {quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x2xf8E8M0FNU>
  %vv, %vs = sage.quantize %v {quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU, along = tokens>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x2x64xf8E8M0FNU>
  // expected-error@+1 {{'sage.quantized_attention' op the GPU lowering implements NVFP4 microscaling (f4E2M1FN values, f8E4M3FN scales a 16 elements), not #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      block_k = 64 : i64, block_q = 64 : i64,
      k_quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>,
      p_quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>,
      pv_accum = #sage.accum<f32>,
      q_quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>,
      scale = 1.250000e-01 : f64,
      v_quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU, along = tokens>}
    : (tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x2xf8E8M0FNU>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x2xf8E8M0FNU>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x2x64xf8E8M0FNU>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}
