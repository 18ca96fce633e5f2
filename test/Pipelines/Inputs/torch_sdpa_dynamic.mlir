// torch-mlir's decomposition of aten.scaled_dot_product_attention with
// batch, heads and both lengths dynamic (only D = 64 static): nothing
// proves how the scores split B*H, so sage raises the attention on the
// collapsed [B*H, L, 64] operands (a rank-3 plan) and leaves the reshapes
// (from test/Transforms/raise-attention-decomposed.mlir).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>

func.func @torch_sdpa_dynamic(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
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
