// RUN: sage-opt %s --sage-decompose-attention="block-q=192 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=true" -split-input-file | FileCheck %s
// RUN: sage-opt %s --sage-decompose-attention="block-q=192 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=NO-TURNS
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=true overlap-softmax=true warp-specialize=true" -split-input-file | FileCheck %s --check-prefix=OVERLAP
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-turns.json" -split-input-file | FileCheck %s --check-prefix=TABLE
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a tuning-table=%S/Inputs/tuning-table-turns.json warpgroup-turns=false" -split-input-file | FileCheck %s --check-prefix=TABLE-OVERRIDDEN
// RUN: sage-opt %s --sage-decompose-attention="chip=sm_90a" --canonicalize --convert-sage-to-gpu="chip=sm_90a" -split-input-file | FileCheck %s --check-prefix=BUILT-IN
// RUN: not sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=true" -split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE-ONE-GROUP
// RUN: not sage-opt %s --sage-decompose-attention="block-q=128 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90 warpgroup-turns=true" -split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE-WARP
// RUN: not sage-opt %s --sage-decompose-attention="block-q=128 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=true kv-staging=cp-async" -split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE-CP-ASYNC
// RUN: not sage-opt %s --convert-sage-to-gpu="chip=sm_90a warpgroup-turns=often" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-VALUE
// RUN: not sage-opt %s --sage-decompose-attention="block-q=192 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90" -split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE-192-WARP

