// RUN: sage-opt %s --sage-tile-attention --split-input-file --verify-diagnostics | FileCheck %s

// block-q 0 (the default) takes each op's Q block from its Q groups: Q
// quantized and smoothed per block of 32 tokens tiles 32 rows a CTA
// (--sage-levels decomposes sage.attention into groups of its block-q, and
// keeps a quantized input's own).
// CHECK-LABEL: func @q_groups_of_32
//       CHECK:   scf.forall ({{.*}}) in (%c1, %c1, %c2)
//       CHECK:     sage.qmma {{.*}} : tensor<32x64xi8>, tensor<1x1xf32>, tensor<64x64xi8>, tensor<1x1xf32> -> tensor<32x64xf32>
func.func @q_groups_of_32(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x2x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>,
    %qm: tensor<1x1x2x64xf32>, %k: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
        q_quant = #sage.quant<i8, per_block, block = 32>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x2x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x2x64xf32>,
       tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// per_token (and per_warp) scales name the Q block they were made for (the
// decomposition's block-q, 128 on sm_90a): with Q smoothed per 128 tokens,
// that is the tile, not 64.
// CHECK-LABEL: func @per_token_block_128
//       CHECK:   scf.forall ({{.*}}) in (%c1, %c1, %c2)
//       CHECK:     sage.qmma {{.*}} : tensor<128x64xi8>, tensor<128x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<128x64xf32>
func.func @per_token_block_128(%qv: tensor<1x1x256x64xi8>, %qs: tensor<1x1x256x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x64x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>,
    %qm: tensor<1x1x2x64xf32>, %k: tensor<1x1x64x64xf16>) -> tensor<1x1x256x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
        q_quant = #sage.quant<i8, per_token, block = 128>, k_quant = #sage.quant<i8, per_token, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x256x64xi8>, tensor<1x1x256x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x64x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x2x64xf32>,
       tensor<1x1x64x64xf16>) -> tensor<1x1x256x64xf32>
  return %o : tensor<1x1x256x64xf32>
}

// -----

// Q groups of 8 tokens give no Q block: an MMA takes 16 rows.
func.func @negative_q_groups_of_8(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x8x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: block-q = 8 (the Q block of Q's scales) is not a multiple of 16, the MMA's M}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_block, block = 8>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x8x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}
