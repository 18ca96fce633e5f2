// The kernels the GPU tests and benchmarks run: one function per
// (head dim, input type, causal) with dynamic batch, heads and tokens.
// Compiled by the `sage-kernels` build target into build/kernels/.

func.func @attention_d64_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

func.func @attention_d64_f16_causal(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

func.func @attention_d64_bf16(%q: tensor<?x?x?x64xbf16>, %k: tensor<?x?x?x64xbf16>, %v: tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16>
  return %o : tensor<?x?x?x64xbf16>
}

func.func @attention_d64_bf16_causal(%q: tensor<?x?x?x64xbf16>, %k: tensor<?x?x?x64xbf16>, %v: tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16>
  return %o : tensor<?x?x?x64xbf16>
}

func.func @attention_d96_f16(%q: tensor<?x?x?x96xf16>, %k: tensor<?x?x?x96xf16>, %v: tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16>
  return %o : tensor<?x?x?x96xf16>
}

func.func @attention_d96_f16_causal(%q: tensor<?x?x?x96xf16>, %k: tensor<?x?x?x96xf16>, %v: tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16>
  return %o : tensor<?x?x?x96xf16>
}

func.func @attention_d128_f16(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @attention_d128_f16_causal(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @attention_d128_bf16(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>, %v: tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16>
  return %o : tensor<?x?x?x128xbf16>
}

func.func @attention_d128_bf16_causal(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>, %v: tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16>
  return %o : tensor<?x?x?x128xbf16>
}
