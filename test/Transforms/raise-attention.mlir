// RUN: sage-opt %s --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s --sage-raise-attention="variant=int4-fp8-f16acc explain=true" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=VARIANT

// Each case that is not raised carries the remark `explain` gives for it.

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>

// K transposed by the indexing maps, scores in f32 scaled by a multiply,
// probabilities truncated to f16; dynamic batch and token counts.
// CHECK-LABEL: func @maps_transpose_mul_scale_casts
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x?x64xf16>, %[[K:.*]]: tensor<?x?x64xf16>, %[[V:.*]]: tensor<?x?x64xf16>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, features]>
//  CHECK-SAME: recipe = #sage.recipe<"int8-fp8">
//  CHECK-SAME: scale = 1.250000e-01 : f64
//  CHECK-SAME: -> tensor<?x?x64xf16>
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
// VARIANT-LABEL: func @maps_transpose_mul_scale_casts
//       VARIANT: recipe = #sage.recipe<"int4-fp8-f16acc">
func.func @maps_transpose_mul_scale_casts(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>,
    %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f32
  %b = tensor.dim %q, %c0 : tensor<?x?x64xf16>
  %nq = tensor.dim %q, %c1 : tensor<?x?x64xf16>
  %nk = tensor.dim %k, %c1 : tensor<?x?x64xf16>
  %se = tensor.empty(%b, %nq, %nk) : tensor<?x?x?xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<?x?x64xf16>, tensor<?x?x64xf16>)
      outs(%si : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x?x?xf32>) outs(%se : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %scale, %in : f32
    linalg.yield %m : f32
  } -> tensor<?x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<?x?x?xf32>) outs(%se : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %pe = tensor.empty(%b, %nq, %nk) : tensor<?x?x?xf16>
  %p16 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<?x?x?xf32>) outs(%pe : tensor<?x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x?x?xf16>
  %oe = tensor.empty(%b, %nq) : tensor<?x?x64xf16>
  %oi = linalg.fill ins(%zero16 : f16) outs(%oe : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = linalg.batch_matmul ins(%p16, %v : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%oi : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// The scale and the cast written on whole tensors (arith.mulf by a
// tensor.splat, arith.truncf of P) are the same steps as their
// linalg.generic spellings.
// CHECK-LABEL: func @tensor_level_scale_and_cast
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x?x64xf16>, %[[K:.*]]: tensor<?x?x64xf16>, %[[V:.*]]: tensor<?x?x64xf16>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: scale = 1.250000e-01 : f64
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @tensor_level_scale_and_cast(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>,
    %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f32
  %b = tensor.dim %q, %c0 : tensor<?x?x64xf16>
  %nq = tensor.dim %q, %c1 : tensor<?x?x64xf16>
  %nk = tensor.dim %k, %c1 : tensor<?x?x64xf16>
  %se = tensor.empty(%b, %nq, %nk) : tensor<?x?x?xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<?x?x64xf16>, tensor<?x?x64xf16>)
      outs(%si : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %scales = tensor.splat %scale[%b, %nq, %nk] : tensor<?x?x?xf32>
  %ss = arith.mulf %s, %scales : tensor<?x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<?x?x?xf32>) outs(%se : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %p16 = arith.truncf %p : tensor<?x?x?xf32> to tensor<?x?x?xf16>
  %oe = tensor.empty(%b, %nq) : tensor<?x?x64xf16>
  %oi = linalg.fill ins(%zero16 : f16) outs(%oe : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = linalg.batch_matmul ins(%p16, %v : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%oi : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}

// -----

#id3 = affine_map<(b, m, n) -> (b, m, n)>

// K transposed by linalg.transpose, scale as a division by sqrt(D), f32,
// static shapes, Nq != Nk, D_v != D_qk.
// CHECK-LABEL: func @linalg_transpose_div_scale
//  CHECK-SAME: (%[[Q:.*]]: tensor<8x100x128xf32>, %[[K:.*]]: tensor<8x70x128xf32>, %[[V:.*]]: tensor<8x70x64xf32>)
//       CHECK: sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: scale = 0.08838834{{[0-9]+}} : f64
//  CHECK-SAME: -> tensor<8x100x64xf32>
//   CHECK-NOT: linalg.
func.func @linalg_transpose_div_scale(%q: tensor<8x100x128xf32>, %k: tensor<8x70x128xf32>,
    %v: tensor<8x70x64xf32>) -> tensor<8x100x64xf32> {
  %zero = arith.constant 0.0 : f32
  %sqrt_d = arith.constant 11.313708498984761 : f32
  %kte = tensor.empty() : tensor<8x128x70xf32>
  %kt = linalg.transpose ins(%k : tensor<8x70x128xf32>) outs(%kte : tensor<8x128x70xf32>) permutation = [0, 2, 1]
  %se = tensor.empty() : tensor<8x100x70xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<8x100x70xf32>) -> tensor<8x100x70xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x100x128xf32>, tensor<8x128x70xf32>)
      outs(%si : tensor<8x100x70xf32>) -> tensor<8x100x70xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x100x70xf32>) outs(%se : tensor<8x100x70xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %sqrt_d : f32
    linalg.yield %m : f32
  } -> tensor<8x100x70xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<8x100x70xf32>) outs(%se : tensor<8x100x70xf32>) -> tensor<8x100x70xf32>
  %oe = tensor.empty() : tensor<8x100x64xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x100x64xf32>) -> tensor<8x100x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x100x70xf32>, tensor<8x70x64xf32>)
      outs(%oi : tensor<8x100x64xf32>) -> tensor<8x100x64xf32>
  return %o : tensor<8x100x64xf32>
}

