func.func @negative_lse_not_returned(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o, %lse = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) lse_query(%q) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 1000000, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf16>) -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  return %o : tensor<?x?x?x64xf16>
}
