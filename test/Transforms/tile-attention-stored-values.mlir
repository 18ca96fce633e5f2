// RUN: sage-opt %s --sage-tile-attention -verify-diagnostics

// V stored for the MMA in the natural key order: the tile level reads 8-bit
// V stored in P's key order only (the order P's accumulator holds its
// keys in, which the P V MMA's A operand takes from registers).
func.func @negative_stored_values_natural(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x3x32xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: V stored in #sage.mma_ordered<along = tokens, k = 32> is not tiled yet; the tile level reads 8-bit V stored in P's key order (k = 32, order = accumulator)}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x3x32xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}