// warpgroup-turns: the consumer warpgroups issue their P V wgmmas in a
// ring of named barriers (FlashAttention-3's ping-pong; 1.04-1.13x for
// kernels of two or three warpgroups on the H200,
// benchmarks/results/2026-12-04-h200-turns.md). Warpgroup w waits on
// barrier 2 + w and passes the turn to w + 1 by arriving on its barrier,
// 256 threads each. The last warpgroup hands out the first turn before
// the loop and passes none after the last block. The stages are released
// on their mbarriers (384 arrivals), not by a barrier of the CTA, which
// would undo the turns.
// CHECK-LABEL: gpu.func @sage_attention
//  CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
//       CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
//       CHECK: %[[WARPGROUP:.*]] = arith.divui %[[WARP]], %c4_i32{{[_0-9]*}} : i32
//       CHECK: %[[LAST_GROUP:.*]] = arith.cmpi eq, %[[WARPGROUP]], %{{.*}} : i32
//       CHECK: sage.stage_ring_init %{{.*}} : !sage.stage_ring<stages = 3, consumers = 384>
//       CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[END:.*]], %{{.*}} : i32
//       CHECK: %[[LAST_BLOCK:.*]] = arith.subi %[[END]], %{{.*}} : i32
//       CHECK: %[[FIRST_TURN:.*]] = arith.andi %[[LAST_GROUP]], %[[ANY]] : i1
//  CHECK-NEXT: scf.if %[[FIRST_TURN]] {
//       CHECK:   nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
//       CHECK: scf.for %[[BLOCK:.*]] = %{{.*}} to %[[END]]
//       CHECK:   sage.warpgroup_mma {{.*}}a = i8, a_source = shared
//       CHECK:   sage.warpgroup_wait 0
//       CHECK:   sage.online_softmax
//       CHECK:   %[[MY_TURN:.*]] = arith.addi %{{.*}}, %[[WARPGROUP]] : i32
//  CHECK-NEXT:   %[[PAIR:.*]] = arith.constant 256 : i32
//  CHECK-NEXT:   nvvm.barrier id = %[[MY_TURN]] number_of_threads = %[[PAIR]]
//       CHECK:   sage.warpgroup_mma {{.*}}a = f8E4M3FN, a_source = registers
//       CHECK:   sage.warpgroup_commit
//       CHECK:   %[[NOT_LAST_BLOCK:.*]] = arith.cmpi ne, %[[BLOCK]], %[[LAST_BLOCK]] : i32
//       CHECK:   %[[NOT_LAST_GROUP:.*]] = arith.cmpi ne, %[[WARPGROUP]], %{{.*}} : i32
//  CHECK-NEXT:   %[[PASSES:.*]] = arith.ori %[[NOT_LAST_BLOCK]], %[[NOT_LAST_GROUP]] : i1
//  CHECK-NEXT:   scf.if %[[PASSES]] {
//       CHECK:     nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
//       CHECK:   sage.warpgroup_wait 0
//   CHECK-NOT:   gpu.barrier
//       CHECK:   sage.stage_ring_release
//  CHECK-NEXT:   scf.yield
// Without turns the three warpgroups of a 192-row block end each iteration
// at a barrier of the CTA, which releases the stage.
// NO-TURNS-LABEL: gpu.func @sage_attention
//   NO-TURNS-NOT: nvvm.barrier
//       NO-TURNS: scf.for
//   NO-TURNS-NOT:   nvvm.barrier
//       NO-TURNS:   gpu.barrier
//  NO-TURNS-NEXT:   scf.yield
// A table row's warpgroup_turns (with its three stages, which apply with
// the row's turns only); an option given wins.
// TABLE-LABEL: gpu.func @sage_attention
//  TABLE-SAME: known_block_size = array<i32: 256, 1, 1>
//       TABLE: scf.for
//       TABLE:   nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
//       TABLE:   nvvm.barrier.arrive
//       TABLE:   sage.stage_ring_release
// TABLE-OVERRIDDEN-LABEL: gpu.func @sage_attention
//   TABLE-OVERRIDDEN-NOT: nvvm.barrier
//       TABLE-OVERRIDDEN: gpu.return
// The built-in K-only row at D = 128 is three CTAs of one warpgroup: no
// turns.
// BUILT-IN-LABEL: gpu.func @sage_attention
//  BUILT-IN-SAME: known_block_size = array<i32: 128, 1, 1>
//   BUILT-IN-NOT: nvvm.barrier
//       BUILT-IN: gpu.return
func.func @k_only(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

// Overlapped, with a producer: an iteration's two wgmma groups (block j's
// Q K^T, block j - 1's P V) are issued in the turn; the last warpgroup
// hands out the first turn when the loop (blocks 1 to end - 1) runs.
// OVERLAP-LABEL: gpu.func @sage_attention
//       OVERLAP: sage.warp_specialize
//       OVERLAP: sage.quantize
//       OVERLAP: %[[ONE:.*]] = arith.constant 1 : i32
//  OVERLAP-NEXT: %[[RUNS:.*]] = arith.cmpi sgt, %{{.*}}, %[[ONE]] : i32
//  OVERLAP-NEXT: %[[FIRST:.*]] = arith.andi %{{.*}}, %[[RUNS]] : i1
//  OVERLAP-NEXT: scf.if %[[FIRST]] {
//       OVERLAP:   nvvm.barrier.arrive
//       OVERLAP: scf.for {{.*}} iter_args
//       OVERLAP:   nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
//       OVERLAP:   sage.warpgroup_fence
//       OVERLAP:   sage.warpgroup_commit
//       OVERLAP:   sage.warpgroup_commit
//       OVERLAP:   scf.if %{{.*}} {
//  OVERLAP-NEXT:     arith.constant
//       OVERLAP:     nvvm.barrier.arrive
//       OVERLAP:   sage.warpgroup_wait 1

// NEGATIVE-ONE-GROUP: error: 'sage.quantized_attention' op warpgroup-turns passes turns between the wgmma kernel's consumer warpgroups; it needs mma-scope=warpgroup (sm_90a) and two or more of them (block-q = 128 or 192); got warpgroup scope, block-q = 64
// NEGATIVE-WARP: error: 'sage.quantized_attention' op warpgroup-turns passes turns between the wgmma kernel's consumer warpgroups; it needs mma-scope=warpgroup (sm_90a) and two or more of them (block-q = 128 or 192); got warp scope, block-q = 128
// NEGATIVE-CP-ASYNC: error: 'sage.quantized_attention' op warpgroup-turns needs K/V blocks staged by bulk copies (kv-staging=bulk, operands in tiling = core_matrices); got #sage.mma_ordered<along = features, k = 32>
// NEGATIVE-VALUE: error: unknown warpgroup-turns 'often'; expected auto, true or false
// NEGATIVE-192-WARP: error: 'sage.quantized_attention' op block-q = 192 (three warpgroups) needs mma-scope=warpgroup (sm_90a), head dims of at most 128 and no Q smoothing; got warp scope, D = 128, Dv = 128
