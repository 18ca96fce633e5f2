// The softmax spelled out on whole tensors (arith / math ops on tensors,
// linalg.broadcast of the row max and sum), f16 operands multiplied into
// f32 scores, the scale and an additive mask on whole tensors, an f32
// result (from test/Transforms/raise-attention-decomposed.mlir, at
// 2 x 1024 x 128).
#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>
#id3 = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>

func.func @linalg_whole_tensor(%q: tensor<2x1024x128xf16>, %k: tensor<2x1024x128xf16>, %v: tensor<2x1024x128xf16>, %mask: tensor<2x1024x1024xf32>) -> tensor<2x1024x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant dense<0.0883883461> : tensor<2x1024x1024xf32>
  %se = tensor.empty() : tensor<2x1024x1024xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %s0 = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap] ins(%q, %k : tensor<2x1024x128xf16>, tensor<2x1024x128xf16>) outs(%si : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %s1 = arith.mulf %s0, %scale : tensor<2x1024x1024xf32>
  %s = arith.addf %s1, %mask : tensor<2x1024x1024xf32>
  %me = tensor.empty() : tensor<2x1024xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x1024xf32>) -> tensor<2x1024xf32>
  %m = linalg.reduce ins(%s : tensor<2x1024x1024xf32>) outs(%mi : tensor<2x1024xf32>) dimensions = [2]
    (%in: f32, %out: f32) {
      %x = arith.maximumf %in, %out : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<2x1024xf32>) outs(%se : tensor<2x1024x1024xf32>) dimensions = [2]
  %d = arith.subf %s, %mb : tensor<2x1024x1024xf32>
  %e = math.exp %d : tensor<2x1024x1024xf32>
  %zi = linalg.fill ins(%zero : f32) outs(%me : tensor<2x1024xf32>) -> tensor<2x1024xf32>
  %z = linalg.generic {indexing_maps = [#id3, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<2x1024x1024xf32>) outs(%zi : tensor<2x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<2x1024xf32>
  %zb = linalg.broadcast ins(%z : tensor<2x1024xf32>) outs(%se : tensor<2x1024x1024xf32>) dimensions = [2]
  %p32 = arith.divf %e, %zb : tensor<2x1024x1024xf32>
  %p = arith.truncf %p32 : tensor<2x1024x1024xf32> to tensor<2x1024x1024xf16>
  %oe = tensor.empty() : tensor<2x1024x128xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x1024x128xf32>) -> tensor<2x1024x128xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x1024x1024xf16>, tensor<2x1024x128xf16>) outs(%oi : tensor<2x1024x128xf32>) -> tensor<2x1024x128xf32>
  return %o : tensor<2x1024x128xf32>
}
