// levels-attention.mlir at D = 128 (softmax scale 1 / sqrt(128)): the same
// recipe (int8-fp8, per-thread Q and K groups, Q and K smoothed) through
// --sage-levels, run by sage-check-levels --D 128.
func.func @attention_d128(%q: tensor<?x?x?x128xi8>, %q_scales: tensor<?x?x?x1xf32>,
                          %k: tensor<?x?x?x128xi8>, %k_scales: tensor<?x?x?x1xf32>,
                          %v: tensor<?x?x128x?x32xf8E4M3FN>, %v_scales: tensor<?x?x1x128xf32>,
                          %q_means: tensor<?x?x?x128xf32>, %k_raw: tensor<?x?x?x128xf16>,
                          %k_mean: tensor<?x?x1x128xf32>, %out: memref<?x?x?x128xf16>)
    attributes {llvm.emit_c_interface} {
  %o = sage.quantized_attention q(%q, %q_scales) k(%k, %k_scales) v(%v, %v_scales)
      q_smooth(%q_means, %k_raw) k_smooth(%k_mean)
      {q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
       k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
       v_quant = #sage.quant<f8E4M3FN, per_channel>,
       p_quant = #sage.quant<f8E4M3FN, per_tensor>,
       pv_accum = #sage.accum<f32>,
       v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>,
       scale = 0.08838834764831843 : f64}
      : (tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x128xi8>, tensor<?x?x?x1xf32>,
         tensor<?x?x128x?x32xf8E4M3FN>, tensor<?x?x1x128xf32>, tensor<?x?x?x128xf32>,
         tensor<?x?x?x128xf16>, tensor<?x?x1x128xf32>) -> tensor<?x?x?x128xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x128xf16>, memref<?x?x?x128xf16>) -> ()
  return
}
