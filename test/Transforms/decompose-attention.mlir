// RUN: sage-opt %s --sage-decompose-attention -split-input-file -verify-diagnostics | FileCheck %s

// The default recipe: smooth K (global mean) and Q (per Q block), per-thread
// INT8 Q and K, per-channel E4M3 V, then the quantized core.
// CHECK-LABEL: func @bhnd_default_recipe
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x8x?x128xf16>, %[[K:.*]]: tensor<2x4x?x128xf16>, %[[V:.*]]: tensor<2x4x?x128xf16>)
//       CHECK: %[[KS:.*]], %[[KM:.*]] = sage.smooth %[[K]] : tensor<2x4x?x128xf16> -> tensor<2x4x1x128xf32>
//       CHECK: %[[KV:.*]], %[[KSC:.*]] = sage.quantize %[[KS]] {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<2x4x?x128xf16> -> tensor<2x4x?x128xi8>, tensor<2x4x?x1xf32>
//       CHECK: %[[QS:.*]], %[[QM:.*]] = sage.smooth %[[Q]] {block = 64 : i64} : tensor<2x8x?x128xf16> -> tensor<2x8x?x128xf32>
//       CHECK: %[[QV:.*]], %[[QSC:.*]] = sage.quantize %[[QS]] {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>}
//       CHECK: %[[VV:.*]], %[[VSC:.*]] = sage.quantize %[[V]] {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<2x4x?x128xf16> -> tensor<2x4x?x128xf8E4M3FN>, tensor<2x4x1x128xf32>
//       CHECK: %[[O:.*]] = sage.quantized_attention q(%[[QV]], %[[QSC]]) k(%[[KV]], %[[KSC]]) v(%[[VV]], %[[VSC]]) q_smooth(%[[QM]], %[[K]]) k_smooth(%[[KM]])
//  CHECK-SAME: causal
//  CHECK-SAME: p_quant = #sage.quant<f8E4M3FN, per_tensor>
//  CHECK-SAME: pv_accum = #sage.accum<f32>
//  CHECK-SAME: scale = 0.08838834{{[0-9]+}} : f64
//   CHECK-NOT: sage.attention
//       CHECK: return %[[O]]
func.func @bhnd_default_recipe(%q: tensor<2x8x?x128xf16>, %k: tensor<2x4x?x128xf16>,
    %v: tensor<2x4x?x128xf16>) -> tensor<2x8x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<2x8x?x128xf16>, tensor<2x4x?x128xf16>, tensor<2x4x?x128xf16>) -> tensor<2x8x?x128xf16>
  return %o : tensor<2x8x?x128xf16>
}

// -----

// Rank 3 gets a unit heads dimension; no smoothing; V smoothed; the f16
// accumulator variant narrows P and V.
// CHECK-LABEL: func @rank3_smooth_v_f16acc
//       CHECK: %[[Q4:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] {{.*}} into tensor<4x1x100x64xbf16>
//   CHECK-NOT: sage.smooth %[[Q4]]
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_warp, block = 64, warp = 16>}
//       CHECK: %{{.*}}, %[[VM:.*]] = sage.smooth
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>}
//       CHECK: sage.quantized_attention {{.*}} v_smooth(%[[VM]])
//  CHECK-SAME: p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>
//  CHECK-SAME: pv_accum = #sage.accum<f16, every = 2>
//       CHECK: tensor.collapse_shape {{.*}} into tensor<4x100x64xbf16>
func.func @rank3_smooth_v_f16acc(%q: tensor<4x100x64xbf16>, %k: tensor<4x70x64xbf16>,
    %v: tensor<4x70x64xbf16>) -> tensor<4x100x64xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8-f16acc", qk = per_warp, smooth = [v]>}
    : (tensor<4x100x64xbf16>, tensor<4x70x64xbf16>, tensor<4x70x64xbf16>) -> tensor<4x100x64xbf16>
  return %o : tensor<4x100x64xbf16>
}

