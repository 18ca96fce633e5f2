// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=volta" 2>&1 | FileCheck %s --check-prefix=BAD

// SM80: error: 'sage.quantized_attention' op needs FP8 (e4m3) mma.sync for P*V, which sm_80 lacks; use sm_89 or newer (int8-fp16 for sm_80/86)
// BAD: error: unknown chip 'volta'; expected sm_<version>[a], e.g. sm_90
func.func @attention(%q: tensor<1x1x?x64xf16>, %k: tensor<1x1x?x64xf16>, %v: tensor<1x1x?x64xf16>) -> tensor<1x1x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1x1x?x64xf16> -> tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf16>
  return %o : tensor<1x1x?x64xf16>
}
