// The int8-fp8 attention of benchmarks/kernels.mlir at the decomposed level
// without Q smoothing, so that each Q group's scale comes from the raw
// values: the non-finite GPU test (attention-non-finite.test) checks there
// that a NaN in Q poisons its group's scale through the quantizer's
// max.NaN instead of being quantized to 0 (docs/Algorithm.md, "Non-finite
// inputs"); with Q smoothing the block mean would hide the difference.

func.func @attention_d128_f16_no_q_smoothing(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %ks, %kmean = sage.smooth %k : tensor<?x?x?x128xf16> -> tensor<?x?x1x128xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<?x?x?x128xf16> -> tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>}
    : tensor<?x?x?x128xf16> -> tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>}
    : tensor<?x?x?x128xf16> -> tensor<?x?x?x128xf8E4M3FN>, tensor<?x?x1x128xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%kmean) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 0.088388347648318447 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x128xf8E4M3FN>, tensor<?x?x1x128xf32>, tensor<?x?x1x128xf32>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}
