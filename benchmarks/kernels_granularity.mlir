// Q and K scales per block (one delta_Q a Q block, one delta_K a K/V
// block), per warp (one delta_Q a warp's 16 rows, one delta_K a K/V block)
// or per token (one a row of Q or key of K) instead of per thread:
// attentions of benchmarks/kernels.mlir with `qk = per_block`,
// `qk = per_warp` or `qk = per_token`. Compiled by the `sage-kernels` target for sm_90
// (mma.sync) and sm_90a (wgmma).

func.func @per_block_d64_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_block>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

func.func @per_block_d128_f16_causal(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_block>, causal}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @per_block_d128_bf16(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>, %v: tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_block>}
    : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16>
  return %o : tensor<?x?x?x128xbf16>
}

func.func @per_warp_d64_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_warp>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

func.func @per_warp_d128_f16_causal_k_smoothing(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_warp, smooth = [k]>, causal}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @per_token_d64_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_token>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

func.func @per_token_d128_f16_causal(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_token>, causal}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

func.func @per_token_d128_bf16_k_smoothing(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>, %v: tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", qk = per_token, smooth = [k]>}
    : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>) -> tensor<?x?x?x128xbf16>
  return %o : tensor<?x?x?x128xbf16>
}
