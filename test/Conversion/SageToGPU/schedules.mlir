// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-ws.json" | FileCheck %s
// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=RULE
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/not-there.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true" | FileCheck %s --check-prefix=ROW-OVERRIDDEN
// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-overlap.json" | FileCheck %s --check-prefix=COLUMNS
// RUN: sage-opt %s --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-overlap.json overlap-softmax=false kv-stages=2" | FileCheck %s --check-prefix=OVERRIDDEN

// warp-specialize, kv-stages and overlap-softmax left auto take a measured
// schedule's choice where the table has a row for the attention with these
// tiles (docs/Tuning.md): the file's row for (sm_90a, D = 64, causal, K
// smoothing only) at 64 x 128 says a producer warpgroup, and (written
// before those columns) two stages and no overlap. The built-in row for
// the same key says no producer, two stages, no overlap and four CTAs an
// SM.
// CHECK-LABEL: gpu.func @sage_attention
//  CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
//       CHECK:   sage.warp_specialize warps = [4, 4]
//   CHECK-NOT:   sage.warpgroup_wait 1
// RULE-LABEL: gpu.func @sage_attention
//  RULE-SAME: known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
//   RULE-NOT:   sage.warp_specialize
// Two stages of 16 KiB (K: 128 keys x 64 bytes, V^T: 64 x 128 bytes):
// the first full barrier after them, at 32768.
//       RULE:   %[[FIRST_BARRIER:.*]] = arith.constant 32768 : i32
//  RULE-NEXT:   sage.stage_ring %{{.*}}[%[[FIRST_BARRIER]]] : !sage.stage_ring<stages = 2>
//   RULE-NOT:   sage.warpgroup_wait 1
// The built-in row's stages and CTAs go with its overlap: turning the
// overlap on gives the overlapped kernel's three stages, and asks ptxas
// for nothing.
// ROW-OVERRIDDEN-LABEL: gpu.func @sage_attention
//  ROW-OVERRIDDEN-SAME: known_block_size = array<i32: 128, 1, 1>} {
//       ROW-OVERRIDDEN:   %[[FIRST_BARRIER:.*]] = arith.constant 49152 : i32
//  ROW-OVERRIDDEN-NEXT:   sage.stage_ring %{{.*}}[%[[FIRST_BARRIER]]] : !sage.stage_ring<stages = 3>
//       ROW-OVERRIDDEN:   sage.warpgroup_wait 1
// A row with every column: a producer, four stages (the first full
// barrier after 4 x 16 KiB), the softmax overlapped; options that are not
// auto override it.
// COLUMNS-LABEL: gpu.func @sage_attention
//       COLUMNS:   %[[FIRST_BARRIER:.*]] = arith.constant 65536 : i32
//  COLUMNS-NEXT:   sage.stage_ring %{{.*}}[%[[FIRST_BARRIER]]] : !sage.stage_ring<stages = 4, consumers = 128>
//       COLUMNS:   sage.warp_specialize warps = [4, 4]
//       COLUMNS:   sage.warpgroup_wait 1
// OVERRIDDEN-LABEL: gpu.func @sage_attention
//       OVERRIDDEN:   %[[FIRST_BARRIER:.*]] = arith.constant 32768 : i32
//  OVERRIDDEN-NEXT:   sage.stage_ring %{{.*}}[%[[FIRST_BARRIER]]] : !sage.stage_ring<stages = 2, consumers = 128>
//       OVERRIDDEN:   sage.warp_specialize warps = [4, 4]
//   OVERRIDDEN-NOT:   sage.warpgroup_wait 1
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
