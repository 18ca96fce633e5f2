// The int8-fp8 attention at tile sizes other than the default 64 x 64: the
// sage-kernels target compiles this file once per (block-q, block-k) of
// --sage-to-ptx (benchmarks/CMakeLists.txt) and names each plan with its
// tiles, e.g. tiles_d128_f16_q128_k64. The GPU tests run them against FP64
// and the CPU model at the same tiles; the benchmark times them.

func.func @tiles_d128_f16(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @tiles_d64_bf16_causal(%q: tensor<?x?x?x64xbf16>, %k: tensor<?x?x?x64xbf16>, %v: tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>, tensor<?x?x?x64xbf16>) -> tensor<?x?x?x64xbf16>
  return %o : tensor<?x?x?x64xbf16>
}

// D = 48: stored padded to 64, and the Q-smoothing correction's share of
// channels per lane is 6 at block-q = 128, block-k = 32 (eight lanes a key).
func.func @tiles_d48_bf16(%q: tensor<?x?x?x48xbf16>, %k: tensor<?x?x?x48xbf16>, %v: tensor<?x?x?x48xbf16>) -> tensor<?x?x?x48xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x48xbf16>, tensor<?x?x?x48xbf16>, tensor<?x?x?x48xbf16>) -> tensor<?x?x?x48xbf16>
  return %o : tensor<?x?x?x48xbf16>
}

func.func @tiles_d96_f16_causal_lse(%q: tensor<?x?x?x96xf16>, %k: tensor<?x?x?x96xf16>, %v: tensor<?x?x?x96xf16>) -> (tensor<?x?x?x96xf16>, tensor<?x?x?xf32>) {
  %o, %lse = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>) -> (tensor<?x?x?x96xf16>, tensor<?x?x?xf32>)
  return %o, %lse : tensor<?x?x?x96xf16>, tensor<?x?x?xf32>
}
