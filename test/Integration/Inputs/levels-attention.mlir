// The quantized attention of the README's example (int8-fp8, per-thread Q
// and K groups, Q and K smoothed, D = 64) as a function of the quantized
// operands, compiled by --sage-levels (docs/Levels.md) into a kernel and a
// host function that launches it. Its result lands in the caller's buffer
// %out (materialize_in_destination), so the host function only launches:
// sage-check-levels computes the operands with the CPU model's quantizers
// and calls it through its C interface. V comes stored as the P V MMA
// reads it (v_layout: transposed, its keys in P's accumulator order,
// docs/Layouts.md), so the kernel stages its blocks by plain copies.
func.func @attention(%q: tensor<?x?x?x64xi8>, %q_scales: tensor<?x?x?x1xf32>,
                     %k: tensor<?x?x?x64xi8>, %k_scales: tensor<?x?x?x1xf32>,
                     %v: tensor<?x?x64x?x32xf8E4M3FN>, %v_scales: tensor<?x?x1x64xf32>,
                     %q_means: tensor<?x?x?x64xf32>, %k_raw: tensor<?x?x?x64xf16>,
                     %k_mean: tensor<?x?x1x64xf32>, %out: memref<?x?x?x64xf16>)
    attributes {llvm.emit_c_interface} {
  %o = sage.quantized_attention q(%q, %q_scales) k(%k, %k_scales) v(%v, %v_scales)
      q_smooth(%q_means, %k_raw) k_smooth(%k_mean)
      {q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
       k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
       v_quant = #sage.quant<f8E4M3FN, per_channel>,
       p_quant = #sage.quant<f8E4M3FN, per_tensor>,
       pv_accum = #sage.accum<f32>,
       v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>,
       scale = 0.125 : f64}
      : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>,
         tensor<?x?x64x?x32xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf32>,
         tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x64xf16>, memref<?x?x?x64xf16>) -> ()
  return
}
