func.func @f(%q: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.transpose ins(%q : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1,0]
  return %r : tensor<3x2xf32>
}
