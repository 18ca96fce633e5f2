// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_80" -split-input-file 2>&1 | FileCheck %s

// f16 P and V the GPU lowering does not implement: per_channel f16 V with
// the f32 accumulator (neither the CPU model nor the plans know it).
// CHECK: error: 'sage.quantized_attention' op the GPU lowering implements f16 P and V as int8-fp16 (i8 Q/K, unscaled V, f32 accumulator) and int8-fp16-f16acc (i8 Q/K, per_channel V, f16 accumulator); got 'i8' Q/K, #sage.quant<f16, per_channel, range = 1023.0> and #sage.accum<f32>
func.func @negative_scaled_f16_f32_accumulator(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f16, per_channel, range = 1023.0>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f16, per_tensor, range = 1.0>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f16, per_channel, range = 1023.0>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// A static bound on measured (per_channel) f16 scales is refused, as for
// E4M3.
// CHECK: error: 'sage.quantized_attention' op the GPU lowering measures the value scales; a static bound is not lowered
func.func @negative_bound_on_scaled_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {bound = 2.0 : f64, quant = #sage.quant<f16, per_channel, range = 1023.0>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f16, per_tensor, range = 1.0>,
      pv_accum = #sage.accum<f16, every = 2>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f16, per_channel, range = 1023.0>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
