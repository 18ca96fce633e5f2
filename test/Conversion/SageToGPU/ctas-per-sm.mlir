// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=TILES
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a overlap-softmax=false" -split-input-file | FileCheck %s --check-prefix=SEQ

// The sequential wgmma kernel at D = 64, 64 x 128, without a mask or Q
// smoothing asks ptxas for four CTAs an SM (nvvm.minctasm = 4: 128
// registers, not the 134 it takes unasked; 6-7% faster on the H200). Its
// built-in row (K smoothing only, no mask) is 64 x 128.
// ROWS-LABEL: gpu.module @k_only
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// TILES-LABEL: gpu.module @k_only
//       TILES: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// SEQ-LABEL: gpu.module @k_only
//       SEQ: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
func.func @k_only(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Causal: the row's overlapped kernel, or (overlap-softmax=false) the
// sequential one at 64 x 128; neither asks.
// ROWS-LABEL: gpu.module @k_only_causal
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
// TILES-LABEL: gpu.module @k_only_causal
//       TILES: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
// SEQ-LABEL: gpu.module @k_only_causal
//       SEQ: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
//   SEQ-NOT: sage.warpgroup_wait 1
//       SEQ: gpu.return
func.func @k_only_causal(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>, causal}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Q smoothing (not measured with four CTAs): 64 x 64 without a row, and
// 64 x 128 when asked; neither asks.
// ROWS-LABEL: gpu.module @q_and_k
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
// TILES-LABEL: gpu.module @q_and_k
//       TILES: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
// SEQ-LABEL: gpu.module @q_and_k
//       SEQ: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
func.func @q_and_k(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}
