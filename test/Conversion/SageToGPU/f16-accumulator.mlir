// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_89" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA

// SageAttention2++ (int8-fp8-f16acc): P V through the FP8 mma.sync row
// with an f16 accumulator, flushed into the FP32 buffer every two MMAs of
// 32 keys (docs/Algorithm.md section 4). With block-k = 128 a channel
// tile of a K/V block makes four MMAs and two flushes: the first rescales
// O by alpha, the second by ones (an add).
// CHECK-LABEL: gpu.func @sage_attention
//       CHECK:   scf.for
//       CHECK:     %[[P:.*]], %{{.*}}, %{{.*}}, %[[ALPHA:.*]] = sage.online_softmax {{.*}} prob_scale = 2.240000e+02 : f64
//       CHECK:     sage.quantize {{.*}} {bound = 2.240000e+02 : f64
//       CHECK:     %[[R0:.*]] = sage.warp_mma %{{.*}}, %{{.*}}, %{{.*}} {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
//       CHECK:     %[[R1:.*]] = sage.warp_mma %{{.*}}, %{{.*}}, %{{.*}} {mma = {{.*}}acc = f16{{.*}}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf16>
//       CHECK:     %[[O1:.*]] = sage.accumulate %{{.*}} into %{{.*}} rescale %[[ALPHA]] {fragment = #sage.mma<{{.*}}acc = f16{{.*}}>, scheme = #sage.accum<f16, every = 2>} : vector<4xf16>, vector<2xf32> -> vector<4xf32>
//       CHECK:     %[[ONES:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK-COUNT-2:   sage.warp_mma {{.*}}acc = f16
//       CHECK:     sage.accumulate %{{.*}} into %{{.*}} rescale %[[ONES]] {{.*}}scheme = #sage.accum<f16, every = 2>
//   CHECK-NOT:     acc = f32
//       CHECK:   scf.yield
// WGMMA: error: 'sage.quantized_attention' op the wgmma kernel implements the f32 P V accumulator; #sage.accum<f16, every = 2> (SageAttention2++) is lowered to mma.sync: pass mma-scope=warp
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_thread, operand = b, block = 128>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>, p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
      pv_accum = #sage.accum<f16, every = 2>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Each flush sums `every` whole MMAs of one K/V block.
func.func @negative_flush_block(%q: tensor<1x1x64x64xf16>, %k: tensor<1x1x64x64xf16>, %v: tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 32>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x8x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>} : tensor<1x1x64x64xf16> -> tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op #sage.accum<f16, every = 2> flushes every 2 MMAs of 32 keys, which must tile the K/V block; got block-k = 32}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 32>, p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
      pv_accum = #sage.accum<f16, every = 2>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x8x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf16>
  return %o : tensor<1x1x64x64xf16>
}
