// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90" -split-input-file -verify-diagnostics | FileCheck %s

// One attention twice, with its operands in 16-byte (chunks = 2, the
// default) and in 8-byte (chunks = 1) packings: the quantizers' stores and
// the attention kernel's fragment loads both follow the layout attribute
// (docs/Layouts.md).

// CHECK-LABEL: gpu.module @wide
// K: the first four channels of each half of a token (0..3 and 32..35) sit
// at MMA positions stored at 0 and 8 (lane 0's words of chunk 1).
//       CHECK: gpu.func @sage_quantize_k
//       CHECK:   %[[K_POS:.*]] = arith.select %{{.*}}, %c0_i32{{(_[0-9]+)?}}, %c8_i32{{(_[0-9]+)?}} : i32
//       CHECK:   %[[K_POS64:.*]] = arith.extsi %[[K_POS]] : i32 to i64
//       CHECK:   %[[K_OFFSET:.*]] = arith.addi %{{.*}}, %[[K_POS64]] : i64
//  CHECK-NEXT:   %[[K_PTR:.*]] = llvm.getelementptr %arg1[%[[K_OFFSET]]]
//  CHECK-NEXT:   llvm.store %{{.*}}, %[[K_PTR]]
// V: one thread a channel; a block's E4M3 values pass through shared
// memory, 80-byte rows a token. Thread c reads back channel c of the tokens
// at stored positions 0, 1, 2, 3 (tokens 0, 1, 8, 9: byte 80 * token + c),
// ..., and stored position 8 holds token 32 (chunk 1's first), then
// writes 16 positions at once.
//       CHECK: llvm.mlir.global internal @sage_quantize_v_tile() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<5120 x i8>
//       CHECK: gpu.func @sage_quantize_v({{.*}}{known_block_size = array<i32: 64, 1, 1>
//       CHECK:   %[[V_TILE:.*]] = llvm.mlir.addressof @sage_quantize_v_tile
//       CHECK:   %[[V_TID:.*]] = arith.index_castui
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
//       CHECK:   gpu.barrier
//       CHECK:   arith.addi %c0_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//  CHECK-NEXT:   llvm.getelementptr %[[V_TILE]]
//  CHECK-NEXT:   llvm.load {{.*}} : !llvm.ptr<3> -> i8
//       CHECK:   arith.addi %c80_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//       CHECK:   arith.addi %c640_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//       CHECK:   arith.addi %c720_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//       CHECK:   arith.addi %c2000_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//  CHECK-NEXT:   llvm.getelementptr
//  CHECK-NEXT:   llvm.load
//   CHECK-NOT:   llvm.store
//       CHECK:   arith.addi %c2560_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// Q from global memory, K and V^T from shared memory: 16-byte loads. At
// D = 64 without a causal mask, four CTAs an SM (128 registers a thread).
//       CHECK: gpu.func @sage_attention({{.*}} kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
//       CHECK:   scf.for
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
//       CHECK:   sage.warp_mma {{.*}} a = i8
//       CHECK:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
//       CHECK:   sage.warp_mma {{.*}} a = f8E4M3FN
func.func @wide(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// CHECK-LABEL: gpu.module @narrow
// K: channels 32..35 are now stored at 32 (the second group of 32).
//       CHECK: gpu.func @sage_quantize_k
//       CHECK:   %[[K_POS:.*]] = arith.select %{{.*}}, %c0_i32{{(_[0-9]+)?}}, %c32_i32{{(_[0-9]+)?}} : i32
//       CHECK:   %[[K_POS64:.*]] = arith.extsi %[[K_POS]] : i32 to i64
//       CHECK:   %[[K_OFFSET:.*]] = arith.addi %{{.*}}, %[[K_POS64]] : i64
//  CHECK-NEXT:   %[[K_PTR:.*]] = llvm.getelementptr %arg1[%[[K_OFFSET]]]
//  CHECK-NEXT:   llvm.store %{{.*}}, %[[K_PTR]]
// V: stored position 8 now holds token 2 (lane 1's first word of chunk 0).
//       CHECK: gpu.func @sage_quantize_v
//       CHECK:   %[[V_TID:.*]] = arith.index_castui
//       CHECK:   gpu.barrier
//       CHECK:   arith.addi %c2000_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//  CHECK-NEXT:   llvm.getelementptr
//  CHECK-NEXT:   llvm.load
//   CHECK-NOT:   llvm.store
//       CHECK:   arith.addi %c160_i32{{(_[0-9]+)?}}, %[[V_TID]] : i32
//       CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// 8-byte loads, one per group of 32.
//       CHECK: gpu.func @sage_attention
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   scf.for
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   sage.warp_mma {{.*}} a = i8
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xi32>
//   CHECK-NOT:   llvm.load {{.*}} -> vector<4xi32>
//       CHECK:   sage.warp_mma {{.*}} a = f8E4M3FN
func.func @narrow(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, layout = #sage.mma_packed<along = features, k = 32, chunks = 1>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, layout = #sage.mma_packed<along = features, k = 32, chunks = 1>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 1, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Q and K feed one contraction: one layout.
func.func @negative_qk_differ(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, layout = #sage.mma_packed<along = features, k = 32, chunks = 2>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, layout = #sage.mma_packed<along = features, k = 32, chunks = 1>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected Q and K in one layout (both feed the Q K^T contraction), got #sage.mma_packed<along = features, k = 32, chunks = 1> and #sage.mma_packed<along = features, k = 32, chunks = 2>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Q and K are contracted along their features.
func.func @negative_qk_along_tokens(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the Q and K layout along features, got #sage.mma_packed<along = tokens, k = 32, chunks = 2>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// The Q/K quantizer stores four adjacent channels with one 32-bit store.
func.func @negative_qk_accumulator_order(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, layout = #sage.mma_packed<along = features, k = 32, chunks = 2, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, layout = #sage.mma_packed<along = features, k = 32, chunks = 2, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected a Q and K layout that keeps four adjacent channels together (their quantizer stores them at once) and each lane's words of a group adjacent, got #sage.mma_packed<along = features, k = 32, chunks = 2, order = accumulator>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// V is contracted along its tokens.
func.func @negative_v_along_features(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, layout = #sage.mma_packed<along = features, k = 32, chunks = 2, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected the V layout along tokens (P V contracts over keys), got #sage.mma_packed<along = features, k = 32, chunks = 2, order = accumulator>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// P reaches the P V MMA from the Q K^T accumulator: V must follow its order.
func.func @negative_v_natural_order(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected a V layout in the order of the Q K^T accumulator (P feeds the P V MMA from registers), got #sage.mma_packed<along = tokens, k = 32, chunks = 2>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// The mma.sync kernel loads a lane's V words of a group at once: V in MMA
// position order (the wgmma layout) does not keep them together.
func.func @negative_warp_v_ordered(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected a V layout whose lanes load their words of a group at once (the mma.sync kernel reads V^T so), got #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// V is quantized and staged a K/V block at a time: a 64-key V group does
// not fit 32-key blocks.
func.func @negative_v_group_wider_than_block(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 32>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected a V layout whose groups tile the K/V block, got #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator> (groups of 64 keys) with block-k = 32}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 32>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Stage tiles are what the wgmma kernel's bulk copies read; the mma.sync
// kernel stages rows.
func.func @negative_warp_tiled(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>, layout = #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, layout = #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %vv, %vscale = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>
  // expected-error@+1 {{'sage.quantized_attention' op expected operands stored row after row (the mma.sync kernel stages K/V rows with cp.async; tiling = core_matrices is for mma-scope=warpgroup), got #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// The hand-written kernels quantize V themselves: a V already stored for
// the MMA (v_layout) is the levels' input only.
func.func @negative_stored_values(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %vv: tensor<?x?x64x?x32xf8E4M3FN>, %vscale: tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16> {
  %kv, %kscale = sage.quantize %k {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  %qv, %qscale = sage.quantize %q {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>} : tensor<?x?x?x64xf16> -> tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>
  // expected-error@+1 {{'sage.quantized_attention' op takes V stored in #sage.mma_ordered<along = tokens, k = 32, order = accumulator> only through --sage-levels; this lowering quantizes V itself from the sage.quantize that makes it}}
  %o = sage.quantized_attention q(%qv, %qscale) k(%kv, %kscale) v(%vv, %vscale) {
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, p_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      scale = 1.250000e-01 : f64, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : (tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x?x64xi8>, tensor<?x?x?x1xf32>, tensor<?x?x64x?x32xf8E4M3FN>, tensor<?x?x1x64xf32>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