// -----

// Unbatched linalg.matmul, no scale (so scale 1), bf16: a unit batch
// dimension is added around sage.attention.
// CHECK-LABEL: func @unbatched_matmul_no_scale
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x64xbf16>, %[[K:.*]]: tensor<?x64xbf16>, %[[V:.*]]: tensor<?x64xbf16>,
//   CHECK-DAG: %[[Q3:.*]] = tensor.expand_shape %[[Q]] {{\[\[}}0, 1], [2]] {{.*}} : tensor<?x64xbf16> into tensor<1x?x64xbf16>
//   CHECK-DAG: %[[K3:.*]] = tensor.expand_shape %[[K]] {{\[\[}}0, 1], [2]]
//   CHECK-DAG: %[[V3:.*]] = tensor.expand_shape %[[V]] {{\[\[}}0, 1], [2]]
//       CHECK: %[[O3:.*]] = sage.attention %[[Q3]], %[[K3]], %[[V3]]
//  CHECK-SAME: scale = 1.000000e+00 : f64
//  CHECK-SAME: -> tensor<1x?x64xbf16>
//       CHECK: %[[O:.*]] = tensor.collapse_shape %[[O3]] {{\[\[}}0, 1], [2]] : tensor<1x?x64xbf16> into tensor<?x64xbf16>
//       CHECK: return %[[O]]
func.func @unbatched_matmul_no_scale(%q: tensor<?x64xbf16>, %k: tensor<?x64xbf16>,
    %v: tensor<?x64xbf16>, %nq: index, %nk: index) -> tensor<?x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %kte = tensor.empty(%nk) : tensor<64x?xbf16>
  %kt = linalg.transpose ins(%k : tensor<?x64xbf16>) outs(%kte : tensor<64x?xbf16>) permutation = [1, 0]
  %se = tensor.empty(%nq, %nk) : tensor<?x?xbf16>
  %si = linalg.fill ins(%zero : bf16) outs(%se : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %s = linalg.matmul ins(%q, %kt : tensor<?x64xbf16>, tensor<64x?xbf16>)
      outs(%si : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %p = linalg.softmax dimension(1) ins(%s : tensor<?x?xbf16>) outs(%se : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  %oe = tensor.empty(%nq) : tensor<?x64xbf16>
  %oi = linalg.fill ins(%zero : bf16) outs(%oe : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xbf16>, tensor<?x64xbf16>)
      outs(%oi : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %o : tensor<?x64xbf16>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// Scale applied by the named linalg.mul with a filled operand.
// CHECK-LABEL: func @named_mul_scale
//       CHECK: sage.attention
//  CHECK-SAME: scale = 2.500000e-01 : f64
//   CHECK-NOT: linalg.
func.func @named_mul_scale(%q: tensor<4x32x16xf16>, %k: tensor<4x48x16xf16>,
    %v: tensor<4x48x16xf16>) -> tensor<4x32x16xf16> {
  %zero = arith.constant 0.0 : f16
  %quarter = arith.constant 0.25 : f16
  %se = tensor.empty() : tensor<4x32x48xf16>
  %si = linalg.fill ins(%zero : f16) outs(%se : tensor<4x32x48xf16>) -> tensor<4x32x48xf16>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf16>, tensor<4x48x16xf16>)
      outs(%si : tensor<4x32x48xf16>) -> tensor<4x32x48xf16>
  %c = linalg.fill ins(%quarter : f16) outs(%se : tensor<4x32x48xf16>) -> tensor<4x32x48xf16>
  %ss = linalg.mul ins(%s, %c : tensor<4x32x48xf16>, tensor<4x32x48xf16>)
      outs(%se : tensor<4x32x48xf16>) -> tensor<4x32x48xf16>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x32x48xf16>) outs(%se : tensor<4x32x48xf16>) -> tensor<4x32x48xf16>
  %oe = tensor.empty() : tensor<4x32x16xf16>
  %oi = linalg.fill ins(%zero : f16) outs(%oe : tensor<4x32x16xf16>) -> tensor<4x32x16xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x48xf16>, tensor<4x48x16xf16>)
      outs(%oi : tensor<4x32x16xf16>) -> tensor<4x32x16xf16>
  return %o : tensor<4x32x16xf16>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// A softmax over the queries is not attention.
// CHECK-LABEL: func @negative_softmax_over_queries
//   CHECK-NOT: sage.attention
//       CHECK: linalg.softmax dimension(1)
func.func @negative_softmax_over_queries(%q: tensor<4x32x16xf32>, %k: tensor<4x32x16xf32>,
    %v: tensor<4x32x16xf32>) -> tensor<4x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf32>, tensor<4x32x16xf32>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %oe = tensor.empty() : tensor<4x32x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: softmax runs over dimension 1, not the key dimension 2}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%oi : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o : tensor<4x32x16xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// The probabilities are returned too: raising would change them.
// CHECK-LABEL: func @negative_probabilities_used_elsewhere
//   CHECK-NOT: sage.attention
func.func @negative_probabilities_used_elsewhere(%q: tensor<4x32x16xf32>, %k: tensor<4x32x16xf32>,
    %v: tensor<4x32x16xf32>) -> (tensor<4x32x16xf32>, tensor<4x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf32>, tensor<4x32x16xf32>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %oe = tensor.empty() : tensor<4x32x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: the probabilities have users besides the P*V contraction}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%oi : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o, %p : tensor<4x32x16xf32>, tensor<4x32x32xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// The raw scores are returned too.
// CHECK-LABEL: func @negative_scores_used_elsewhere
//   CHECK-NOT: sage.attention
func.func @negative_scores_used_elsewhere(%q: tensor<4x32x16xf32>, %k: tensor<4x32x16xf32>,
    %v: tensor<4x32x16xf32>) -> (tensor<4x32x16xf32>, tensor<4x32x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf32>, tensor<4x32x16xf32>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %oe = tensor.empty() : tensor<4x32x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: the scores have users besides the softmax}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%oi : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o, %s : tensor<4x32x16xf32>, tensor<4x32x32xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// O = init + P V with a non-zero init is not attention alone.
// CHECK-LABEL: func @negative_nonzero_accumulator
//   CHECK-NOT: sage.attention
func.func @negative_nonzero_accumulator(%q: tensor<4x32x16xf32>, %k: tensor<4x32x16xf32>,
    %v: tensor<4x32x16xf32>, %acc: tensor<4x32x16xf32>) -> tensor<4x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf32>, tensor<4x32x16xf32>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  // expected-remark@+1 {{not raised to sage.attention: P*V accumulates into a non-zero init}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%acc : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o : tensor<4x32x16xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// Q and V of different element types.
// CHECK-LABEL: func @negative_mixed_element_types
//   CHECK-NOT: sage.attention
func.func @negative_mixed_element_types(%q: tensor<4x32x16xf16>, %k: tensor<4x32x16xf16>,
    %v: tensor<4x32x16xf32>) -> tensor<4x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x16xf16>, tensor<4x32x16xf16>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %oe = tensor.empty() : tensor<4x32x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: Q, K and V must share an f16, bf16 or f32 element type}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%oi : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o : tensor<4x32x16xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// A dynamic feature dimension cannot be compiled to a fixed-D kernel.
// CHECK-LABEL: func @negative_dynamic_features
//   CHECK-NOT: sage.attention
func.func @negative_dynamic_features(%q: tensor<4x32x?xf32>, %k: tensor<4x32x?xf32>,
    %v: tensor<4x32x16xf32>) -> tensor<4x32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x32x32xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x32x?xf32>, tensor<4x32x?xf32>)
      outs(%si : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%se : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %oe = tensor.empty() : tensor<4x32x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: feature dimensions must be static}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x16xf32>)
      outs(%oi : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
  return %o : tensor<4x32x16xf32>
}

// -----

// Two matmuls without a softmax: no candidate, no remark.
// CHECK-LABEL: func @negative_matmul_chain
//   CHECK-NOT: sage.attention
//   CHECK-COUNT-2: linalg.matmul
func.func @negative_matmul_chain(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>,
    %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %ab = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>) outs(%i : tensor<16x16xf32>) -> tensor<16x16xf32>
  %oe = tensor.empty() : tensor<16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%ab, %c : tensor<16x16xf32>, tensor<16x8xf32>) outs(%oi : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
