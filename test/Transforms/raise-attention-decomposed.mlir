// RUN: sage-opt %s --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics | FileCheck %s

// Attention whose softmax is spelled out: max-reduce, exp(s - max),
// sum-reduce, divide. Each case that is not raised carries the remark
// `explain` gives for it.

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>

// torch-mlir's decomposition of aten.scaled_dot_product_attention after
// TorchToLinalg: [B, H, L, E] collapsed to [B*H, L, E] around
// linalg.batch_matmul, K transposed in 4-D, the scale as mul.Scalar (an f64
// truncated in the body), keepdim reductions through an output map with a
// constant 0, sub.Tensor with its alpha, then exp and div.Tensor.
// CHECK-LABEL: func @torch_sdpa_f32
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x4x16x32xf32>, %[[K:.*]]: tensor<2x4x24x32xf32>, %[[V:.*]]: tensor<2x4x24x32xf32>)
//   CHECK-NOT: linalg.
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: scale = 0.17677669{{[0-9]+}} : f64
//  CHECK-SAME: -> tensor<2x4x16x32xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @torch_sdpa_f32(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>,
    %v: tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.17677669529663687 : f64
  %one = arith.constant 1 : i64
  %kte = tensor.empty() : tensor<2x4x32x24xf32>
  %kt = linalg.transpose ins(%k : tensor<2x4x24x32xf32>) outs(%kte : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
  %kt3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
  %se = tensor.empty() : tensor<8x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<8x16x32xf32>, tensor<8x32x24xf32>)
      outs(%sf : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
  %e4 = tensor.empty() : tensor<2x4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x16x24xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.truncf %scale : f64 to f32
    %x = arith.mulf %in, %c : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %me = tensor.empty() : tensor<2x4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x1xf32>
  %d = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %m : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %a = arith.sitofp %one : i64 to f32
    %x = arith.mulf %in_1, %a : f32
    %y = arith.subf %in, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d : tensor<2x4x16x24xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%me : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<2x4x16x24xf32>) outs(%zf : tensor<2x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %oe = tensor.empty() : tensor<8x16x32xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x16x24xf32>, tensor<8x24x32xf32>)
      outs(%of : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// The same in f16 with the softmax in f32 (extf after Q*K^T, truncf before
// P*V), dynamic batch and token counts, K transposed after collapsing,
// reductions to [B, H, L] (no keepdim), exp(s - m) in one generic, a
// max written as cmpf + select from the lowest float, and the division as
// a multiply by 1 / z.
// CHECK-LABEL: func @torch_sdpa_f16_dynamic
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x8x?x64xf16>, %[[K:.*]]: tensor<?x8x?x64xf16>, %[[V:.*]]: tensor<?x8x?x64xf16>)
//   CHECK-NOT: linalg.
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: scale = 1.250000e-01 : f64
//  CHECK-SAME: -> tensor<?x8x?x64xf16>
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @torch_sdpa_f16_dynamic(%q: tensor<?x8x?x64xf16>, %k: tensor<?x8x?x64xf16>,
    %v: tensor<?x8x?x64xf16>) -> tensor<?x8x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero16 = arith.constant 0.000000e+00 : f16
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %b = tensor.dim %q, %c0 : tensor<?x8x?x64xf16>
  %l = tensor.dim %q, %c2 : tensor<?x8x?x64xf16>
  %n = tensor.dim %k, %c2 : tensor<?x8x?x64xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x8x?x64xf16> into tensor<?x?x64xf16>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<?x8x?x64xf16> into tensor<?x?x64xf16>
  %bh = tensor.dim %q3, %c0 : tensor<?x?x64xf16>
  %kte = tensor.empty(%bh, %n) : tensor<?x64x?xf16>
  %kt3 = linalg.transpose ins(%k3 : tensor<?x?x64xf16>) outs(%kte : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %se = tensor.empty(%bh, %l, %n) : tensor<?x?x?xf16>
  %sf = linalg.fill ins(%zero16 : f16) outs(%se : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<?x?x64xf16>, tensor<?x64x?xf16>)
      outs(%sf : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [%b, 8, %l, %n] : tensor<?x?x?xf16> into tensor<?x8x?x?xf16>
  %e32 = tensor.empty(%b, %l, %n) : tensor<?x8x?x?xf32>
  %s32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x8x?x?xf16>) outs(%e32 : tensor<?x8x?x?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<?x8x?x?xf32>
  %ss = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s32 : tensor<?x8x?x?xf32>) outs(%e32 : tensor<?x8x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %scale : f32
    linalg.yield %x : f32
  } -> tensor<?x8x?x?xf32>
  %re = tensor.empty(%b, %l) : tensor<?x8x?xf32>
  %mf = linalg.fill ins(%lowest : f32) outs(%re : tensor<?x8x?xf32>) -> tensor<?x8x?xf32>
  %m = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss : tensor<?x8x?x?xf32>) outs(%mf : tensor<?x8x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ogt, %in, %out : f32
    %x = arith.select %gt, %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<?x8x?xf32>
  %e = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %m : tensor<?x8x?x?xf32>, tensor<?x8x?xf32>) outs(%e32 : tensor<?x8x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?x8x?x?xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%re : tensor<?x8x?xf32>) -> tensor<?x8x?xf32>
  %z = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<?x8x?x?xf32>) outs(%zf : tensor<?x8x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<?x8x?xf32>
  %p = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<?x8x?x?xf32>, tensor<?x8x?xf32>) outs(%e32 : tensor<?x8x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %r = arith.divf %one, %in_1 : f32
    %x = arith.mulf %in, %r : f32
    linalg.yield %x : f32
  } -> tensor<?x8x?x?xf32>
  %e16 = tensor.empty(%b, %l, %n) : tensor<?x8x?x?xf16>
  %p16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<?x8x?x?xf32>) outs(%e16 : tensor<?x8x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %x = arith.truncf %in : f32 to f16
    linalg.yield %x : f16
  } -> tensor<?x8x?x?xf16>
  %p3 = tensor.collapse_shape %p16 [[0, 1], [2], [3]] : tensor<?x8x?x?xf16> into tensor<?x?x?xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<?x8x?x64xf16> into tensor<?x?x64xf16>
  %oe = tensor.empty(%bh, %l) : tensor<?x?x64xf16>
  %of = linalg.fill ins(%zero16 : f16) outs(%oe : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%of : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [%b, 8, %l, 64] : tensor<?x?x64xf16> into tensor<?x8x?x64xf16>
  return %o : tensor<?x8x?x64xf16>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// torch-mlir's decomposition with batch, heads and both lengths dynamic:
// nothing proves that the scores split B*H into the B and H of Q, so the
// attention is raised on the collapsed [B*H, L, E] operands (rank 3) and
// the expand of its result stays.
// CHECK-LABEL: func @torch_sdpa_batch_heads_dynamic
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x?x?x64xf16>, %[[K:.*]]: tensor<?x?x?x64xf16>, %[[V:.*]]: tensor<?x?x?x64xf16>)
//   CHECK-DAG: %[[Q3:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1], [2], [3]]
//   CHECK-DAG: %[[K3:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]]
//   CHECK-DAG: %[[V3:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1], [2], [3]]
//   CHECK-NOT: linalg.
//       CHECK: %[[O3:.*]] = sage.attention %[[Q3]], %[[K3]], %[[V3]]
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, features]>
//  CHECK-SAME: scale = 1.250000e-01 : f64
//  CHECK-SAME: -> tensor<?x?x64xf16>
//   CHECK-NOT: linalg.
//       CHECK: %[[O:.*]] = tensor.expand_shape %[[O3]]
//       CHECK: return %[[O]]
func.func @torch_sdpa_batch_heads_dynamic(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
    %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero16 = arith.constant 0.000000e+00 : f16
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %b = tensor.dim %q, %c0 : tensor<?x?x?x64xf16>
  %h = tensor.dim %q, %c1 : tensor<?x?x?x64xf16>
  %l = tensor.dim %q, %c2 : tensor<?x?x?x64xf16>
  %n = tensor.dim %k, %c2 : tensor<?x?x?x64xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %bh = tensor.dim %q3, %c0 : tensor<?x?x64xf16>
  %kte = tensor.empty(%bh, %n) : tensor<?x64x?xf16>
  %kt3 = linalg.transpose ins(%k3 : tensor<?x?x64xf16>) outs(%kte : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %se = tensor.empty(%bh, %l, %n) : tensor<?x?x?xf16>
  %sf = linalg.fill ins(%zero16 : f16) outs(%se : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<?x?x64xf16>, tensor<?x64x?xf16>)
      outs(%sf : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [%b, %h, %l, %n] : tensor<?x?x?xf16> into tensor<?x?x?x?xf16>
  %e32 = tensor.empty(%b, %h, %l, %n) : tensor<?x?x?x?xf32>
  %s32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x?x?x?xf16>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %ss = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s32 : tensor<?x?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %scale : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %re = tensor.empty(%b, %h, %l) : tensor<?x?x?xf32>
  %mf = linalg.fill ins(%lowest : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %m = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss : tensor<?x?x?x?xf32>) outs(%mf : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ogt, %in, %out : f32
    %x = arith.select %gt, %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?xf32>
  %e = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %m : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %z = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<?x?x?x?xf32>) outs(%zf : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?xf32>
  %p = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %r = arith.divf %one, %in_1 : f32
    %x = arith.mulf %in, %r : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %e16 = tensor.empty(%b, %h, %l, %n) : tensor<?x?x?x?xf16>
  %p16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<?x?x?x?xf32>) outs(%e16 : tensor<?x?x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %x = arith.truncf %in : f32 to f16
    linalg.yield %x : f16
  } -> tensor<?x?x?x?xf16>
  %p3 = tensor.collapse_shape %p16 [[0, 1], [2], [3]] : tensor<?x?x?x?xf16> into tensor<?x?x?xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %oe = tensor.empty(%bh, %l) : tensor<?x?x64xf16>
  %of = linalg.fill ins(%zero16 : f16) outs(%oe : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%of : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [%b, %h, %l, 64] : tensor<?x?x64xf16> into tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>

// 3-D bf16, keepdim through tensor.expand_shape of the reduced [B, L],
// the scale as a multiply by a filled tensor, 1 / z in a generic of its
// own.
// CHECK-LABEL: func @keepdim_expand_shape
//  CHECK-SAME: (%[[Q:.*]]: tensor<8x16x32xbf16>, %[[K:.*]]: tensor<8x24x32xbf16>, %[[V:.*]]: tensor<8x24x16xbf16>)
//   CHECK-NOT: linalg.
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, features]>
//  CHECK-SAME: scale = 2.500000e-01 : f64
//  CHECK-SAME: -> tensor<8x16x16xbf16>
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @keepdim_expand_shape(%q: tensor<8x16x32xbf16>, %k: tensor<8x24x32xbf16>,
    %v: tensor<8x24x16xbf16>) -> tensor<8x16x16xbf16> {
  %zero = arith.constant 0.000000e+00 : bf16
  %one = arith.constant 1.000000e+00 : bf16
  %quarter = arith.constant 2.500000e-01 : bf16
  %ninf = arith.constant 0xFF80 : bf16
  %kte = tensor.empty() : tensor<8x32x24xbf16>
  %kt = linalg.transpose ins(%k : tensor<8x24x32xbf16>) outs(%kte : tensor<8x32x24xbf16>) permutation = [0, 2, 1]
  %se = tensor.empty() : tensor<8x16x24xbf16>
  %sf = linalg.fill ins(%zero : bf16) outs(%se : tensor<8x16x24xbf16>) -> tensor<8x16x24xbf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x16x32xbf16>, tensor<8x32x24xbf16>)
      outs(%sf : tensor<8x16x24xbf16>) -> tensor<8x16x24xbf16>
  %c = linalg.fill ins(%quarter : bf16) outs(%se : tensor<8x16x24xbf16>) -> tensor<8x16x24xbf16>
  %ss = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %c : tensor<8x16x24xbf16>, tensor<8x16x24xbf16>) outs(%se : tensor<8x16x24xbf16>) {
  ^bb0(%in: bf16, %in_1: bf16, %out: bf16):
    %x = arith.mulf %in, %in_1 : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16x24xbf16>
  %re = tensor.empty() : tensor<8x16xbf16>
  %mf = linalg.fill ins(%ninf : bf16) outs(%re : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  %m = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ss : tensor<8x16x24xbf16>) outs(%mf : tensor<8x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %x = arith.maxnumf %in, %out : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16xbf16>
  %mk = tensor.expand_shape %m [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xbf16> into tensor<8x16x1xbf16>
  %d = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ss, %mk : tensor<8x16x24xbf16>, tensor<8x16x1xbf16>) outs(%se : tensor<8x16x24xbf16>) {
  ^bb0(%in: bf16, %in_1: bf16, %out: bf16):
    %x = arith.subf %in, %in_1 : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16x24xbf16>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%d : tensor<8x16x24xbf16>) outs(%se : tensor<8x16x24xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %x = math.exp %in : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16x24xbf16>
  %zf = linalg.fill ins(%zero : bf16) outs(%re : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  %z = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<8x16x24xbf16>) outs(%zf : tensor<8x16xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %x = arith.addf %in, %out : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16xbf16>
  %zk = tensor.expand_shape %z [[0], [1, 2]] output_shape [8, 16, 1] : tensor<8x16xbf16> into tensor<8x16x1xbf16>
  %ke = tensor.empty() : tensor<8x16x1xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%zk : tensor<8x16x1xbf16>) outs(%ke : tensor<8x16x1xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %x = arith.divf %one, %in : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16x1xbf16>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %r : tensor<8x16x24xbf16>, tensor<8x16x1xbf16>) outs(%se : tensor<8x16x24xbf16>) {
  ^bb0(%in: bf16, %in_1: bf16, %out: bf16):
    %x = arith.mulf %in, %in_1 : bf16
    linalg.yield %x : bf16
  } -> tensor<8x16x24xbf16>
  %oe = tensor.empty() : tensor<8x16x16xbf16>
  %of = linalg.fill ins(%zero : bf16) outs(%oe : tensor<8x16x16xbf16>) -> tensor<8x16x16xbf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x24xbf16>, tensor<8x24x16xbf16>)
      outs(%of : tensor<8x16x16xbf16>) -> tensor<8x16x16xbf16>
  return %o : tensor<8x16x16xbf16>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#q = affine_map<(b, n, t, s, h) -> (b, n, t, h)>
#k = affine_map<(b, n, t, s, h) -> (b, n, s, h)>
#s = affine_map<(b, n, t, s, h) -> (b, n, t, s)>
#p = affine_map<(b, n, t, h, s) -> (b, n, t, s)>
#v = affine_map<(b, n, t, h, s) -> (b, s, n, h)>
#o = affine_map<(b, n, t, h, s) -> (b, n, t, h)>

// StableHLO / JAX after stablehlo-to-linalg: BTNH operands, Q and K
// brought to BNTH by linalg.transpose and by a transposing generic copy,
// dot_general as generic contractions (V read in BTNH by the map), a
// multiply by a splat constant, reductions to [B, N, T] from tensor.extract
// inits, broadcast_in_dim as linalg.broadcast, and the result transposed
// back to BTNH. The rewrite transposes Q, K, V to BNTH and the result back.
// CHECK-LABEL: func @stablehlo_btnh
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x16x4x32xf32>, %[[K:.*]]: tensor<2x24x4x32xf32>, %[[V:.*]]: tensor<2x24x4x32xf32>)
//   CHECK-DAG: %[[QT:.*]] = linalg.transpose ins(%[[Q]] : tensor<2x16x4x32xf32>) outs(%{{.*}} : tensor<2x4x16x32xf32>) permutation = [0, 2, 1, 3]
//   CHECK-DAG: %[[KT:.*]] = linalg.transpose ins(%[[K]] : tensor<2x24x4x32xf32>) outs(%{{.*}} : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
//   CHECK-DAG: %[[VT:.*]] = linalg.transpose ins(%[[V]] : tensor<2x24x4x32xf32>) outs(%{{.*}} : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
//       CHECK: %[[O:.*]] = sage.attention %[[QT]], %[[KT]], %[[VT]]
//  CHECK-SAME: layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: scale = 0.17677669{{[0-9]+}} : f64
//  CHECK-SAME: -> tensor<2x4x16x32xf32>
//       CHECK: %[[R:.*]] = linalg.transpose ins(%[[O]] : tensor<2x4x16x32xf32>) outs(%{{.*}} : tensor<2x16x4x32xf32>) permutation = [0, 2, 1, 3]
//   CHECK-NOT: linalg.generic
//       CHECK: return %[[R]]
func.func @stablehlo_btnh(%q: tensor<2x16x4x32xf32>, %k: tensor<2x24x4x32xf32>,
    %v: tensor<2x24x4x32xf32>) -> tensor<2x16x4x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %max_init = arith.constant dense<0xFF800000> : tensor<f32>
  %sum_init = arith.constant dense<0.000000e+00> : tensor<f32>
  %scale = arith.constant dense<0.176776692> : tensor<2x4x16x24xf32>
  %qte = tensor.empty() : tensor<2x4x16x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x16x4x32xf32>) outs(%qte : tensor<2x4x16x32xf32>) permutation = [0, 2, 1, 3]
  %kte = tensor.empty() : tensor<2x4x24x32xf32>
  %kt = linalg.generic {indexing_maps = [#swap, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x24x4x32xf32>) outs(%kte : tensor<2x4x24x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x24x32xf32>
  %se = tensor.empty() : tensor<2x4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4x16x24xf32>) -> tensor<2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qt, %kt : tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>) outs(%sf : tensor<2x4x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %ss = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %scale : tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%se : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.mulf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %re = tensor.empty() : tensor<2x4x16xf32>
  %ninf = tensor.extract %max_init[] : tensor<f32>
  %mf = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %m = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %mb = linalg.broadcast ins(%m : tensor<2x4x16xf32>) outs(%se : tensor<2x4x16x24xf32>) dimensions = [3]
  %d = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %mb : tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%se : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %e = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d : tensor<2x4x16x24xf32>) outs(%se : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %zi = tensor.extract %sum_init[] : tensor<f32>
  %zf = linalg.fill ins(%zi : f32) outs(%re : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %z = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<2x4x16x24xf32>) outs(%zf : tensor<2x4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16xf32>
  %zb = linalg.broadcast ins(%z : tensor<2x4x16xf32>) outs(%se : tensor<2x4x16x24xf32>) dimensions = [3]
  %p = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %zb : tensor<2x4x16x24xf32>, tensor<2x4x16x24xf32>) outs(%se : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %oe = tensor.empty() : tensor<2x4x16x32xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x4x16x32xf32>) -> tensor<2x4x16x32xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16x24xf32>, tensor<2x24x4x32xf32>) outs(%of : tensor<2x4x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x32xf32>
  %re4 = tensor.empty() : tensor<2x16x4x32xf32>
  %r = linalg.transpose ins(%o : tensor<2x4x16x32xf32>) outs(%re4 : tensor<2x16x4x32xf32>) permutation = [0, 2, 1, 3]
  return %r : tensor<2x16x4x32xf32>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>

// Only the softmax is 4-D: Q, K and V come as [B*H, tokens, features], so
// the batch stays collapsed and the expand_shape of the result stays.
// CHECK-LABEL: func @split_around_softmax_only
//  CHECK-SAME: (%[[Q:.*]]: tensor<8x16x32xf32>, %[[K:.*]]: tensor<8x24x32xf32>, %[[V:.*]]: tensor<8x24x32xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, features]>
//  CHECK-SAME: -> tensor<8x16x32xf32>
//       CHECK: %[[R:.*]] = tensor.expand_shape %[[O]] {{\[\[}}0, 1], [2], [3]]
//   CHECK-NOT: linalg.
//       CHECK: return %[[R]]
func.func @split_around_softmax_only(%q: tensor<8x16x32xf32>, %k: tensor<8x24x32xf32>,
    %v: tensor<8x24x32xf32>) -> tensor<2x4x16x32xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %kte = tensor.empty() : tensor<8x32x24xf32>
  %kt = linalg.transpose ins(%k : tensor<8x24x32xf32>) outs(%kte : tensor<8x32x24xf32>) permutation = [0, 2, 1]
  %se = tensor.empty() : tensor<8x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
  %s3 = linalg.batch_matmul ins(%q, %kt : tensor<8x16x32xf32>, tensor<8x32x24xf32>)
      outs(%sf : tensor<8x16x24xf32>) -> tensor<8x16x24xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 24] : tensor<8x16x24xf32> into tensor<2x4x16x24xf32>
  %e4 = tensor.empty() : tensor<2x4x16x24xf32>
  %me = tensor.empty() : tensor<2x4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x4x16x24xf32>) outs(%mf : tensor<2x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x16x24xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%me : tensor<2x4x16x1xf32>) -> tensor<2x4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#map, #keep], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<2x4x16x24xf32>) outs(%zf : tensor<2x4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#map, #keep, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<2x4x16x24xf32>, tensor<2x4x16x1xf32>) outs(%e4 : tensor<2x4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<2x4x16x24xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x16x24xf32> into tensor<8x16x24xf32>
  %oe = tensor.empty() : tensor<8x16x32xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v : tensor<8x16x24xf32>, tensor<8x24x32xf32>)
      outs(%of : tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 16, 32] : tensor<8x16x32xf32> into tensor<2x4x16x32xf32>
  return %o : tensor<2x4x16x32xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// An additive mask on the scores becomes the mask operand.
