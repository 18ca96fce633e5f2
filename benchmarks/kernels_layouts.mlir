// The int8-fp8 attention of benchmarks/kernels.mlir at the decomposed level,
// with its operands in the 8-byte packing (#sage.mma_packed with chunks = 1)
// instead of the default 16-byte one: the GPU tests run it against FP64 and
// the CPU model, so a layout attribute that changed the quantizers' stores
// but not the MMA loads (or the reverse) would fail there
// (docs/Layouts.md).

func.func @attention_d64_f16_packed8(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %kmean = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_packed<along = features, k = 32, chunks = 1>}
    : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qs, %qmean = sage.smooth %q {block = 64 : i64} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf32>
  %qv, %qscale = sage.quantize %qs {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      layout = #sage.mma_packed<along = features, k = 32, chunks = 1>}
    : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>,
      layout = #sage.mma_packed<along = tokens, k = 32, chunks = 1, order = accumulator>}
    : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) q_smooth(%qmean, %k) k_smooth(%kmean) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
