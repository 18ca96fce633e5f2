// RUN: sage-opt %s --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics

// The refusals of the linalg.softmax form that raise-attention.mlir leaves
// out, one case per diagnostic (scripts/check-diagnostics.py).

#p4 = affine_map<(b, h, m, n, k) -> (b, h, m, k)>
#v4 = affine_map<(b, h, m, n, k) -> (b, h, k, n)>
#o4 = affine_map<(b, h, m, n, k) -> (b, h, m, n)>

// Two batch dimensions: the linalg form is [batch, tokens, features].
func.func @negative_pv_two_batch_dims(%s: tensor<2x2x16x24xf32>, %v: tensor<2x2x24x8xf32>) -> tensor<2x2x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<2x2x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x2x16x24xf32>) outs(%se : tensor<2x2x16x24xf32>) -> tensor<2x2x16x24xf32>
  %oe = tensor.empty() : tensor<2x2x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: P*V is not a (batched) matrix product}}
  %o = linalg.generic {indexing_maps = [#p4, #v4, #o4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x16x24xf32>, tensor<2x2x24x8xf32>) outs(%oi : tensor<2x2x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x16x8xf32>
  return %o : tensor<2x2x16x8xf32>
}

// -----

#pmap = affine_map<(b, m, n, k) -> (b, m, k)>
#vmap = affine_map<(b, m, n, k) -> (b, n, k)>
#omap = affine_map<(b, m, n, k) -> (b, m, n)>

// V stored [batch, features, tokens].
func.func @negative_pv_value_transposed(%s: tensor<4x16x24xf32>, %v: tensor<4x8x24xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: P*V is not laid out [batch, tokens, features]}}
  %o = linalg.batch_matmul indexing_maps = [#pmap, #vmap, #omap]
      ins(%p, %v : tensor<4x16x24xf32>, tensor<4x8x24xf32>)
      outs(%oi : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// A softmax of scores that come from the caller.
func.func @negative_scores_argument(%s: tensor<4x16x24xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: the softmax input is not a scaled Q*K^T contraction}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%oi : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// One K for every batch: Q*K^T has two row dimensions and no batch.
func.func @negative_qk_shared_key(%q: tensor<4x16x8xf32>, %k: tensor<24x8xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.generic {indexing_maps = [#qmap, #kmap, #smap], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x16x8xf32>, tensor<24x8xf32>) outs(%si : tensor<4x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: Q*K^T is not a matrix product batched like P*V}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%oi : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, k, m)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// Q stored [batch, features, tokens].
func.func @negative_qk_query_transposed(%q: tensor<4x8x16xf32>, %k: tensor<4x24x8xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x8x16xf32>, tensor<4x24x8xf32>)
      outs(%si : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: Q*K^T is not laid out [batch, tokens, features]}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%oi : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// K enters already [batch, features, tokens], neither transposed by the
// maps nor by a linalg.transpose: where K came from is unknown.
func.func @negative_key_not_transposed(%q: tensor<4x16x8xf32>, %kt: tensor<4x8x24xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %se = tensor.empty() : tensor<4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x24xf32>)
      outs(%si : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf32>
  %oi = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark@+1 {{not raised to sage.attention: K is not transposed into Q*K^T}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%oi : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

#qmap = affine_map<(b, m, n, k) -> (b, m, k)>
#kmap = affine_map<(b, m, n, k) -> (b, n, k)>
#smap = affine_map<(b, m, n, k) -> (b, m, n)>

// An f64 output: sage.attention returns f16, bf16 or f32.
func.func @negative_f64_output(%q: tensor<4x16x8xf32>, %k: tensor<4x24x8xf32>, %v: tensor<4x24x8xf32>) -> tensor<4x16x8xf64> {
  %zero = arith.constant 0.0 : f32
  %zero64 = arith.constant 0.0 : f64
  %se = tensor.empty() : tensor<4x16x24xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %s = linalg.batch_matmul indexing_maps = [#qmap, #kmap, #smap]
      ins(%q, %k : tensor<4x16x8xf32>, tensor<4x24x8xf32>)
      outs(%si : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x16x24xf32>) outs(%se : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  %oe = tensor.empty() : tensor<4x16x8xf64>
  %oi = linalg.fill ins(%zero64 : f64) outs(%oe : tensor<4x16x8xf64>) -> tensor<4x16x8xf64>
  // expected-remark@+1 {{not raised to sage.attention: the output must be f16, bf16 or f32}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x24xf32>, tensor<4x24x8xf32>)
      outs(%oi : tensor<4x16x8xf64>) -> tensor<4x16x8xf64>
  return %o : tensor<4x16x8xf64>
}
