// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_89" | FileCheck %s
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA

// INT4 Q and K (int4-fp8): the m16n8k64 s4 row of the MMA table and the
// #sage.mma_packed layout with k = 64. Its words are the INT8 layout's
// bytes, each holding two channels (low nibble first), so a row of D = 64
// is 32 bytes: the quantizers pack eight values into each 32-bit store and
// the attention kernel loads the same words as for INT8, one MMA per
// 64 channels instead of two per 32.
// CHECK: sage.launch_plans = {attention = {
// CHECK-SAME: name = "k_q", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 64]}, 32], type = "i8"
// CHECK-SAME: name = "q_q", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 64]}, 32], type = "i8"
// CHECK-SAME: variant = "int4-fp8"
// The K quantizer: values clamped to [-7, 7], eight nibbles a word.
// CHECK-LABEL: gpu.func @sage_quantize_k
//       CHECK:   arith.minsi %{{.*}}, %c7_i32{{.*}} : i32
//       CHECK:   arith.andi %{{.*}}, %c15_i32{{.*}} : i32
//       CHECK:   arith.shli %{{.*}}, %c28_i32{{.*}} : i32
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// CHECK-LABEL: gpu.func @sage_quantize_q
//       CHECK:   arith.shli %{{.*}}, %c28_i32{{.*}} : i32
// The attention kernel: per key tile, one s4 MMA for D = 64.
// CHECK-LABEL: gpu.func @sage_attention
//       CHECK:   scf.for
// CHECK-COUNT-8:   sage.warp_mma {{.*}} {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers, b = i4, b_source = registers, acc = i32, scales = none>} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
//   CHECK-NOT:   a = i8
//       CHECK:   sage.online_softmax
// WGMMA: error: 'sage.quantized_attention' op wgmma has no INT4 operands; INT4 Q/K is lowered to the m16n8k64 mma.sync: pass mma-scope=warp
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i4, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>
  %qs, %qm = sage.smooth %q {block = 64 : i64} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf32>
  %qv, %qscale = sage.quantize %qs {quant = #sage.quant<i4, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) q_smooth(%qm, %k) k_smooth(%km) {
      k_quant = #sage.quant<i4, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i4, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi4>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
