// A StableHLO-style chain after stablehlo-to-linalg: dot_general as
// linalg.generic contractions on BTNH tensors, transposes to BNTH, the
// spelled-out softmax (from test/Transforms/raise-attention-decomposed.mlir).
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
#rows = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#q = affine_map<(b, n, t, s, h) -> (b, n, t, h)>
#k = affine_map<(b, n, t, s, h) -> (b, n, s, h)>
#s = affine_map<(b, n, t, s, h) -> (b, n, t, s)>
#p = affine_map<(b, n, t, h, s) -> (b, n, t, s)>
#v = affine_map<(b, n, t, h, s) -> (b, s, n, h)>
#o = affine_map<(b, n, t, h, s) -> (b, n, t, h)>

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