// CHECK-LABEL: func @additive_mask
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x24x8xf32>, %[[V:.*]]: tensor<4x24x8xf32>, %[[M:.*]]: tensor<4x16x24xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]] mask(%[[M]])
//   CHECK-NOT: causal
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @additive_mask(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>, %bias: tensor<4x16x24xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<4x16x24xf32>, tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// A materialized causal mask [L, L] broadcast over the batch: Nq = Nk is
// proven by the one SSA size of the mask, so it becomes `causal`.
// CHECK-LABEL: func @causal_mask_equal_lengths
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x?x8xf32>, %[[K:.*]]: tensor<4x?x8xf32>, %[[V:.*]]: tensor<4x?x8xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: causal
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @causal_mask_equal_lengths(%q: tensor<4x?x8xf32>, %k: tensor<4x?x8xf32>,
    %v: tensor<4x?x8xf32>) -> tensor<4x?x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %l = tensor.dim %q, %c1 : tensor<4x?x8xf32>
  %c1n = arith.constant 1 : index
  %n = tensor.dim %k, %c1n : tensor<4x?x8xf32>
  %se = tensor.empty(%l, %n) : tensor<4x?x?xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x?x8xf32>, tensor<4x?x8xf32>)
      outs(%sf : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %cme = tensor.empty(%l, %l) : tensor<?x?xf32>
  %cm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%cme : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %above = arith.cmpi ugt, %j, %i : index
    %x = arith.select %above, %ninf, %zero : f32
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  %sm = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2) -> (d1, d2)>, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %cm : tensor<4x?x?xf32>, tensor<?x?xf32>) outs(%se : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x?x?xf32>
  %me = tensor.empty(%l) : tensor<4x?x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x?x1xf32>) -> tensor<4x?x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x?x?xf32>) outs(%mf : tensor<4x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x?x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x?x?xf32>, tensor<4x?x1xf32>) outs(%se : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x?x?xf32>
  %ze = tensor.empty(%l) : tensor<4x?x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x?x1xf32>) -> tensor<4x?x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x?x?xf32>) outs(%zf : tensor<4x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x?x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x?x?xf32>, tensor<4x?x1xf32>) outs(%se : tensor<4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x?x?xf32>
  %oe = tensor.empty(%l) : tensor<4x?x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x8xf32>)
      outs(%of : tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
  return %o : tensor<4x?x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The causal pattern with Nq != Nk: torch aligns it top-left, so it
// becomes `causal` aligned top-left.
// CHECK-LABEL: func @causal_pattern_unequal_lengths
//   CHECK-NOT: linalg.generic
//       CHECK: sage.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
func.func @causal_pattern_unequal_lengths(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %cme = tensor.empty() : tensor<4x16x24xf32>
  %cm = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%cme : tensor<4x16x24xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %x = arith.select %above, %ninf, %zero : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %cm : tensor<4x16x24xf32>, tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// sqrt(scale) applied to Q and to K before Q*K^T (PyTorch's math SDPA):
// the scale is their product.
// CHECK-LABEL: func @scaled_q_and_k
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x24x8xf32>, %[[V:.*]]: tensor<4x24x8xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: scale = 0.12499{{[0-9]+}} : f64
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @scaled_q_and_k(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %qse = tensor.empty() : tensor<4x16x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<4x16x8xf32>) outs(%qse : tensor<4x16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 0.353553385 : f32
    %x = arith.mulf %in, %c : f32
    linalg.yield %x : f32
  } -> tensor<4x16x8xf32>
  %kse = tensor.empty() : tensor<4x24x8xf32>
  %ks = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k : tensor<4x24x8xf32>) outs(%kse : tensor<4x24x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 0.353553385 : f32
    %x = arith.mulf %in, %c : f32
    linalg.yield %x : f32
  } -> tensor<4x24x8xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%qs, %ks : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The max as torch's max.dim, with an indices result nobody reads, and a
// tensor.cast on the scores.
// CHECK-LABEL: func @max_dim_with_indices
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x24x8xf32>, %[[V:.*]]: tensor<4x24x8xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @max_dim_with_indices(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %sc = tensor.cast %s : tensor<4x16x24xf32> to tensor<4x?x24xf32>
  %sm = tensor.cast %sc : tensor<4x?x24xf32> to tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %c0i = arith.constant 0 : i64
  %ie = tensor.empty() : tensor<4x16x1xi64>
  %if = linalg.fill ins(%c0i : i64) outs(%ie : tensor<4x16x1xi64>) -> tensor<4x16x1xi64>
  %m, %mi = linalg.generic {indexing_maps = [#id, #keep, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%mf, %if : tensor<4x16x1xf32>, tensor<4x16x1xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %i = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %x = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %y = arith.select %gt, %ii, %out_1 : i64
    linalg.yield %x, %y : f32, i64
  } -> (tensor<4x16x1xf32>, tensor<4x16x1xi64>)
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The reductions as linalg.reduce (stablehlo-to-linalg with primitive ops).
// CHECK-LABEL: func @linalg_reduce
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x24x8xf32>, %[[V:.*]]: tensor<4x24x8xf32>)
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
func.func @linalg_reduce(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %mre = tensor.empty() : tensor<4x16xf32>
  %mrf = linalg.fill ins(%ninf : f32) outs(%mre : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mr = linalg.reduce ins(%s : tensor<4x16x24xf32>) outs(%mrf : tensor<4x16xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.maximumf %in, %init : f32
      linalg.yield %x : f32
    }
  %m = tensor.expand_shape %mr [[0], [1, 2]] output_shape [4, 16, 1] : tensor<4x16xf32> into tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %zre = tensor.empty() : tensor<4x16xf32>
  %zrf = linalg.fill ins(%zero : f32) outs(%zre : tensor<4x16xf32>) -> tensor<4x16xf32>
  %zr = linalg.reduce ins(%e : tensor<4x16x24xf32>) outs(%zrf : tensor<4x16xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.addf %in, %init : f32
      linalg.yield %x : f32
    }
  %z = tensor.expand_shape %zr [[0], [1, 2]] output_shape [4, 16, 1] : tensor<4x16xf32> into tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

// The same with a mask added per batch and head on the split scores: the
// mask's B and H could differ from the operands' at run time.
func.func @negative_mask_on_unproven_split(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
    %v: tensor<?x?x?x64xf16>, %mask: tensor<?x?x?x?xf32>) -> tensor<?x?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero16 = arith.constant 0.000000e+00 : f16
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %b = tensor.dim %q, %c0 : tensor<?x?x?x64xf16>
  %h = tensor.dim %q, %c1 : tensor<?x?x?x64xf16>
  %l = tensor.dim %q, %c2 : tensor<?x?x?x64xf16>
  %n = tensor.dim %k, %c2 : tensor<?x?x?x64xf16>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %bh = tensor.dim %q3, %c0 : tensor<?x?x64xf16>
  %kte = tensor.empty(%bh, %n) : tensor<?x64x?xf16>
  %kt3 = linalg.transpose ins(%k3 : tensor<?x?x64xf16>) outs(%kte : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %se = tensor.empty(%bh, %l, %n) : tensor<?x?x?xf16>
  %sf = linalg.fill ins(%zero16 : f16) outs(%se : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s3 = linalg.batch_matmul ins(%q3, %kt3 : tensor<?x?x64xf16>, tensor<?x64x?xf16>)
      outs(%sf : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [%b, %h, %l, %n] : tensor<?x?x?xf16> into tensor<?x?x?x?xf16>
  %e32 = tensor.empty(%b, %h, %l, %n) : tensor<?x?x?x?xf32>
  %s32 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<?x?x?x?xf16>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %x = arith.extf %in : f16 to f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %ss = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s32 : tensor<?x?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %scale : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %sm = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss, %mask : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %re = tensor.empty(%b, %h, %l) : tensor<?x?x?xf32>
  %mf = linalg.fill ins(%lowest : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %m = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<?x?x?x?xf32>) outs(%mf : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ogt, %in, %out : f32
    %x = arith.select %gt, %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?xf32>
  %e = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %z = linalg.generic {indexing_maps = [#map, #rows], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%e : tensor<?x?x?x?xf32>) outs(%zf : tensor<?x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %out, %in : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?xf32>
  %p = linalg.generic {indexing_maps = [#map, #rows, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%e32 : tensor<?x?x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %r = arith.divf %one, %in_1 : f32
    %x = arith.mulf %in, %r : f32
    linalg.yield %x : f32
  } -> tensor<?x?x?x?xf32>
  %e16 = tensor.empty(%b, %h, %l, %n) : tensor<?x?x?x?xf16>
  %p16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<?x?x?x?xf32>) outs(%e16 : tensor<?x?x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %x = arith.truncf %in : f32 to f16
    linalg.yield %x : f16
  } -> tensor<?x?x?x?xf16>
  %p3 = tensor.collapse_shape %p16 [[0, 1], [2], [3]] : tensor<?x?x?x?xf16> into tensor<?x?x?xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<?x?x?x64xf16> into tensor<?x?x64xf16>
  %oe = tensor.empty(%bh, %l) : tensor<?x?x64xf16>
  %of = linalg.fill ins(%zero16 : f16) outs(%oe : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  // expected-remark@+1 {{not raised to sage.attention: the mask is read on scores whose batch dim is split by two dynamic sizes, which nothing proves to be the split of Q, K and V}}
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<?x?x?xf16>, tensor<?x?x64xf16>)
      outs(%of : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [%b, %h, %l, 64] : tensor<?x?x64xf16> into tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// The softmax spelled out on whole tensors (arith / math ops on tensors,
// the row max and sum broadcast back by linalg.broadcast), as the steps of
// their linalg.generic spellings: f16 operands multiplied into f32 scores,
// the scale and an additive mask on whole tensors, P truncated to f16 and
// P*V accumulated into an f32 result, whose type is kept.
// CHECK-LABEL: func @whole_tensor_softmax
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x16x64xf16>, %[[K:.*]]: tensor<2x24x64xf16>, %[[V:.*]]: tensor<2x24x64xf16>, %[[M:.*]]: tensor<2x16x24xf32>)
//   CHECK-NOT: linalg.
//   CHECK-NOT: math.exp
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]] mask(%[[M]])
//  CHECK-SAME: scale = 1.250000e-01 : f64
//  CHECK-SAME: -> tensor<2x16x64xf32>
//   CHECK-NOT: linalg.
//       CHECK: return %[[O]]
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>
func.func @whole_tensor_softmax(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>, %mask: tensor<2x16x24xf32>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.125> : tensor<2x16x24xf32>
  %se = tensor.empty() : tensor<2x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s0 = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap] ins(%q, %k : tensor<2x16x64xf16>, tensor<2x24x64xf16>) outs(%si : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s1 = arith.mulf %s0, %scale : tensor<2x16x24xf32>
  %s = arith.addf %s1, %mask : tensor<2x16x24xf32>
  %me = tensor.empty() : tensor<2x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %m = linalg.reduce ins(%s : tensor<2x16x24xf32>) outs(%mi : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %d = arith.subf %s, %mb : tensor<2x16x24xf32>
  %e = math.exp %d : tensor<2x16x24xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %z = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x16x24xf32>) outs(%zi : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x16xf32>
  %zb = linalg.broadcast ins(%z : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %p32 = arith.divf %e, %zb : tensor<2x16x24xf32>
  %p = arith.truncf %p32 : tensor<2x16x24xf32> to tensor<2x16x24xf16>
  %oe = tensor.empty() : tensor<2x16x64xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf16>, tensor<2x24x64xf16>) outs(%oi : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %o : tensor<2x16x64xf32>
}

// -----

// A widened f16 mask added on the left of the scores on whole tensors: the
// operand that is a function argument through casts is the mask.
// CHECK-LABEL: func @whole_tensor_mask_first
//  CHECK-SAME: %[[M:[^:]*]]: tensor<2x16x24xf16>)
//       CHECK: sage.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[M]])
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>
func.func @whole_tensor_mask_first(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>, %mask: tensor<2x16x24xf16>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.125> : tensor<2x16x24xf32>
  %se = tensor.empty() : tensor<2x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s0 = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap] ins(%q, %k : tensor<2x16x64xf16>, tensor<2x24x64xf16>) outs(%si : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s1 = arith.mulf %s0, %scale : tensor<2x16x24xf32>
  %mw = arith.extf %mask : tensor<2x16x24xf16> to tensor<2x16x24xf32>
  %s = arith.addf %mw, %s1 : tensor<2x16x24xf32>
  %me = tensor.empty() : tensor<2x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %m = linalg.reduce ins(%s : tensor<2x16x24xf32>) outs(%mi : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %d = arith.subf %s, %mb : tensor<2x16x24xf32>
  %e = math.exp %d : tensor<2x16x24xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %z = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x16x24xf32>) outs(%zi : tensor<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x16xf32>
  %zb = linalg.broadcast ins(%z : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %p32 = arith.divf %e, %zb : tensor<2x16x24xf32>
  %p = arith.truncf %p32 : tensor<2x16x24xf32> to tensor<2x16x24xf16>
  %oe = tensor.empty() : tensor<2x16x64xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf16>, tensor<2x24x64xf16>) outs(%oi : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %o : tensor<2x16x64xf32>
}

// -----

// The same with P = e * (1 / z), the reciprocal and an i1 keep-mask
// (select from -inf) on whole tensors.
// CHECK-LABEL: func @whole_tensor_reciprocal_select
//  CHECK-SAME: %[[KEEP:[^:]*]]: tensor<2x16x24xi1>
//       CHECK: sage.attention
//  CHECK-SAME: mask(%[[KEEP]])
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>
func.func @whole_tensor_reciprocal_select(%q: tensor<2x16x64xf32>, %k: tensor<2x24x64xf32>, %v: tensor<2x24x64xf32>, %keep: tensor<2x16x24xi1>) -> tensor<2x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %hidden = arith.constant dense<0xFF800000> : tensor<2x16x24xf32>
  %ones = arith.constant dense<1.0> : tensor<2x16x24xf32>
  %se = tensor.empty() : tensor<2x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s0 = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap] ins(%q, %k : tensor<2x16x64xf32>, tensor<2x24x64xf32>) outs(%si : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %s = arith.select %keep, %s0, %hidden : tensor<2x16x24xi1>, tensor<2x16x24xf32>
  %me = tensor.empty() : tensor<2x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %m = linalg.reduce ins(%s : tensor<2x16x24xf32>) outs(%mi : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %d = arith.subf %s, %mb : tensor<2x16x24xf32>
  %e = math.exp %d : tensor<2x16x24xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x16xf32>) -> tensor<2x16xf32>
  %z = linalg.reduce ins(%e : tensor<2x16x24xf32>) outs(%zi : tensor<2x16xf32>) dimensions = [2]
    (%in: f32, %out: f32) {
      %x = arith.addf %in, %out : f32
      linalg.yield %x : f32
    }
  %zb = linalg.broadcast ins(%z : tensor<2x16xf32>) outs(%se : tensor<2x16x24xf32>) dimensions = [2]
  %r = arith.divf %ones, %zb : tensor<2x16x24xf32>
  %p = arith.mulf %e, %r : tensor<2x16x24xf32>
  %oe = tensor.empty() : tensor<2x16x64xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf32>, tensor<2x24x64xf32>) outs(%oi : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  return %o : tensor<2x16x64xf32>
}

// -----

// GQA as JAX spells it, in linalg: Q's 8 heads expanded to [2 K/V heads,
// group of 4] (kv-major), the group a second free dim of Q*K^T and P*V,
// the output collapsed back. Query head h reads K/V head h / 4, as
// sage.attention's GQA does.
// CHECK-LABEL: func @gqa_query_group
//  CHECK-SAME: (%[[Q:[^:]*]]: tensor<2x16x8x16xf32>, %[[K:[^:]*]]: tensor<2x24x2x16xf32>, %[[V:[^:]*]]: tensor<2x24x2x16xf32>)
//       CHECK: sage.attention %{{.*}}, %{{.*}}, %{{.*}} {layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: (tensor<2x8x16x16xf32>, tensor<2x2x24x16xf32>, tensor<2x2x24x16xf32>) -> tensor<2x8x16x16xf32>
//   CHECK-NOT: linalg.generic
//   CHECK-NOT: linalg.reduce
//       CHECK: return
func.func @gqa_query_group(%q: tensor<2x16x8x16xf32>, %k: tensor<2x24x2x16xf32>, %v: tensor<2x24x2x16xf32>) -> tensor<2x16x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q5 = tensor.expand_shape %q [[0], [1], [2, 3], [4]] output_shape [2, 16, 2, 4, 16] : tensor<2x16x8x16xf32> into tensor<2x16x2x4x16xf32>
  %se = tensor.empty() : tensor<2x2x4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, k, g, t, s, f) -> (b, t, k, g, f)>, affine_map<(b, k, g, t, s, f) -> (b, s, k, f)>, affine_map<(b, k, g, t, s, f) -> (b, k, g, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x16x2x4x16xf32>, tensor<2x24x2x16xf32>) outs(%si : tensor<2x2x4x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x16x24xf32>
  %me = tensor.empty() : tensor<2x2x4x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x4x16xf32>) -> tensor<2x2x4x16xf32>
  %m = linalg.reduce ins(%s : tensor<2x2x4x16x24xf32>) outs(%mi : tensor<2x2x4x16xf32>) dimensions = [4]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x2x4x16xf32>) outs(%se : tensor<2x2x4x16x24xf32>) dimensions = [4]
  %d = arith.subf %s, %mb : tensor<2x2x4x16x24xf32>
  %e = math.exp %d : tensor<2x2x4x16x24xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x4x16xf32>) -> tensor<2x2x4x16xf32>
  %z = linalg.reduce ins(%e : tensor<2x2x4x16x24xf32>) outs(%zi : tensor<2x2x4x16xf32>) dimensions = [4]
    (%in: f32, %out: f32) {
      %x = arith.addf %in, %out : f32
      linalg.yield %x : f32
    }
  %zb = linalg.broadcast ins(%z : tensor<2x2x4x16xf32>) outs(%se : tensor<2x2x4x16x24xf32>) dimensions = [4]
  %p = arith.divf %e, %zb : tensor<2x2x4x16x24xf32>
  %oe = tensor.empty() : tensor<2x16x2x4x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x2x4x16xf32>) -> tensor<2x16x2x4x16xf32>
  %o5 = linalg.generic {indexing_maps = [affine_map<(b, k, g, t, s, e) -> (b, k, g, t, s)>, affine_map<(b, k, g, t, s, e) -> (b, s, k, e)>, affine_map<(b, k, g, t, s, e) -> (b, t, k, g, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<2x2x4x16x24xf32>, tensor<2x24x2x16xf32>) outs(%oi : tensor<2x16x2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x16x2x4x16xf32>
  %o = tensor.collapse_shape %o5 [[0], [1], [2, 3], [4]] : tensor<2x16x2x4x16xf32> into tensor<2x16x8x16xf32>
  return %o : tensor<2x16x8x16xf32>
}

// -----

// The group split first ([group, K/V heads]): query head h would read K/V
// head h % 2, which sage's GQA does not compute.
func.func @negative_gqa_group_major(%q: tensor<2x16x8x16xf32>, %k: tensor<2x24x2x16xf32>, %v: tensor<2x24x2x16xf32>) -> tensor<2x16x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %q5 = tensor.expand_shape %q [[0], [1], [2, 3], [4]] output_shape [2, 16, 4, 2, 16] : tensor<2x16x8x16xf32> into tensor<2x16x4x2x16xf32>
  %se = tensor.empty() : tensor<2x2x4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x4x16x24xf32>) -> tensor<2x2x4x16x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, k, g, t, s, f) -> (b, t, g, k, f)>, affine_map<(b, k, g, t, s, f) -> (b, s, k, f)>, affine_map<(b, k, g, t, s, f) -> (b, k, g, t, s)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x16x4x2x16xf32>, tensor<2x24x2x16xf32>) outs(%si : tensor<2x2x4x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x4x16x24xf32>
  %me = tensor.empty() : tensor<2x2x4x16xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x4x16xf32>) -> tensor<2x2x4x16xf32>
  %m = linalg.reduce ins(%s : tensor<2x2x4x16x24xf32>) outs(%mi : tensor<2x2x4x16xf32>) dimensions = [4]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x2x4x16xf32>) outs(%se : tensor<2x2x4x16x24xf32>) dimensions = [4]
  %d = arith.subf %s, %mb : tensor<2x2x4x16x24xf32>
  %e = math.exp %d : tensor<2x2x4x16x24xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x4x16xf32>) -> tensor<2x2x4x16xf32>
  %z = linalg.reduce ins(%e : tensor<2x2x4x16x24xf32>) outs(%zi : tensor<2x2x4x16xf32>) dimensions = [4]
    (%in: f32, %out: f32) {
      %x = arith.addf %in, %out : f32
      linalg.yield %x : f32
    }
  %zb = linalg.broadcast ins(%z : tensor<2x2x4x16xf32>) outs(%se : tensor<2x2x4x16x24xf32>) dimensions = [4]
  %p = arith.divf %e, %zb : tensor<2x2x4x16x24xf32>
  %oe = tensor.empty() : tensor<2x16x4x2x16xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x16x4x2x16xf32>) -> tensor<2x16x4x2x16xf32>
  // expected-remark@+1 {{not raised to sage.attention: Q*K^T has two query-side free dims, but Q is not a reshape of heads into [K/V heads, group] (GQA as JAX spells it)}}
  %o5 = linalg.generic {indexing_maps = [affine_map<(b, k, g, t, s, e) -> (b, k, g, t, s)>, affine_map<(b, k, g, t, s, e) -> (b, s, k, e)>, affine_map<(b, k, g, t, s, e) -> (b, t, g, k, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<2x2x4x16x24xf32>, tensor<2x24x2x16xf32>) outs(%oi : tensor<2x16x4x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x16x4x2x16xf32>
  %o = tensor.collapse_shape %o5 [[0], [1], [2, 3], [4]] : tensor<2x16x4x2x16xf32> into tensor<2x16x8x16xf32>
  return %o : tensor<2x16x8x16xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The same as a broadcast [Nq, Nk] mask: causal aligned top-left.
// CHECK-LABEL: func @broadcast_causal_unequal_lengths
//       CHECK: sage.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
func.func @broadcast_causal_unequal_lengths(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %cme = tensor.empty() : tensor<16x24xf32>
  %cm = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%cme : tensor<16x24xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %above = arith.cmpi ugt, %j, %i : index
    %x = arith.select %above, %ninf, %zero : f32
    linalg.yield %x : f32
  } -> tensor<16x24xf32>
  %sm = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1, d2) -> (d1, d2)>, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %cm : tensor<4x16x24xf32>, tensor<16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// softmax(c * (S + M)) is not softmax(c * S + M) for a general mask.
// CHECK-LABEL: func @negative_scale_after_mask
//   CHECK-NOT: sage.attention
func.func @negative_scale_after_mask(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>, %bias: tensor<4x16x24xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<4x16x24xf32>, tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 5.000000e-01 : f32
    %x = arith.mulf %in, %c : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the scores are scaled after the mask is added}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// max, exp and sum over the queries: not the axis P*V contracts.
// CHECK-LABEL: func @negative_softmax_over_queries
//   CHECK-NOT: sage.attention
func.func @negative_softmax_over_queries(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x1x24xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
  %m = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x1x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x1x24xf32>
  %e = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x1x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x1x24xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
  %z = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x1x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x1x24xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x1x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: softmax runs over dimension 1, not the key dimension 2}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The probabilities are returned too: raising would change them.
// CHECK-LABEL: func @negative_probabilities_returned
//   CHECK-NOT: sage.attention
func.func @negative_probabilities_returned(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x24xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the probabilities have users besides the P*V contraction}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o, %p : tensor<4x16x8xf32>, tensor<4x16x24xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// exp(s - max) is returned too.
// CHECK-LABEL: func @negative_exp_used_elsewhere
//   CHECK-NOT: sage.attention
func.func @negative_exp_used_elsewhere(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x24xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the exponentials have users besides the sum and the normalization}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o, %e : tensor<4x16x8xf32>, tensor<4x16x24xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The scores are returned too.
// CHECK-LABEL: func @negative_scores_used_elsewhere
//   CHECK-NOT: sage.attention
func.func @negative_scores_used_elsewhere(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x24xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the scores have users besides the max and the subtraction}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o, %s : tensor<4x16x8xf32>, tensor<4x16x24xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// P multiplied by a tensor that is not constant (dropout) before P*V.
// CHECK-LABEL: func @negative_dropout
//   CHECK-NOT: sage.attention
func.func @negative_dropout(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>, %keep_mask: tensor<4x16x24xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %pd = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %keep_mask : tensor<4x16x24xf32>, tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.mulf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the probabilities pass through linalg.generic between the softmax and P*V, not only casts and reshapes}}
  %o = linalg.batch_matmul ins(%pd, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// The max runs over the keys, the sum over the queries.
// CHECK-LABEL: func @negative_reduction_mismatch
//   CHECK-NOT: sage.attention
func.func @negative_reduction_mismatch(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x1x24xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
  %z = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x1x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x1x24xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x1x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the max reduces dimension 2, but the sum reduces dimension 1}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----


#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#col = affine_map<(d0, d1, d2) -> (d0, 0, d2)>

// A mask broadcast over the queries: sage's mask operand broadcasts batch
// dimensions only.
// CHECK-LABEL: func @negative_mask_broadcast_over_queries
//   CHECK-NOT: sage.attention
func.func @negative_mask_broadcast_over_queries(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>,
    %v: tensor<4x24x8xf32>, %bias: tensor<4x1x24xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%sf : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %sm = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<4x16x24xf32>, tensor<4x1x24xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.addf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %me = tensor.empty() : tensor<4x16x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sm : tensor<4x16x24xf32>) outs(%mf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.maximumf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sm, %m : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.subf %in, %in_1 : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %ze = tensor.empty() : tensor<4x16x1xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%ze : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %z = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%e : tensor<4x16x24xf32>) outs(%zf : tensor<4x16x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %z : tensor<4x16x24xf32>, tensor<4x16x1xf32>) outs(%se : tensor<4x16x24xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %x = arith.divf %in, %in_1 : f32
    linalg.yield %x : f32
  } -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the mask is not shaped like the scores (only batch dimensions may broadcast)}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%of : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
