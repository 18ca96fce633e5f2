// RUN: sage-opt %s --sage-decompose-attention --convert-sage-to-gpu="chip=sm_90" -split-input-file -verify-diagnostics | FileCheck %s

// An i1 keep-mask per batch and head: the plan's `mask` input, read by the
// attention kernel one byte per score; a dropped key's score becomes -inf
// before sage.mask_scores and the online softmax.
// CHECK-LABEL: sage.launch_plans = {keep_mask = {
//  CHECK-SAME: {kind = "input", name = "mask", shape = ["B", "H", "Nq", "Nk"], type = "i1"}
//  CHECK-SAME: name = "sage_attention", params = [{{.*}}{buffer = "mask"}
//       CHECK: gpu.func @sage_attention(
//       CHECK:   scf.for
//       CHECK:     %[[BYTE:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr<1> -> i8
//       CHECK:     %[[KEEP:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
//       CHECK:     arith.select %[[KEEP]], %{{.*}}, %[[NEG_INF:.*]] : f32
//       CHECK:     sage.mask_scores
func.func @keep_mask(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>,
    %m: tensor<?x?x?x?xi1>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x?xi1>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// An additive f16 mask of a rank-3 attention, broadcast over the batch: the
// plan names its unit dimension, and the kernel adds mask * log2(e) to the
// base-2 scores.
// CHECK-LABEL: sage.launch_plans = {additive_mask = {
//  CHECK-SAME: {kind = "input", name = "mask", shape = [1, "Nq", "Nk"], type = "f16"}
//       CHECK: gpu.func @sage_attention(
//       CHECK:   scf.for
//       CHECK:     %[[M16:.*]] = llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
//       CHECK:     %[[M32:.*]] = arith.extf %[[M16]] : f16 to f32
//       CHECK:     %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
//       CHECK:     %[[BIAS:.*]] = arith.mulf %[[M32]], %[[LOG2E]] : f32
//       CHECK:     arith.addf %{{.*}}, %[[BIAS]] : f32
//       CHECK:     sage.mask_scores
func.func @additive_mask(%q: tensor<?x?x64xf16>, %m: tensor<1x?x?xf16>) -> tensor<?x?x64xf16> {
  %o = sage.attention %q, %q, %q mask(%m) {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<1x?x?xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}

// -----

// The kernel reads the mask as [batch, heads, queries, keys]: one whose
// tokens and heads were swapped on the way is refused.
func.func @negative_mask_transposed(%q: tensor<1x2x64x64xf16>, %m: tensor<1x64x2x64xi1>) -> tensor<1x2x64x64xf16> {
  %e = tensor.empty() : tensor<1x2x64x64xi1>
  %mt = linalg.transpose ins(%m : tensor<1x64x2x64xi1>) outs(%e : tensor<1x2x64x64xi1>) permutation = [0, 2, 1, 3]
  // expected-error@+1 {{'sage.quantized_attention' op expected the mask to be an argument of the function laid out [batch | 1, heads | 1, queries, keys] (or reshaped), as the launch plan fills it}}
  %o = sage.attention %q, %q, %q mask(%mt) {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xi1>) -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}
