// RUN: sage-opt %s --sage-split-launchers=keep=model -verify-diagnostics
// RUN: sage-opt %s --sage-split-launchers=keep=launchers -verify-diagnostics

// A decomposed attention among other ops: sage-outline-attention moves
// only sage.attention, so neither half may take this function (the model
// half would drop the attention's steps, the launcher half the negf).
// expected-error@+1 {{'func.func' op holds an attention among other ops; run sage-outline-attention first, which moves each sage.attention into a function of its own}}
func.func @negative_decomposed_model(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>, %vv: tensor<1x1x64x64xf8E4M3FN>,
    %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  %n = arith.negf %o : tensor<1x1x64x64xf32>
  return %n : tensor<1x1x64x64xf32>
}
