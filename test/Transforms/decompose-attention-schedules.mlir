// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table.json" | FileCheck %s
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=32" | FileCheck %s --check-prefix=OPTIONS
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/missing.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-row.json" 2>&1 | FileCheck %s --check-prefix=BADROW
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-tiles.json" 2>&1 | FileCheck %s --check-prefix=BADTILES
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-stages.json" 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-overlap.json" 2>&1 | FileCheck %s --check-prefix=BADOVERLAP
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-ctas.json" 2>&1 | FileCheck %s --check-prefix=BADCTAS
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/Inputs/tuning-table-bad-turns.json" 2>&1 | FileCheck %s --check-prefix=BADTURNS
// RUN: not sage-opt %s --sage-decompose-attention="chip=sm_90a tuning-table=%S/decompose-attention-schedules.mlir" 2>&1 | FileCheck %s --check-prefix=NOTJSON
// RUN: not sage-opt %s --sage-decompose-attention="tuning-table=%S/Inputs/tuning-table.json" 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" | FileCheck %s --check-prefix=BUILTIN

// With a chip, each attention takes block-q and block-k from the measured
// schedule for it (docs/Tuning.md): the table's row for (sm_90a, D = 64,
// not causal, K smoothing only) at its longest length, 16k, is 64 x 128;
// the causal Q-smoothed attention's row is 128 x 64. The D = 128 one has no
// row and keeps the options (64 x 64). Without a chip the options decide.

// CHECK-LABEL: func @k_smoothing
//       CHECK:   sage.quantized_attention {{.*}}k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
// OPTIONS-LABEL: func @k_smoothing
//       OPTIONS:   sage.quantized_attention {{.*}}k_quant = #sage.quant<i8, per_thread, operand = b, block = 32>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 16>
func.func @k_smoothing(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>, %v: tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16>
  return %o : tensor<1x2x256x64xf16>
}

// CHECK-LABEL: func @causal_q_smoothing
//       CHECK:   sage.smooth %{{.*}} {block = 128 : i64}
//       CHECK:   sage.quantized_attention {{.*}}k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 16>
func.func @causal_q_smoothing(%q: tensor<1x2x256x64xf16>, %k: tensor<1x2x256x64xf16>, %v: tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>, tensor<1x2x256x64xf16>) -> tensor<1x2x256x64xf16>
  return %o : tensor<1x2x256x64xf16>
}

// CHECK-LABEL: func @no_row
//       CHECK:   sage.quantized_attention {{.*}}k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
func.func @no_row(%q: tensor<1x2x256x128xf16>, %k: tensor<1x2x256x128xf16>, %v: tensor<1x2x256x128xf16>) -> tensor<1x2x256x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<1x2x256x128xf16>, tensor<1x2x256x128xf16>, tensor<1x2x256x128xf16>) -> tensor<1x2x256x128xf16>
  return %o : tensor<1x2x256x128xf16>
}

// MISSING: error: cannot read the tuning table '{{.*}}missing.json': No such file or directory
// BADTILES: error: row 0 of the tuning table '{{.*}}tuning-table-bad-tiles.json' has head_dim 64, block_q 100, block_k 64; expected a positive head_dim, block_q a positive multiple of 16 and block_k of 8
// BADOVERLAP: error: row 0 of the tuning table '{{.*}}tuning-table-bad-overlap.json' has an overlap_softmax that is not a boolean
// BADSTAGES: error: row 0 of the tuning table '{{.*}}tuning-table-bad-stages.json' has a kv_stages that is not an integer of at least 2
// BADCTAS: error: row 0 of the tuning table '{{.*}}tuning-table-bad-ctas.json' has a ctas_per_sm that is not an integer of at least 0
// BADTURNS: error: row 0 of the tuning table '{{.*}}tuning-table-bad-turns.json' has a warpgroup_turns that is not a boolean
// NOTJSON: error: the tuning table '{{.*}}decompose-attention-schedules.mlir' is not JSON
// NOCHIP: error: tuning-table needs chip: its rows are keyed on the chip

// The built-in rows (lib/Dialect/Sage/IR/KernelSchedules.def): @no_row
// (no row in the file above) is D = 128 with K smoothing only, built-in
// 64 x 128; so is D = 64 without causal; the causal Q-smoothed D = 64
// attention has no built-in row and keeps the options (64 x 64).
// BUILTIN-LABEL: func @k_smoothing
//       BUILTIN:   k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
// BUILTIN-LABEL: func @causal_q_smoothing
//       BUILTIN:   k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
// BUILTIN-LABEL: func @no_row
//       BUILTIN:   k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>{{.*}}q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
// BADROW: error: row 0 of the tuning table '{{.*}}tuning-table-bad-row.json' needs chip, head_dim, causal, smooth (k or qk), n, block_q, block_k and warp_specialize
