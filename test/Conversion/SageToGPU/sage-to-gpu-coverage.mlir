// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90" -split-input-file -verify-diagnostics

// The refusals of --convert-sage-to-gpu that sage-to-gpu.mlir leaves out,
// one case per diagnostic (scripts/check-diagnostics.py).

// One function, one attention: the function becomes one launch plan.
// expected-error@+1 {{'func.func' op computes more than one attention; the GPU lowering takes one per function}}
func.func @negative_two_attentions(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  %o2 = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The query must be quantized in the function: the plan runs its quantize kernel.
func.func @negative_query_not_quantized(%qv: tensor<1x1x64x64xi8>, %qscale: tensor<1x1x32x1xf32>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the query values to come from sage.quantize}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The key must be quantized in the function: the plan runs its quantize kernel.
func.func @negative_key_not_quantized(%q: tensor<1x1x64x64xf16>, %kv: tensor<1x1x64x64xi8>, %kscale: tensor<1x1x4x1xf32>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the key values to come from sage.quantize}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The value must be quantized in the function: the plan runs its quantize kernel.
func.func @negative_value_not_quantized(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %vv: tensor<1x1x64x64xf8E4M3FN>, %vscale: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the value values to come from sage.quantize}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The key must be read from an argument: the plan fills the arguments.
func.func @negative_key_not_argument(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %e = tensor.empty() : tensor<1x1x64x64xf16>
  %kv, %kscale = sage.quantize %e {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected key to be an argument of the function, as the launch plan fills it}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The value must be read from an argument: the plan fills the arguments.
func.func @negative_value_not_argument(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %e = tensor.empty() : tensor<1x1x64x64xf16>
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %e {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected value to be an argument of the function, as the launch plan fills it}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The function returns the attention and nothing else.
func.func @negative_two_results(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> (tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>) {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the function to return the attention alone}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o, %q : tensor<1x1x64x64xf16>, tensor<1x1x64x64xf16>
}

// -----

// The function returns the attention, not some other value.
func.func @negative_returns_other(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the function to return the attention (reshaped or with tokens and heads swapped)}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %q : tensor<1x1x64x64xf16>
}

// -----

// Q alone with tokens and heads swapped: the kernels read one layout.
func.func @negative_mixed_layouts(%x: tensor<1x64x1x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %e = tensor.empty() : tensor<1x1x64x64xf16>
  %q = linalg.transpose ins(%x : tensor<1x64x1x64xf16>) outs(%e : tensor<1x1x64x64xf16>) permutation = [0, 2, 1, 3]
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected Q, K, V and the result in one layout, [batch, heads, tokens, features] or [batch, tokens, heads, features]}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// Kernels exist for head dimensions that are multiples of 16 from 32 to 256.
func.func @negative_head_dim(%q: tensor<1x1x64x16xf16>, %k: tensor<1x1x64x16xf16>, %v: tensor<1x1x64x16xf16>) -> tensor<1x1x64x16xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x16xf16> -> tensor<1x1x64x16xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x16xf16> -> tensor<1x1x64x16xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x16xf16> -> tensor<1x1x64x16xf8E4M3FN>, tensor<1x1x1x16xf32>
  // expected-error@+1 {{'sage.quantized_attention' op the GPU lowering implements head dimensions that are multiples of 16 from 32 to 256, got 16}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x16xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x16xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x16xf8E4M3FN>, tensor<1x1x1x16xf32>) -> tensor<1x1x64x16xf16>
  return %o : tensor<1x1x64x16xf16>
}

// -----

// Q, K and V share one element type.
func.func @negative_mixed_types(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xbf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xbf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected Q, K and V of one element type, got 'f16' and 'bf16'}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// The plan describes arguments of rank 4 at most.
func.func @negative_rank5(%q: tensor<1x1x1x64x64xf16>, %k: tensor<1x1x1x64x64xf16>, %v: tensor<1x1x1x64x64xf16>) -> tensor<1x1x1x64x64xf16> {
  %q4 = tensor.collapse_shape %q [[0, 1], [2], [3], [4]] : tensor<1x1x1x64x64xf16> into tensor<1x1x64x64xf16>
  %k4 = tensor.collapse_shape %k [[0, 1], [2], [3], [4]] : tensor<1x1x1x64x64xf16> into tensor<1x1x64x64xf16>
  %v4 = tensor.collapse_shape %v [[0, 1], [2], [3], [4]] : tensor<1x1x1x64x64xf16> into tensor<1x1x64x64xf16>
  %kv, %kscale = sage.quantize %k4 {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q4 {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v4 {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected function arguments of rank 2 to 4 ([batch, heads, tokens, features] or a prefix), got rank 5}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  %r = tensor.expand_shape %o [[0, 1], [2], [3], [4]] output_shape [1, 1, 1, 64, 64] : tensor<1x1x64x64xf16> into tensor<1x1x1x64x64xf16>
  return %r : tensor<1x1x1x64x64xf16>
}

// -----

func.func @negative_static_bound(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, bound = 4.0 : f64} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op the GPU lowering measures the query scales; a static bound is not lowered}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

func.func @negative_static_bound_key(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, bound = 4.0 : f64} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op the GPU lowering measures the key scales; a static bound is not lowered}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

func.func @negative_static_bound_value(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, bound = 4.0 : f64} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op the GPU lowering measures the value scales; a static bound is not lowered}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}

