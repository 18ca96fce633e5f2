// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_80" | FileCheck %s
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75

// int8-fp16 (sm_80/86): INT8 Q K^T as int8-fp8, then P~ and V rounded to
// f16 with unit scales and multiplied by the m16n8k16 f16 row into an f32
// accumulator. V_hat^T holds two bytes a value, in the #sage.mma_packed
// layout with k = 16 (natural order: the accumulator of Q K^T is the A
// operand of m16n8k16 as it is); no channel maxima, no delta_V.
// CHECK: sage.launch_plans = {attention = {
//   CHECK-NOT: v_amax
// CHECK-SAME: name = "v_q", shape = ["B", "Hkv", 64, {mul = [{cdiv = ["Nk", 64]}, 64]}], type = "f16"
// CHECK-SAME: ranges = {p = 1.000000e+00 : f64, v = 6.550400e+04 : f64}
// CHECK-SAME: variant = "int8-fp16"
//   CHECK-NOT: gpu.func @sage_value_absmax
// The V kernel: f16 pairs into the tile, then a channel's 8 keys a 16-byte
// store.
// CHECK-LABEL: gpu.func @sage_quantize_v
//   CHECK-NOT:   nvvm.convert.f32x2.to.f8x2
//       CHECK:   arith.truncf %{{.*}} : f32 to f16
//       CHECK:   llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<3> -> i16
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// The attention kernel: P rounded to f16 on the fragment, then per 8
// channels four m16n8k16 MMAs of 16 keys.
// CHECK-LABEL: gpu.func @sage_attention
//       CHECK:   scf.for
//       CHECK:   sage.quantize %{{.*}} {bound = 1.000000e+00 : f64, fragment = {{.*}}, quant = #sage.quant<f16, per_tensor, range = 1.0>} : vector<32xf32> -> vector<32xf16>, vector<1xf32>
//       CHECK:   %[[P0:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<32xf16>, vector<32xf16>
// CHECK-COUNT-4:   sage.warp_mma {{.*}} {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>} : vector<8xf16>, vector<4xf16> -> vector<4xf32>
//       CHECK:   sage.accumulate
// WGMMA: error: 'sage.quantized_attention' op the wgmma kernel implements E4M3 P and V; f16 P and V (int8-fp16) are lowered to the m16n8k16 mma.sync: pass mma-scope=warp
// SM75: error: 'sage.quantized_attention' op needs f16 mma.sync for P*V, which sm_75 lacks; use sm_80 or newer
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {bound = 65504.0 : f64, quant = #sage.quant<f16, per_tensor>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf16>, tensor<?x?x1x1xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f16, per_tensor, range = 1.0>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f16, per_tensor>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf16>, tensor<?x?x1x1xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
