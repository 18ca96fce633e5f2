// RUN: sage-opt %s --sage-tile-attention -verify-diagnostics

// f16 V stored for the MMA (key groups of k = 16): the tile level reads V
// stored in groups of 32 8-bit keys only. (Either key order is tiled: a
// natural one is put in P's order where the kernel stages it,
// sage-store-stage-order; test/Pipelines/layout-change.mlir.)
func.func @negative_stored_values_f16(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x5x16xf16>, %vs: tensor<1x2x1x1xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: V stored in #sage.mma_ordered<along = tokens, k = 16> is not tiled yet; the tile level reads 8-bit V stored in groups of k = 32}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f16, per_tensor, range = 1.0>, v_quant = #sage.quant<f16, per_tensor>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 16>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x5x16xf16>, tensor<1x2x1x1xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}
