// RUN: sage-opt %s --sage-tile-attention="block-k=32" -verify-diagnostics

// V stored in groups of 64 keys (4-bit V, v_layout k = 64): the tile level
// reads a K/V block as whole groups, and 32 keys are half of one.
func.func @negative_stored_values_groups(%qv: tensor<?x?x?x64xf4E2M1FN>, %qs: tensor<?x?x?x4xf8E4M3FN>,
    %kv: tensor<?x?x?x64xf4E2M1FN>, %ks: tensor<?x?x?x4xf8E4M3FN>,
    %vv: tensor<?x?x64x?x64xf4E2M1FN>, %vs: tensor<?x?x?x64xf8E4M3FN>, %km: tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: V stored in groups of 64 keys (v_layout) needs block-k a multiple of 64, got 32}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) k_smooth(%km) {
      block_k = 64 : i64, block_q = 64 : i64,
      q_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      k_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      p_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      v_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>,
      pv_accum = #sage.accum<f32>, scale = 1.250000e-01 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 64>}
    : (tensor<?x?x?x64xf4E2M1FN>, tensor<?x?x?x4xf8E4M3FN>, tensor<?x?x?x64xf4E2M1FN>, tensor<?x?x?x4xf8E4M3FN>,
       tensor<?x?x64x?x64xf4E2M1FN>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
