// RUN: sage-opt %s --sage-decompose-attention -split-input-file -verify-diagnostics

// The blockers of --sage-decompose-attention that decompose-attention.mlir
// leaves out, one case per diagnostic (scripts/check-diagnostics.py).

func.func @negative_lse(%q: tensor<1x1x16x64xf16>) -> tensor<1x1x16xf32> {
  // expected-error@+1 {{'sage.attention' op cannot be decomposed: the LSE result is not decomposed yet}}
  %o, %lse = sage.attention %q, %q, %q {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x1x16x64xf16>, tensor<1x1x16x64xf16>, tensor<1x1x16x64xf16>) -> (tensor<1x1x16x64xf16>, tensor<1x1x16xf32>)
  return %lse : tensor<1x1x16xf32>
}