// -----

// With an LSE the function returns the attention and then its LSE.
func.func @negative_lse_not_returned(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the function to return the attention and its lse}}
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) lse_query(%q) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  return %o : tensor<?x?x?x64xf16>
}

// -----

// The LSE is returned as [batch, heads, queries], not transposed.
func.func @negative_lse_transposed(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>) {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the function to return the lse as [batch, heads, queries] (or reshaped)}}
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) lse_query(%q) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %lse, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %lse, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %lse, %c2 : tensor<?x?x?xf32>
  %init = tensor.empty(%d0, %d2, %d1) : tensor<?x?x?xf32>
  %t = linalg.transpose ins(%lse : tensor<?x?x?xf32>) outs(%init : tensor<?x?x?xf32>) permutation = [0, 2, 1]
  return %o, %t : tensor<?x?x?x64xf16>, tensor<?x?x?xf32>
}

// -----

// The LSE of an attention whose operands are [batch, tokens, heads,
// features] (read in place) is not lowered yet.
func.func @negative_lse_tokens_before_heads(%qa: tensor<1x64x2x64xf16>, %ka: tensor<1x64x2x64xf16>, %va: tensor<1x64x2x64xf16>) -> (tensor<1x64x2x64xf16>, tensor<1x2x64xf32>) {
  %e = tensor.empty() : tensor<1x2x64x64xf16>
  %q = linalg.transpose ins(%qa : tensor<1x64x2x64xf16>) outs(%e : tensor<1x2x64x64xf16>) permutation = [0, 2, 1, 3]
  %k = linalg.transpose ins(%ka : tensor<1x64x2x64xf16>) outs(%e : tensor<1x2x64x64xf16>) permutation = [0, 2, 1, 3]
  %v = linalg.transpose ins(%va : tensor<1x64x2x64xf16>) outs(%e : tensor<1x2x64x64xf16>) permutation = [0, 2, 1, 3]
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xi8>, tensor<1x2x4x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xi8>, tensor<1x2x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf8E4M3FN>, tensor<1x2x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op the lse of an attention laid out [batch, tokens, heads, features] is not lowered yet}}
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x2x64x64xi8>, tensor<1x2x32x1xf32>, tensor<1x2x64x64xi8>, tensor<1x2x4x1xf32>, tensor<1x2x64x64xf8E4M3FN>, tensor<1x2x1x64xf32>) -> (tensor<1x2x64x64xf16>, tensor<1x2x64xf32>)
  %ot = linalg.transpose ins(%o : tensor<1x2x64x64xf16>) outs(%qa : tensor<1x64x2x64xf16>) permutation = [0, 2, 1, 3]
  return %ot, %lse : tensor<1x64x2x64xf16>, tensor<1x2x64xf32>
}

// -----

// The kernel reads the query of the LSE shift from the plan's q: lse_query
// must be the attention's own query.
func.func @negative_lse_query_not_the_query(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>) {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected lse_query to be the query the attention quantizes (the kernel reads it from the plan's q)}}
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) lse_query(%k) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  return %o, %lse : tensor<?x?x?x64xf16>, tensor<?x?x?xf32>
}
