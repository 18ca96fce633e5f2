// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-ws.json" | FileCheck %s
// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=RULE
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/not-there.json" 2>&1 | FileCheck %s --check-prefix=MISSING

// warp-specialize=auto takes a measured schedule's choice where the table
// has a row for the attention with these tiles (docs/Tuning.md): the row
// for (sm_90a, D = 64, causal, K smoothing only) at 64 x 128 says a
// producer warpgroup. The built-in table has no row for these tiles, so
// the rule (a producer only at D >= 128, block-k 64) gives none.
// CHECK-LABEL: gpu.func @sage_attention
//  CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
//       CHECK:   sage.warp_specialize warps = [4, 4]
// RULE-LABEL: gpu.func @sage_attention
//  RULE-SAME: known_block_size = array<i32: 128, 1, 1>
//   RULE-NOT:   sage.warp_specialize
// MISSING: error: cannot read the tuning table '{{.*}}not-there.json'
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 128>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      causal, k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
