// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_120a" -split-input-file | FileCheck %s
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: not sage-opt %s --sage-decompose-attention="block-k=32" --canonicalize --convert-sage-to-gpu="chip=sm_120a" 2>&1 | FileCheck %s --check-prefix=BLOCK32

// NVFP4 (docs/Algorithm.md section 5) lowered to the block-scaled m16n8k64
// mma.sync. The plan: Q_hat, K_hat and V_hat^T two values a byte, E4M3
// scales a byte each (Q and K: one a 16 channels of a row; V: one a 16
// keys of a channel), no V channel maxima.
// CHECK: sage.launch_plans = {attention = {
// CHECK-SAME: name = "k_q", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 64]}, 32], type = "i8"
// CHECK-SAME: name = "k_scale", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 64]}, 4], type = "f8E4M3FN"
// CHECK-SAME: name = "q_scale", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 64]}, 4], type = "f8E4M3FN"
// CHECK-SAME: name = "v_q", shape = ["B", "Hkv", 64, {mul = [{cdiv = ["Nk", 64]}, 32]}], type = "i8"
// CHECK-SAME: name = "v_scale", shape = ["B", "Hkv", 64, {mul = [{cdiv = ["Nk", 64]}, 4]}], type = "f8E4M3FN"
// CHECK-SAME: qk_granularity = "microscale"
// CHECK-SAME: ranges = {p = 1.000000e+00 : f64, v = 1.000000e+00 : f64}
// CHECK-SAME: variant = "nvfp4"
// The K quantizer: a scale byte a 16 channels, E2M1 codes by comparisons
// with the midpoints (5.0 between 4 and 6), eight a word.
// CHECK-LABEL: gpu.func @sage_quantize_k
//       CHECK: arith.constant 6.000000e+00 : f32
//       CHECK: arith.constant 5.000000e+00 : f32
//       CHECK: llvm.store %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<1>
//       CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr<1>
// The V quantizer stages the block in f32 (the scales need all of it),
// then writes a channel's four scale bytes (one word) and its 64 codes.
// CHECK-LABEL: gpu.func @sage_quantize_v
// CHECK-COUNT-2: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
//       CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<1>
//       CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// The attention kernel: Q K^T with Q's and K's scale words, P~ in two
// levels (sage.quantize with row_range = 448 * 6 on the accumulator
// fragment), P V with P's scale word and V's, R * s_row, then O.
// CHECK-LABEL: gpu.func @sage_attention
//       CHECK: scf.for
// CHECK-COUNT-8: sage.warp_mma %{{.*}}, %{{.*}}, %{{.*}} scales(%[[QS:.*]], %{{.*}}) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>}
//       CHECK: sage.online_softmax {{.*}}prob_scale = 1.000000e+00
//       CHECK: %[[PQ:.*]], %[[PS:.*]], %[[SROW:.*]] = sage.quantize %{{.*}} {fragment = #sage.mma<{{.*}}k = 64{{.*}}>, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, row_range = 2.688000e+03 : f64} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
//       CHECK: %[[S0:.*]] = vector.extract %[[SROW]][0]
//       CHECK: %[[WORDS:.*]] = vector.bitcast %[[PS]] : vector<4xf8E4M3FN> to vector<1xi32>
//       CHECK: %[[WORD:.*]] = vector.extract %[[WORDS]][0]
//       CHECK: vector.shuffle %[[PQ]], %[[PQ]]
//       CHECK: %[[PV:.*]] = sage.warp_mma %{{.*}}, %{{.*}}, %{{.*}} scales(%[[WORD]], %{{.*}}) {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN
//       CHECK: %[[R0:.*]] = vector.extract %[[PV]][0]
//       CHECK: arith.mulf %[[R0]], %[[S0]] : f32
//       CHECK: sage.accumulate
// CHECK-COUNT-7: sage.warp_mma {{.*}} scales(
//   CHECK-NOT: sage.warp_mma

// WGMMA: error: 'sage.quantized_attention' op wgmma has no FP4 operands; nvfp4 is lowered to the block-scaled m16n8k64 mma.sync: pass mma-scope=warp
// BLOCK32: error: 'sage.quantized_attention' op nvfp4's P V consumes 64 keys an MMA, which must tile the K/V block; got block_k = 32
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"nvfp4", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
