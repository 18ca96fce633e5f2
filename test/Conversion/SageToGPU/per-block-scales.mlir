// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90" -split-input-file | FileCheck %s

// One delta_Q a Q block and one delta_K a K/V block (qk = per_block): the
// plan's scale buffers hold one value a block, the quantizers reduce the
// maxima of every token of the block and thread 0 writes the scale, and
// the attention kernel reads the block's scale, the same in every lane.
// CHECK: sage.launch_plans = {attention = {
// CHECK-SAME: name = "k_scale", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 1]}], type = "f32"
// CHECK-SAME: name = "q_scale", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 1]}], type = "f32"
// CHECK-SAME: qk_granularity = "per_block"
// The K quantizer: the maximum over the block's 64 token maxima.
// CHECK-LABEL: gpu.func @sage_quantize_k
// CHECK-COUNT-64: memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK: arith.divf %{{.*}}, %cst{{.*}} : f32
// CHECK-LABEL: gpu.func @sage_quantize_q
// CHECK-COUNT-64: memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @sage_attention
//       CHECK:   scf.for
//       CHECK:     sage.warp_mma
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_block, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_block, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_block, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_block, block = 64>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// One delta_Q a warp's 16 rows and one delta_K a K/V block (qk = per_warp):
// four Q scales a 64-row block, each the maximum of its warp's 16 token
// maxima.
// CHECK: sage.launch_plans = {attention = {
// CHECK-SAME: name = "k_scale", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 1]}], type = "f32"
// CHECK-SAME: name = "q_scale", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 4]}], type = "f32"
// CHECK-SAME: qk_granularity = "per_warp"
// CHECK-LABEL: gpu.func @sage_quantize_k
// CHECK-COUNT-64: memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @sage_quantize_q
// CHECK-COUNT-16: memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT: memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
//       CHECK: arith.divf
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_block, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_warp, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_block, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_warp, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// One delta_Q a row and one delta_K a key (qk = per_token): 64 scales a
// block each, every token's its own maximum (one shared load), written by
// each token's first thread; the attention kernel loads two delta_Q (rows
// g and g + 8) and two delta_K a key tile (keys 2t and 2t + 1), and
// multiplies each score by its own factor instead of folding one into the
// softmax.
// CHECK: sage.launch_plans = {attention = {
// CHECK-SAME: name = "k_scale", shape = ["B", "Hkv", {mul = [{cdiv = ["Nk", 64]}, 64]}], type = "f32"
// CHECK-SAME: name = "q_scale", shape = ["B", "H", {mul = [{cdiv = ["Nq", 64]}, 64]}], type = "f32"
// CHECK-SAME: qk_granularity = "per_token"
// CHECK-LABEL: gpu.func @sage_quantize_k
//       CHECK: gpu.barrier
//       CHECK: gpu.barrier
//       CHECK: %[[KMAX:.*]] = memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT: memref.load
//       CHECK: %[[KABS:.*]] = llvm.intr.maximum(%{{.*}}, %[[KMAX]])
//   CHECK-NOT: memref.load
//       CHECK: arith.divf %[[KABS]], %{{.*}} : f32
// CHECK-LABEL: gpu.func @sage_quantize_q
//       CHECK: gpu.barrier
//       CHECK: %[[QMAX:.*]] = memref.load %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
//   CHECK-NOT: memref.load
//       CHECK: %[[QABS:.*]] = llvm.intr.maximum(%{{.*}}, %[[QMAX]])
//   CHECK-NOT: memref.load
//       CHECK: arith.divf %[[QABS]], %{{.*}} : f32
// CHECK-LABEL: gpu.func @sage_attention
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
//       CHECK: scf.for
// CHECK-COUNT-16: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
//       CHECK: sage.warp_mma
//       CHECK: %[[INT:.*]] = arith.sitofp %{{.*}} : i32 to f32
//  CHECK-NEXT: %[[QK:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
//  CHECK-NEXT: %[[FACTOR:.*]] = arith.mulf %[[QK]], %{{.*}} : f32
//  CHECK-NEXT: arith.mulf %[[INT]], %[[FACTOR]] : f32
//       CHECK: sage.online_softmax %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} {base2
func.func @attention(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %ks, %km = sage.smooth %k : tensor<?x?x?x64xf16> -> tensor<?x?x1x64xf32>
  %kv, %kscale = sage.quantize %ks {quant = #sage.quant<i8, per_token, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_token, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) k_smooth(%km) {
      k_quant = #sage.quant<i8, per_token, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_token, block = 64>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
