// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=ROWS
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=TILES
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a overlap-softmax=false" -split-input-file | FileCheck %s --check-prefix=SEQ
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a ctas-per-sm=3" -split-input-file | FileCheck %s --check-prefix=THREE
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a ctas-per-sm=1" -split-input-file | FileCheck %s --check-prefix=ONE
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-ctas.json" -split-input-file | FileCheck %s --check-prefix=TABLE
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a ctas-per-sm=17" -split-input-file 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a" --convert-sage-to-gpu="chip=sm_90a ctas-per-sm=8" -split-input-file 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a ctas-per-sm=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-ctas-too-many.json" -split-input-file 2>&1 | FileCheck %s --check-prefix=ROW-TOO-MANY

// The CTAs an SM holds are the kernel's nvvm.minctasm: ctas-per-sm, else
// the measured schedule's ctas_per_sm for the kernel it was measured on,
// else (wgmma) nothing. 1 asks nothing; too many for an SM's threads or
// shared memory is an error naming both.
// THREADS: error: 'sage.quantized_attention' op ctas-per-sm = 17: 17 CTAs of 128 threads exceed the 2048 threads an SM runs
// SHARED: error: 'sage.quantized_attention' op ctas-per-sm = 8: 8 CTAs of {{[0-9]+}} bytes of shared memory (1 KiB of it the driver's) exceed the 233472 bytes an SM has
// NEGATIVE: error: ctas-per-sm must be at least 1, or 0 for auto; got -1
// ROW-TOO-MANY: error: 'sage.quantized_attention' op the schedule's ctas_per_sm = 8: 8 CTAs of {{[0-9]+}} bytes of shared memory (1 KiB of it the driver's) exceed the 233472 bytes an SM has

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
// The option wins over the row; 1 asks nothing.
// THREE-LABEL: gpu.module @k_only
//       THREE: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
// ONE-LABEL: gpu.module @k_only
//       ONE: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
// TABLE-LABEL: gpu.module @k_only
//       TABLE: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
func.func @k_only(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// Causal: the built-in row's sequential kernel at 64 x 128 asks for four
// (135 registers unasked), with the row's tiles from the table or given.
// ROWS-LABEL: gpu.module @k_only_causal
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
//   ROWS-NOT: sage.warpgroup_wait 1
//       ROWS: gpu.return
// TILES-LABEL: gpu.module @k_only_causal
//       TILES: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// SEQ-LABEL: gpu.module @k_only_causal
//       SEQ: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// A table's row with ctas_per_sm, for the sequential kernel it names.
// TABLE-LABEL: gpu.module @k_only_causal
//       TABLE: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
//   TABLE-NOT: sage.warpgroup_wait 1
//       TABLE: gpu.return
// THREE-LABEL: gpu.module @k_only_causal
//       THREE: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
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

// -----

// The built-in row's four CTAs were measured without a mask, which takes
// registers: a masked attention with the row's tiles asks nothing.
// ROWS-LABEL: gpu.module @masked
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
//       ROWS:   sage.mask_scores
func.func @masked(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x64xf16>,
    %m: tensor<?x?x?x?xi1>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x?xi1>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// -----

// D = 128 causal: the built-in row's 64 x 128 sequential kernel asks for
// three CTAs an SM (168 registers; 240 unasked, which fits two).
// ROWS-LABEL: gpu.module @d128_causal
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32}
//   ROWS-NOT: sage.warpgroup_wait 1
//       ROWS: gpu.return
func.func @d128_causal(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>, causal}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

// -----

// The rows were measured with V's head dim equal to Q's: a wider V (more
// accumulator registers, larger stages) asks nothing.
// ROWS-LABEL: gpu.module @wide_values
//       ROWS: gpu.func @sage_attention({{.*}}{known_block_size = array<i32: 128, 1, 1>} {
func.func @wide_values(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}
