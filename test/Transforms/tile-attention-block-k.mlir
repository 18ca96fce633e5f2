// RUN: sage-opt %s --sage-tile-attention="block-k=64" -split-input-file -verify-diagnostics -o /dev/null

// A block-k given must hold whole K groups.
func.func @negative_key_groups(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x32x1xf32>,
    %kv: tensor<1x1x128x64xi8>, %ks: tensor<1x1x4x1xf32>,
    %vv: tensor<1x1x128x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: K groups of 128 tokens (block) do not tile block-k = 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x128x64xi8>, tensor<1x1x4x1xf32>,
       tensor<1x1x128x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

