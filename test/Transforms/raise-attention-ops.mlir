// RUN: sage-opt %s --allow-unregistered-dialect --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics | FileCheck %s

// Attention ops of dialects sage does not link, in their generic form.

// torch-mlir's tm_tensor.attention: batch and heads collapsed, default scale.
// CHECK-LABEL: func @tm_tensor_attention
//  CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<8x?x64xf16>, %[[K:[a-z0-9]+]]: tensor<8x?x64xf16>, %[[V:[a-z0-9]+]]: tensor<8x?x64xf16>,
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, features]>
//  CHECK-SAME: scale = 1.250000e-01 : f64
//   CHECK-NOT: tm_tensor.attention
//       CHECK: return %[[O]]
func.func @tm_tensor_attention(%q: tensor<8x?x64xf16>, %k: tensor<8x?x64xf16>, %v: tensor<8x?x64xf16>,
    %out: tensor<8x?x64xf16>) -> tensor<8x?x64xf16> {
  %0 = "tm_tensor.attention"(%q, %k, %v, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x?x64xf16>, tensor<8x?x64xf16>, tensor<8x?x64xf16>, tensor<8x?x64xf16>) -> tensor<8x?x64xf16>
  return %0 : tensor<8x?x64xf16>
}

// -----

// The 0 / -inf causal mask torch-mlir materializes becomes `causal` (equal
// static lengths: torch aligns the mask top-left, sage bottom-right).
// CHECK-LABEL: func @tm_tensor_causal_mask
//       CHECK: sage.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} {causal
//  CHECK-SAME: scale = 2.000000e-01 : f64
//   CHECK-NOT: mask(
func.func @tm_tensor_causal_mask(%q: tensor<8x128x64xf32>, %k: tensor<8x128x64xf32>,
    %v: tensor<8x128x64xf32>, %out: tensor<8x128x64xf32>) -> tensor<8x128x64xf32> {
  %e = tensor.empty() : tensor<8x128x128xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<8x128x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m = arith.select %above, %ninf, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x128x128xf32>
  %0 = "tm_tensor.attention"(%q, %k, %v, %mask, %out) {operandSegmentSizes = array<i32: 4, 1>, scale = 0.2 : f64}
    : (tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
  return %0 : tensor<8x128x64xf32>
}

// -----

// The same mask with Nq != Nk is causal aligned top-left, as torch's
// is_causal; a boolean padding mask stays a mask operand.
// CHECK-LABEL: func @tm_tensor_masks_kept
//       CHECK: sage.attention
//   CHECK-NOT: mask(
//  CHECK-SAME: {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
//       CHECK: sage.attention {{.*}} mask(%{{.*}}) {layout
//   CHECK-NOT: causal
func.func @tm_tensor_masks_kept(%q: tensor<8x64x64xf32>, %k: tensor<8x128x64xf32>,
    %v: tensor<8x128x64xf32>, %out: tensor<8x64x64xf32>, %pad: tensor<8x64x128xi1>)
    -> (tensor<8x64x64xf32>, tensor<8x64x64xf32>) {
  %e = tensor.empty() : tensor<8x64x128xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<8x64x128xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %m = arith.select %above, %ninf, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x64x128xf32>
  %0 = "tm_tensor.attention"(%q, %k, %v, %mask, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<8x64x64xf32>, tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<8x64x128xf32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  %1 = "tm_tensor.attention"(%q, %k, %v, %pad, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<8x64x64xf32>, tensor<8x128x64xf32>, tensor<8x128x64xf32>, tensor<8x64x128xi1>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0, %1 : tensor<8x64x64xf32>, tensor<8x64x64xf32>
}

// -----

// A mask that is not a tensor of i1 or float is refused.
func.func @negative_tm_tensor_int_mask(%q: tensor<8x64x64xf32>, %m: tensor<8x64x64xi32>,
    %out: tensor<8x64x64xf32>) -> tensor<8x64x64xf32> {
  // expected-remark@+1 {{not raised to sage.attention: the mask is not an i1, f16, bf16 or f32 tensor}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %m, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xf32>, tensor<8x64x64xi32>, tensor<8x64x64xf32>) -> tensor<8x64x64xf32>
  return %0 : tensor<8x64x64xf32>
}

// -----

#mq = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, k1)>
#mk = affine_map<(b, h, m, k1, k2, n) -> (b, h, k1, k2)>
#mv = affine_map<(b, h, m, k1, k2, n) -> (b, h, k2, n)>
#ms = affine_map<(b, h, m, k1, k2, n) -> ()>
#mo = affine_map<(b, h, m, k1, k2, n) -> (b, h, m, n)>

// IREE's attention with two batch dims and K stored transposed ([B, H, D,
// Nk]): the roles come from the maps; K is transposed for sage.attention.
// CHECK-LABEL: func @iree_attention_transposed_key
//  CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x8x?x128xbf16>, %[[K:[a-z0-9]+]]: tensor<2x8x128x?xbf16>, %[[V:[a-z0-9]+]]: tensor<2x8x?x128xbf16>
//       CHECK: %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<2x8x128x?xbf16>) outs(%{{.*}} : tensor<2x8x?x128xbf16>) permutation = [0, 1, 3, 2]
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[KT]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: scale = 0.0883{{[0-9]*}} : f64
//   CHECK-NOT: iree_linalg_ext
//       CHECK: return %[[O]]
func.func @iree_attention_transposed_key(%q: tensor<2x8x?x128xbf16>, %k: tensor<2x8x128x?xbf16>,
    %v: tensor<2x8x?x128xbf16>, %out: tensor<2x8x?x128xbf16>) -> tensor<2x8x?x128xbf16> {
  %scale = arith.constant 0.08838834764831845 : bf16
  %0 = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<2x8x?x128xbf16>, tensor<2x8x128x?xbf16>, tensor<2x8x?x128xbf16>, bf16, tensor<2x8x?x128xbf16>) -> tensor<2x8x?x128xbf16>
  return %0 : tensor<2x8x?x128xbf16>
}

// -----

#mq = affine_map<(b, m, h, k1, k2, n) -> (b, m, h, k1)>
#mk = affine_map<(b, m, h, k1, k2, n) -> (b, k2, h, k1)>
#mv = affine_map<(b, m, h, k1, k2, n) -> (b, k2, h, n)>
#ms = affine_map<(b, m, h, k1, k2, n) -> ()>
#mm = affine_map<(b, m, h, k1, k2, n) -> (b, h, m, k2)>
#mo = affine_map<(b, m, h, k1, k2, n) -> (b, m, h, n)>

// BTNH operands and output (as from StableHLO / JAX), with an additive
// mask: everything transposed to BNTH and the result back.
// CHECK-LABEL: func @iree_attention_btnh_mask
//   CHECK-DAG: linalg.transpose ins(%{{.*}} : tensor<1x77x4x64xf16>) outs(%{{.*}} : tensor<1x4x77x64xf16>) permutation = [0, 2, 1, 3]
//       CHECK: %[[O:.*]] = sage.attention {{.*}} mask(%{{.*}}) {layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: -> tensor<1x4x77x64xf16>
//       CHECK: %[[OT:.*]] = linalg.transpose ins(%[[O]] : tensor<1x4x77x64xf16>) outs(%{{.*}} : tensor<1x77x4x64xf16>) permutation = [0, 2, 1, 3]
//       CHECK: return %[[OT]]
func.func @iree_attention_btnh_mask(%q: tensor<1x77x4x64xf16>, %k: tensor<1x77x4x64xf16>,
    %v: tensor<1x77x4x64xf16>, %mask: tensor<1x4x77x77xf16>, %out: tensor<1x77x4x64xf16>) -> tensor<1x77x4x64xf16> {
  %scale = arith.constant 0.125 : f16
  %0 = "iree_linalg_ext.attention"(%q, %k, %v, %scale, %mask, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mm, #mo]}
    : (tensor<1x77x4x64xf16>, tensor<1x77x4x64xf16>, tensor<1x77x4x64xf16>, f16, tensor<1x4x77x77xf16>, tensor<1x77x4x64xf16>) -> tensor<1x77x4x64xf16>
  return %0 : tensor<1x77x4x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#mm = affine_map<(b, m, k1, k2, n) -> (b, m, k2)>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// The form earlier IREE releases emitted: no score region and no map for
// the scale (maps Q, K, V, O), here also with an i1 mask (maps Q, K, V,
// mask, O).
// CHECK-LABEL: func @iree_attention_earlier_form
//  CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<4x64x64xf16>, %[[M:[a-z0-9]+]]: tensor<4x64x32xi1>
//       CHECK: %[[A:.*]] = sage.attention %[[Q]], %[[Q]], %[[Q]] {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 1.250000e-01 : f64}
//  CHECK-SAME: -> tensor<4x64x64xf16>
//       CHECK: %[[B:.*]] = sage.attention %[[Q]], %{{.*}}, %{{.*}} mask(%[[M]]) {layout = #sage.layout<[batch, tokens, features]>
//   CHECK-NOT: iree_linalg_ext
//       CHECK: return %[[A]], %[[B]]
func.func @iree_attention_earlier_form(%q: tensor<4x64x64xf16>, %mask: tensor<4x64x32xi1>,
    %kv: tensor<4x32x64xf16>, %out: tensor<4x64x64xf16>) -> (tensor<4x64x64xf16>, tensor<4x64x64xf16>) {
  %scale = arith.constant 0.125 : f16
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) {indexing_maps = [#mq, #mk, #mv, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %1 = "iree_linalg_ext.attention"(%q, %kv, %kv, %scale, %mask, %out) {indexing_maps = [#mq, #mk, #mv, #mm, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x32x64xf16>, tensor<4x32x64xf16>, f16, tensor<4x64x32xi1>, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0, %1 : tensor<4x64x64xf16>, tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// A score region that changes the scores (here a tanh soft cap) is not
// plain attention.
func.func @negative_iree_score_region(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: the score region is not the identity}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    %t = math.tanh %s : f32
    "iree_linalg_ext.yield"(%t) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// Regression (fuzzing): a score block with no operations, not even a
// terminator, read past its end.
func.func @negative_iree_empty_score_block(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: the score region is not the identity}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// A scale computed at run time cannot become the op's attribute.
func.func @negative_iree_dynamic_scale(%q: tensor<4x64x64xf16>, %scale: f16, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  // expected-remark@+1 {{not raised to sage.attention: the scale is not a constant}}
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>

// An op of another name with the same structure is none of sage's business.
// CHECK-LABEL: func @negative_other_op
//       CHECK: "mydialect.attention"
//   CHECK-NOT: sage.attention
func.func @negative_other_op(%q: tensor<4x64x64xf16>, %out: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %scale = arith.constant 0.125 : f16
  %0 = "mydialect.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %0 : tensor<4x64x64xf16>
}

// -----

// GQA as torch spells it with enable_gqa: K and V heads repeat_interleave'd
// (broadcast along a new dim after heads, collapsed into heads). The
// repeat is folded into sage.attention's head ratio: K and V are read once.
// CHECK-LABEL: func @tm_tensor_gqa_repeat
//  CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x8x128x64xf16>, %[[K:[a-z0-9]+]]: tensor<2x2x128x64xf16>, %[[V:[a-z0-9]+]]: tensor<2x2x128x64xf16>
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: (tensor<2x8x128x64xf16>, tensor<2x2x128x64xf16>, tensor<2x2x128x64xf16>) -> tensor<2x8x128x64xf16>
//       CHECK: return %[[O]]
func.func @tm_tensor_gqa_repeat(%q: tensor<2x8x128x64xf16>, %k: tensor<2x2x128x64xf16>,
    %v: tensor<2x2x128x64xf16>, %out: tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16> {
  %e = tensor.empty() : tensor<2x2x4x128x64xf16>
  %kb = linalg.broadcast ins(%k : tensor<2x2x128x64xf16>) outs(%e : tensor<2x2x4x128x64xf16>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x4x128x64xf16> into tensor<2x8x128x64xf16>
  %vb = linalg.generic {indexing_maps = [affine_map<(b, h, r, n, d) -> (b, h, n, d)>,
                                         affine_map<(b, h, r, n, d) -> (b, h, r, n, d)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x2x128x64xf16>) outs(%e : tensor<2x2x4x128x64xf16>) {
  ^bb0(%in: f16, %o: f16):
    linalg.yield %in : f16
  } -> tensor<2x2x4x128x64xf16>
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x4x128x64xf16> into tensor<2x8x128x64xf16>
  %0 = "tm_tensor.attention"(%q, %kr, %vr, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>, tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16>
  return %0 : tensor<2x8x128x64xf16>
}

// -----

#mq = affine_map<(b, g, h, m, k1, k2, n) -> (b, g, h, m, k1)>
#mk = affine_map<(b, g, h, m, k1, k2, n) -> (b, g, h, k2, k1)>
#mv = affine_map<(b, g, h, m, k1, k2, n) -> (b, g, h, k2, n)>
#ms = affine_map<(b, g, h, m, k1, k2, n) -> ()>
#mo = affine_map<(b, g, h, m, k1, k2, n) -> (b, g, h, m, n)>

// Three batch dims: the leading two become sage.attention's batch, and the
// result is expanded back.
// CHECK-LABEL: func @iree_attention_three_batch_dims
//       CHECK: %[[Q:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] : tensor<2x3x4x?x64xf16> into tensor<6x4x?x64xf16>
//       CHECK: %[[O:.*]] = sage.attention %[[Q]]
//  CHECK-SAME: -> tensor<6x4x?x64xf16>
//       CHECK: %[[E:.*]] = tensor.expand_shape %[[O]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 4, %{{.*}}, 64] : tensor<6x4x?x64xf16> into tensor<2x3x4x?x64xf16>
//       CHECK: return %[[E]]
func.func @iree_attention_three_batch_dims(%q: tensor<2x3x4x?x64xf16>, %out: tensor<2x3x4x?x64xf16>) -> tensor<2x3x4x?x64xf16> {
  %scale = arith.constant 0.125 : f16
  %0 = "iree_linalg_ext.attention"(%q, %q, %q, %scale, %out) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo]}
    : (tensor<2x3x4x?x64xf16>, tensor<2x3x4x?x64xf16>, tensor<2x3x4x?x64xf16>, f16, tensor<2x3x4x?x64xf16>) -> tensor<2x3x4x?x64xf16>
  return %0 : tensor<2x3x4x?x64xf16>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#mr = affine_map<(b, m, k1, k2, n) -> (b, m)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>

// online_attention that reaches us whole: O, max, sum start from 0, -inf,
// 0 and O / sum follows.
// CHECK-LABEL: func @iree_online_attention_whole
//       CHECK: %[[O:.*]] = sage.attention
//  CHECK-SAME: scale = 1.250000e-01 : f64
//   CHECK-NOT: online_attention
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[O]]
func.func @iree_online_attention_whole(%q: tensor<4x64x64xf16>) -> tensor<4x64x64xf32> {
  %scale = arith.constant 0.125 : f16
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %oe = tensor.empty() : tensor<4x64x64xf32>
  %re = tensor.empty() : tensor<4x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%re : tensor<4x64xf32>) -> tensor<4x64xf32>
  %r:3 = "iree_linalg_ext.online_attention"(%q, %q, %q, %scale, %o0, %m0, %s0) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo, #mr, #mr]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      -> (tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
  %o = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%r#0, %r#2 : tensor<4x64x64xf32>, tensor<4x64xf32>) outs(%oe : tensor<4x64x64xf32>) {
  ^bb0(%acc: f32, %sum: f32, %out: f32):
    %d = arith.divf %acc, %sum : f32
    linalg.yield %d : f32
  } -> tensor<4x64x64xf32>
  return %o : tensor<4x64x64xf32>
}

// -----

#mq = affine_map<(b, m, k1, k2, n) -> (b, m, k1)>
#mk = affine_map<(b, m, k1, k2, n) -> (b, k2, k1)>
#mv = affine_map<(b, m, k1, k2, n) -> (b, k2, n)>
#ms = affine_map<(b, m, k1, k2, n) -> ()>
#mo = affine_map<(b, m, k1, k2, n) -> (b, m, n)>
#mr = affine_map<(b, m, k1, k2, n) -> (b, m)>

// One tile of a split-K / flash-decoding loop (its running state comes
// from outside) is not attention on its own.
func.func @negative_online_attention_tile(%q: tensor<4x64x64xf16>, %o0: tensor<4x64x64xf32>,
    %m0: tensor<4x64xf32>, %s0: tensor<4x64xf32>) -> (tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>) {
  %scale = arith.constant 0.125 : f16
  // expected-remark@+1 {{not raised to sage.attention: online_attention does not start from O = 0, max = -inf, sum = 0}}
  %r:3 = "iree_linalg_ext.online_attention"(%q, %q, %q, %scale, %o0, %m0, %s0) ({
  ^bb0(%s: f32):
    "iree_linalg_ext.yield"(%s) : (f32) -> ()
  }) {indexing_maps = [#mq, #mk, #mv, #ms, #mo, #mr, #mr]}
    : (tensor<4x64x64xf16>, tensor<4x64x64xf16>, tensor<4x64x64xf16>, f16, tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
      -> (tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x64x64xf32>, tensor<4x64xf32>, tensor<4x64xf32>
}

// -----

// A sliding window agrees with the causal pattern near the diagonal but is
// not causal: it stays a mask.
// CHECK-LABEL: func @tm_tensor_sliding_window_is_not_causal
//       CHECK: sage.attention {{.*}} mask(
//   CHECK-NOT: causal
func.func @tm_tensor_sliding_window_is_not_causal(%q: tensor<8x1024x64xf16>, %k: tensor<8x1024x64xf16>,
    %v: tensor<8x1024x64xf16>, %out: tensor<8x1024x64xf16>) -> tensor<8x1024x64xf16> {
  %e = tensor.empty() : tensor<8x1024x1024xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<8x1024x1024xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c16 = arith.constant 16 : index
    %visible = arith.cmpi ule, %j, %i : index
    %d = arith.subi %i, %j : index
    %near = arith.cmpi slt, %d, %c16 : index
    %m = arith.select %visible, %near, %visible : i1
    linalg.yield %m : i1
  } -> tensor<8x1024x1024xi1>
  %0 = "tm_tensor.attention"(%q, %k, %v, %mask, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<8x1024x64xf16>, tensor<8x1024x64xf16>, tensor<8x1024x64xf16>, tensor<8x1024x1024xi1>, tensor<8x1024x64xf16>) -> tensor<8x1024x64xf16>
  return %0 : tensor<8x1024x64xf16>
}

// -----

// torch-mlir's 4-D SDPA(is_causal=True): the mask is built at rank 4 and
// collapsed with the operands; it is still causal.
// CHECK-LABEL: func @tm_tensor_4d_causal_collapsed
//       CHECK: sage.attention {{.*}} {causal
//   CHECK-NOT: mask(
func.func @tm_tensor_4d_causal_collapsed(%q: tensor<2x8x128x64xf16>, %k: tensor<2x8x128x64xf16>, %v: tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16> {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<2x8x128x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x8x128x128xf16>) -> tensor<2x8x128x128xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%f : tensor<2x8x128x128xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sge, %i, %j : index
    %m = arith.select %c, %zero, %ninf : f16
    linalg.yield %m : f16
  } -> tensor<2x8x128x128xf16>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %mc = tensor.collapse_shape %mask [[0, 1], [2], [3]] : tensor<2x8x128x128xf16> into tensor<16x128x128xf16>
  %out = tensor.empty() : tensor<16x128x64xf16>
  %0 = "tm_tensor.attention"(%qc, %kc, %vc, %mc, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<16x128x64xf16>, tensor<16x128x64xf16>, tensor<16x128x64xf16>, tensor<16x128x128xf16>, tensor<16x128x64xf16>) -> tensor<16x128x64xf16>
  %r = tensor.expand_shape %0 [[0, 1], [2], [3]] output_shape [2, 8, 128, 64] : tensor<16x128x64xf16> into tensor<2x8x128x64xf16>
  return %r : tensor<2x8x128x64xf16>
}

// -----

// The same mask with torch's finfo(f16).min (-65504) instead of -inf, as
// models that build it with masked_fill do: the lowest f16 hides a score
// as -inf does, so it is causal too.
// CHECK-LABEL: func @tm_tensor_causal_f16_lowest
//       CHECK: sage.attention {{.*}} {causal
//   CHECK-NOT: mask(
func.func @tm_tensor_causal_f16_lowest(%q: tensor<2x8x128x64xf16>, %k: tensor<2x8x128x64xf16>, %v: tensor<2x8x128x64xf16>) -> tensor<2x8x128x64xf16> {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFBFF : f16
  %e = tensor.empty() : tensor<2x8x128x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x8x128x128xf16>) -> tensor<2x8x128x128xf16>
  %mask = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%f : tensor<2x8x128x128xf16>) {
  ^bb0(%o: f16):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sge, %i, %j : index
    %m = arith.select %c, %zero, %ninf : f16
    linalg.yield %m : f16
  } -> tensor<2x8x128x128xf16>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x8x128x64xf16> into tensor<16x128x64xf16>
  %mc = tensor.collapse_shape %mask [[0, 1], [2], [3]] : tensor<2x8x128x128xf16> into tensor<16x128x128xf16>
  %out = tensor.empty() : tensor<16x128x64xf16>
  %0 = "tm_tensor.attention"(%qc, %kc, %vc, %mc, %out) {operandSegmentSizes = array<i32: 4, 1>}
    : (tensor<16x128x64xf16>, tensor<16x128x64xf16>, tensor<16x128x64xf16>, tensor<16x128x128xf16>, tensor<16x128x64xf16>) -> tensor<16x128x64xf16>
  %r = tensor.expand_shape %0 [[0, 1], [2], [3]] output_shape [2, 8, 128, 64] : tensor<16x128x64xf16> into tensor<2x8x128x64xf16>
  return %r : tensor<2x8x128x64xf16>
}
