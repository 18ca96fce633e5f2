// The README's recipe (int8-fp8, per-thread Q and K groups, Q and K
// smoothed, D = 64) from f16 Q, K, V: --sage-levels (docs/Levels.md)
// compiles the statistics and quantizers (sage-lower-quantizers,
// sage-launch-loops) and the attention into kernels, and a host function
// that launches them all. The result lands in the caller's buffer %out;
// sage-check-levels --quantizers levels calls it through its C interface.
func.func @attention_f16(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                     %v: tensor<?x?x?x64xf16>, %out: memref<?x?x?x64xf16>)
    attributes {llvm.emit_c_interface} {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, scale = 0.125 : f64}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x64xf16>, memref<?x?x?x64xf16>) -> ()
  return
}
