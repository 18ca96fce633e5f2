// overlap-softmax=true: the wgmma kernel's loop software-pipelined by one
// K/V block, so block j's softmax runs while block j - 1's P V wgmmas do.
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=true kv-stages=3" | FileCheck %s
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false kv-stages=3" | FileCheck %s --check-prefix=THREE-STAGES
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false kv-stages=2" | FileCheck %s --check-prefix=TWO-STAGES
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false" | FileCheck %s --check-prefix=THREE-STAGES
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false" | FileCheck %s --check-prefix=AUTO-STAGES
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false" | FileCheck %s --check-prefix=Q-SMOOTHING
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true kv-staging=cp-async" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-CP-ASYNC
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=64" --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=false" | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90 overlap-softmax=true" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-WARP
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=sometimes" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-VALUE
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a overlap-softmax=true warp-specialize=false kv-stages=4" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGES

func.func @attention(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// Q smoothing (the default recipe) without a producer: one dS buffer,
// which block 1's dS overwrites, so a barrier follows block 0's softmax
// before the loop.
func.func @q_smoothing(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}
// Q-SMOOTHING-LABEL: gpu.module @q_smoothing
// Q-SMOOTHING-LABEL: gpu.func @sage_attention
// Q-SMOOTHING: sage.online_softmax
// Q-SMOOTHING: sage.quantize
// Q-SMOOTHING-NEXT: gpu.barrier
// Q-SMOOTHING-NEXT: %{{.*}} = arith.constant
// Q-SMOOTHING-NEXT: %{{.*}} = arith.constant
// Q-SMOOTHING-NEXT: %{{.*}}:38 = scf.for

// overlap-softmax without kv-stages: three stages (the first full barrier
// after 3 x 8 KiB).
// AUTO-STAGES-LABEL: gpu.func @sage_attention
// AUTO-STAGES: %[[FIRST_BARRIER:.*]] = arith.constant 24576 : i32
// AUTO-STAGES-NEXT: sage.stage_ring %{{.*}}[%[[FIRST_BARRIER]]] : !sage.stage_ring<stages = 3>

// Block 0's scores and softmax come first, only for a Q block that sees a
// key block (the loop runs blocks 1 to end).
// CHECK-LABEL: gpu.func @sage_attention
// CHECK: %[[ANY:.*]] = arith.cmpi sgt, %[[END:.*]], %{{.*}} : i32
// CHECK-NEXT: %{{.*}}:36 = scf.if %[[ANY]] -> (
// CHECK: sage.warpgroup_wait 0 on %{{.*}}, %{{.*}} : vector<32xi32>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[ALPHA0:.*]] = sage.online_softmax
// CHECK: %[[P0:.*]], %{{.*}} = sage.quantize
// The loop carries block j - 1's alpha and P_hat (E4M3, the accumulator's
// order), made A's registers at the top of the iteration.
// CHECK: %[[LOOP:.*]]:38 = scf.for %{{.*}} = %{{.*}} to %[[END]] step %{{.*}} iter_args({{.*}}, %[[ALPHA:.*]] = %[[ALPHA0]], %[[P:.*]] = %[[P0]]) -> ({{.*}}, vector<2xf32>, vector<32xf8E4M3FN>)
// CHECK-NEXT: %[[A0:.*]] = vector.shuffle %[[P]], %[[P]]
// CHECK-NEXT: %[[A1:.*]] = vector.shuffle %[[P]], %[[P]]
// Block j's Q K^T and block j - 1's P V are issued back to back, after
// one fence of P's registers, as two commit groups.
// CHECK: %[[FENCED:.*]]:2 = sage.warpgroup_fence(%[[A0]], %[[A1]] : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>)
// CHECK-NEXT: %[[S0:.*]] = sage.warpgroup_mma %{{.*}}, %{{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared
// CHECK-NEXT: %[[S:.*]] = sage.warpgroup_mma %{{.*}}, %{{.*}}, %[[S0]]
// CHECK-NEXT: %[[SG:.*]] = sage.warpgroup_commit(%[[S]] : vector<32xi32>)
// CHECK-NEXT: %[[R0:.*]] = sage.warpgroup_mma %[[FENCED]]#0, %{{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers
// CHECK-NEXT: %[[R:.*]] = sage.warpgroup_mma %[[FENCED]]#1, %{{.*}}, %[[R0]]
// CHECK-NEXT: %[[RG:.*]] = sage.warpgroup_commit(%[[R]] : vector<32xf32>)
// The scores are waited for with the P V still in flight (one group
// committed after theirs may run); block j's softmax runs before the P V
// is waited for (keeping P's registers untouched until then) and added to
// O with block j - 1's alpha.
// CHECK-NEXT: %{{.*}} = sage.warpgroup_wait 1 on %[[SG]], %[[S]] : vector<32xi32>
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %[[NEXT_ALPHA:.*]] = sage.online_softmax
// CHECK: %[[NEXT_P:.*]], %{{.*}} = sage.quantize
// CHECK-NEXT: %[[DONE:.*]]:3 = sage.warpgroup_wait 0 on %[[RG]], %[[R]], %[[FENCED]]#0, %[[FENCED]]#1
// CHECK: sage.accumulate %{{.*}} into %{{.*}} rescale %[[ALPHA]]
// Warp-specialized, the stage of block j - 1 goes back to the producer.
// CHECK: sage.stage_ring_release
// CHECK: scf.yield {{.*}}, %[[NEXT_ALPHA]], %[[NEXT_P]] :
// The last block's P V after the loop.
// CHECK: %[[LAST0:.*]] = vector.shuffle %[[LOOP]]#37, %[[LOOP]]#37
// CHECK: sage.warpgroup_fence(%[[LAST0]]
// CHECK: sage.warpgroup_wait 0
// CHECK: sage.accumulate %{{.*}} into %{{.*}} rescale %[[LOOP]]#36

// Without a producer, three stages: block j + 1 is copied at the top of
// the iteration (into block j - 2's stage), and a CTA barrier after the
// P V ends it.
// THREE-STAGES-LABEL: gpu.func @sage_attention
// THREE-STAGES: scf.for
// THREE-STAGES: sage.stage_ring_arm
// THREE-STAGES: sage.stage_ring_wait
// THREE-STAGES: sage.warpgroup_wait 1
// THREE-STAGES: sage.warpgroup_wait 0
// THREE-STAGES: gpu.barrier
// THREE-STAGES-NEXT: scf.yield

// Two stages: block j + 1 goes into block j - 1's stage, once its P V is
// done and every warp passed the barrier.
// TWO-STAGES-LABEL: gpu.func @sage_attention
// TWO-STAGES: scf.for
// TWO-STAGES-NOT: sage.stage_ring_arm
// TWO-STAGES: sage.warpgroup_wait 1
// TWO-STAGES: sage.warpgroup_wait 0
// TWO-STAGES: gpu.barrier
// TWO-STAGES: sage.stage_ring_arm
// TWO-STAGES: scf.yield

// SEQUENTIAL-LABEL: gpu.func @sage_attention
// SEQUENTIAL-NOT: sage.warpgroup_wait 1

// NEGATIVE-WARP: error: 'sage.quantized_attention' op overlap-softmax overlaps wgmma groups; it needs mma-scope=warpgroup (sm_90a)
// NEGATIVE-CP-ASYNC: error: 'sage.quantized_attention' op overlap-softmax needs K/V blocks staged by bulk copies (kv-staging=bulk, operands in tiling = core_matrices); got #sage.mma_ordered<along = features, k = 32>
// NEGATIVE-VALUE: error: unknown overlap-softmax 'sometimes'; expected auto, true or false
// NEGATIVE-STAGES: error: 'sage.quantized_attention' op kv-stages = 4 needs warp-specialize=true or warpgroup-turns=true (without a producer warpgroup or turns the kernel prefetches one K/V block ahead, into two stages, or three with overlap-softmax)
