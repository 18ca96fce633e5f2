// The README's recipe (int8-fp8, per-thread Q and K groups, Q and K
// smoothed, D = 64) from f16 Q, K, V, with what the lowering must not
// lose on the way: causal (bottom-right), an additive f32 mask broadcast
// over the batch, and the LSE as a second result. --sage-levels
// (docs/Levels.md) compiles the statistics, quantizers and the kernel and
// a host function that launches them; the output and the LSE land in the
// caller's buffers. sage-check-levels --variant masked calls it through
// its C interface.
func.func @attention_f16_masked(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                                %v: tensor<?x?x?x64xf16>, %mask: tensor<1x?x?x?xf32>,
                                %out: memref<?x?x?x64xf16>, %lse_out: memref<?x?x?xf32>)
    attributes {llvm.emit_c_interface} {
  %o, %lse = sage.attention %q, %k, %v mask(%mask) {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, scale = 0.125 : f64, causal}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<1x?x?x?xf32>)
      -> (tensor<?x?x?x64xf16>, tensor<?x?x?xf32>)
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x64xf16>, memref<?x?x?x64xf16>) -> ()
  bufferization.materialize_in_destination %lse in restrict writable %lse_out
      : (tensor<?x?x?xf32>, memref<?x?x?xf32>) -> ()
  return
}
