// A rank-4 attention in [batch, tokens, heads, features] memory (the
// layout sage_attention/library.py writes), for abi.test.
func.func @bnhd(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %qb = tensor.dim %q, %c0 : tensor<?x?x?x64xf16>
  %qn = tensor.dim %q, %c1 : tensor<?x?x?x64xf16>
  %qh = tensor.dim %q, %c2 : tensor<?x?x?x64xf16>
  %qe = tensor.empty(%qb, %qh, %qn) : tensor<?x?x?x64xf16>
  %qt = linalg.transpose ins(%q : tensor<?x?x?x64xf16>) outs(%qe : tensor<?x?x?x64xf16>) permutation = [0, 2, 1, 3]
  %kb = tensor.dim %k, %c0 : tensor<?x?x?x64xf16>
  %kn = tensor.dim %k, %c1 : tensor<?x?x?x64xf16>
  %kh = tensor.dim %k, %c2 : tensor<?x?x?x64xf16>
  %ke = tensor.empty(%kb, %kh, %kn) : tensor<?x?x?x64xf16>
  %kt = linalg.transpose ins(%k : tensor<?x?x?x64xf16>) outs(%ke : tensor<?x?x?x64xf16>) permutation = [0, 2, 1, 3]
  %vb = tensor.dim %v, %c0 : tensor<?x?x?x64xf16>
  %vn = tensor.dim %v, %c1 : tensor<?x?x?x64xf16>
  %vh = tensor.dim %v, %c2 : tensor<?x?x?x64xf16>
  %ve = tensor.empty(%vb, %vh, %vn) : tensor<?x?x?x64xf16>
  %vt = linalg.transpose ins(%v : tensor<?x?x?x64xf16>) outs(%ve : tensor<?x?x?x64xf16>) permutation = [0, 2, 1, 3]
  %o = sage.attention %qt, %kt, %vt {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  %oe = tensor.empty(%qb, %qn, %qh) : tensor<?x?x?x64xf16>
  %ot = linalg.transpose ins(%o : tensor<?x?x?x64xf16>) outs(%oe : tensor<?x?x?x64xf16>) permutation = [0, 2, 1, 3]
  return %ot : tensor<?x?x?x64xf16>
}