// -----

// per_token scales record the tiles their tokens are in (block-q for Q,
// block-k for K), as the GPU lowering needs; the groups stay one a token.
// CHECK-LABEL: func @per_token
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_token, block = 64>} : tensor<1x2x70x64xf16> -> tensor<1x2x70x64xi8>, tensor<1x2x70x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_token, block = 64>} : tensor<1x2x100x64xf16> -> tensor<1x2x100x64xi8>, tensor<1x2x100x1xf32>
func.func @per_token(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x70x64xf16>,
    %v: tensor<1x2x70x64xf16>) -> tensor<1x2x100x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_token, smooth = [k]>}
    : (tensor<1x2x100x64xf16>, tensor<1x2x70x64xf16>, tensor<1x2x70x64xf16>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

// The mask reaches the core unchanged ([batch | 1, heads | 1, Nq, Nk]).
// CHECK-LABEL: func @mask_broadcast_heads
//  CHECK-SAME: %[[M:[^:]*]]: tensor<2x1x16x24xf32>
//       CHECK: sage.quantized_attention {{.*}} mask(%[[M]])
//  CHECK-SAME: tensor<2x1x16x24xf32>) -> tensor<2x4x16x64xf16>
func.func @mask_broadcast_heads(%q: tensor<2x4x16x64xf16>, %k: tensor<2x4x24x64xf16>,
    %m: tensor<2x1x16x24xf32>) -> tensor<2x4x16x64xf16> {
  %o = sage.attention %q, %k, %k mask(%m) {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x4x16x64xf16>, tensor<2x4x24x64xf16>, tensor<2x4x24x64xf16>, tensor<2x1x16x24xf32>) -> tensor<2x4x16x64xf16>
  return %o : tensor<2x4x16x64xf16>
}

// -----

// Rank 3: the mask gets the unit heads dimension too.
// CHECK-LABEL: func @mask_rank3
//  CHECK-SAME: %[[M:[^:]*]]: tensor<1x?x?xi1>
//       CHECK: %[[M4:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2], [3]] {{.*}} into tensor<1x1x?x?xi1>
//       CHECK: sage.quantized_attention {{.*}} mask(%[[M4]])
func.func @mask_rank3(%q: tensor<3x?x64xf16>, %m: tensor<1x?x?xi1>) -> tensor<3x?x64xf16> {
  %o = sage.attention %q, %q, %q mask(%m) {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<3x?x64xf16>, tensor<3x?x64xf16>, tensor<3x?x64xf16>, tensor<1x?x?xi1>) -> tensor<3x?x64xf16>
  return %o : tensor<3x?x64xf16>
}

// -----

func.func @negative_layout(%q: tensor<1x16x2x64xf16>) -> tensor<1x16x2x64xf16> {
  // expected-error@+1 {{'sage.attention' op cannot be decomposed: layout batch, tokens, heads, features is not [batch, (heads,) tokens, features]}}
  %o = sage.attention %q, %q, %q {layout = #sage.layout<[batch, tokens, heads, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x16x2x64xf16>, tensor<1x16x2x64xf16>, tensor<1x16x2x64xf16>) -> tensor<1x16x2x64xf16>
  return %o : tensor<1x16x2x64xf16>
}

// -----

// NVFP4 (docs/Algorithm.md section 5): Q and K (smoothed) microscaled
// along features, V along tokens (its scales [keys / 16, features], the
// last block partial), P along its keys; the core names its tiles, which
// the microscale blocks of 16 do not give.
// CHECK-LABEL: func @nvfp4
//       CHECK: %[[KS:.*]], %[[KM:.*]] = sage.smooth
//       CHECK: %[[KV:.*]], %[[KSC:.*]] = sage.quantize %[[KS]] {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : tensor<1x2x70x64xf16> -> tensor<1x2x70x64xf4E2M1FN>, tensor<1x2x70x4xf8E4M3FN>
//       CHECK: %[[QV:.*]], %[[QSC:.*]] = sage.quantize %{{.*}} {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : tensor<1x2x100x64xf16> -> tensor<1x2x100x64xf4E2M1FN>, tensor<1x2x100x4xf8E4M3FN>
//       CHECK: %[[VV:.*]], %[[VSC:.*]] = sage.quantize %{{.*}} {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>} : tensor<1x2x70x64xf16> -> tensor<1x2x70x64xf4E2M1FN>, tensor<1x2x5x64xf8E4M3FN>
//       CHECK: sage.quantized_attention q(%[[QV]], %[[QSC]]) k(%[[KV]], %[[KSC]]) v(%[[VV]], %[[VSC]]) k_smooth(%[[KM]])
//  CHECK-SAME: block_k = 64 : i64, block_q = 64 : i64
//  CHECK-SAME: p_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>
//  CHECK-SAME: pv_accum = #sage.accum<f32>
func.func @nvfp4(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x70x64xf16>,
    %v: tensor<1x2x70x64xf16>) -> tensor<1x2x100x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"nvfp4", smooth = [k]>}
    : (tensor<1x2x100x64xf16>, tensor<1x2x70x64xf16>, tensor<1x2x70x64xf16>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

// The result type may be more static than Q's: the core takes the result's.
// CHECK-LABEL: func @static_result_dynamic_query
//       CHECK: sage.quantized_attention {{.*}} -> tensor<2x4x128x64xf16>
func.func @static_result_dynamic_query(%q: tensor<?x4x?x64xf16>, %k: tensor<2x4x128x64xf16>,
    %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x4x?x64xf16>, tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf16>
  return %o : tensor<2x4x128x64xf16>
}

// -----

// The LSE: the core returns it beside the result; K is smoothed, so the core
// also reads the unquantized query (lse_query) to restore the shift.
// CHECK-LABEL: func @lse
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x4x?x64xf16>, %{{.*}}: tensor<2x2x?x64xf16>, %{{.*}}: tensor<2x2x?x64xf16>)
//       CHECK: %[[O:.*]], %[[LSE:.*]] = sage.quantized_attention
//  CHECK-SAME: lse_query(%[[Q]])
//  CHECK-SAME: -> (tensor<2x4x?x64xf16>, tensor<2x4x?xf32>)
//       CHECK: return %[[O]], %[[LSE]]
func.func @lse(%q: tensor<2x4x?x64xf16>, %k: tensor<2x2x?x64xf16>, %v: tensor<2x2x?x64xf16>) -> (tensor<2x4x?x64xf16>, tensor<2x4x?xf32>) {
  %o, %lse = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x4x?x64xf16>, tensor<2x2x?x64xf16>, tensor<2x2x?x64xf16>) -> (tensor<2x4x?x64xf16>, tensor<2x4x?xf32>)
  return %o, %lse : tensor<2x4x?x64xf16>, tensor<2x4x?xf32>
}

// -----

// Rank 3 with K left unsmoothed: no lse_query; the [B, 1, Nq] LSE is
// collapsed back to [B, Nq].
// CHECK-LABEL: func @lse_rank3_unsmoothed_k
//       CHECK: %{{.*}}, %[[LSE:.*]] = sage.quantized_attention
//   CHECK-NOT: lse_query
//  CHECK-SAME: -> (tensor<?x1x?x64xf16>, tensor<?x1x?xf32>)
//       CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[LSE]] {{\[}}[0, 1], [2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
//       CHECK: return %{{.*}}, %[[FLAT]]
func.func @lse_rank3_unsmoothed_k(%q: tensor<?x?x64xf16>) -> (tensor<?x?x64xf16>, tensor<?x?xf32>) {
  %o, %lse = sage.attention %q, %q, %q {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [q]>}
    : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> (tensor<?x?x64xf16>, tensor<?x?xf32>)
  return %o, %lse : tensor<?x?x64xf16>, tensor<?x?xf32>
}
