// RUN: sage-opt %s --sage-tile-attention="block-q=64" -split-input-file -verify-diagnostics

// The blockers of --sage-tile-attention that tile-attention.mlir leaves out,
// one case per diagnostic (scripts/check-diagnostics.py).

func.func @negative_per_channel_queries(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x64xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: Q scales per_channel are not tiled yet}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_channel>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x64xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_per_warp_key_groups(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x2x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: K groups of 48 tokens (warp) do not tile block-k = 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_warp, warp = 48>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x2x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// The Q-smoothing correction is added per Q tile: the tile must be the
// smoothing block.
func.func @negative_smoothing_block(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x2x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>,
    %qm: tensor<1x1x2x64xf32>, %k: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: Q is smoothed per block of 32 tokens, so block-q must be 32, got 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
        q_quant = #sage.quant<i8, per_block, block = 32>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x2x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x2x64xf32>, tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}
