// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" | FileCheck %s --implicit-check-not=sage.warp_mma --implicit-check-not=nvgpu.device_async_copy --implicit-check-not=nvvm.fence.proxy
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90 mma-scope=warpgroup" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-SM90
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=cta" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-SCOPE
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=AUTO-SM90A --implicit-check-not=sage.warp_mma
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90" | FileCheck %s --check-prefix=AUTO-SM90 --implicit-check-not=sage.warpgroup_mma
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" | FileCheck %s --check-prefix=TWO-GROUPS --implicit-check-not=sage.warp_mma
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a kv-staging=cp-async" | FileCheck %s --check-prefix=CP-ASYNC --implicit-check-not=sage.stage_ring
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90 kv-staging=bulk" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-BULK-WARP
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=true kv-stages=3" | FileCheck %s --check-prefix=WS --implicit-check-not=nvgpu.device_async_copy
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=true kv-staging=cp-async" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-WS-CP-ASYNC
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=false kv-stages=3 kv-staging=cp-async" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGES-CP-ASYNC
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a kv-stages=1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGES
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=false kv-stages=3" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGES-ONE-ROLE
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a kv-stages=3" | FileCheck %s --check-prefix=AUTO-STAGES
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=true kv-stages=32" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-SHARED
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a kv-staging=tma" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-STAGING

// mma-scope=warpgroup: the attention kernel's two products are wgmmas of
// its one warpgroup, A (the Q tile, then P from registers) and B (K, then
// V^T) through shared-memory descriptors; the stage is stored in core
// matrices (D = 64: K 64 x 64 bytes, V^T 64 x 64, two stages, 16 KiB, then
// the stages' two mbarriers and the Q tile's, then at 16416 the 4 KiB Q
// tile). Q, K and V are quantized in those tiles (tiling = core_matrices),
// so a K/V block is two bulk copies and the Q tile one.

// K's quantizer stores channel c of token r in its block's tile: the
// 16-byte column c / 16 at (c / 16) * 1024 (64 rows x 16 bytes), the row
// at (r % 64) * 16. (The first thread of a token holds channels 0..31, the
// second 32..63.)
// CHECK-LABEL: gpu.func @sage_quantize_k
// CHECK: %[[K_POS:.*]] = arith.select %{{.*}}, %c0_i32{{.*}}, %c32_i32{{.*}} : i32
// CHECK: %[[K_COLUMN:.*]] = arith.remui %[[K_POS]], %c64_i32{{.*}} : i32
// CHECK: %[[K_CHUNK:.*]] = arith.divui %[[K_COLUMN]], %c16_i32{{.*}} : i32
// CHECK: arith.muli %[[K_CHUNK]], %c1024_i32 : i32
// CHECK: llvm.getelementptr %arg2
// CHECK-NEXT: llvm.store
// CHECK: llvm.mlir.global internal @sage_attention_kv() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<20512 x i8>
// CHECK-LABEL: gpu.func @sage_attention(
// The stages' barriers are a ring of two stages at 16384 (consumers
// release them by a CTA barrier: none on the ring), the Q tile's a ring of
// one at 16400. Thread 0 initializes both and publishes them before any
// thread waits.
// CHECK: %[[STAGES:.*]] = llvm.mlir.addressof @sage_attention_kv : !llvm.ptr<3>
// CHECK: %[[RING:.*]] = sage.stage_ring %[[STAGES]][%c16384_i32{{.*}}] : !sage.stage_ring<stages = 2>
// CHECK: %[[QRING:.*]] = sage.stage_ring %[[STAGES]][%c16400_i32{{.*}}] : !sage.stage_ring<stages = 1>
// CHECK: sage.stage_ring_init %[[RING]] : !sage.stage_ring<stages = 2>
// CHECK-NEXT: sage.stage_ring_init %[[QRING]] : !sage.stage_ring<stages = 1>
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// Thread 0 copies the Q tile (4 KiB) to 16416 on its barrier, which every
// thread waits for.
// CHECK: %[[QBAR:.*]] = sage.stage_ring_arm %[[QRING]][%c0_i32{{.*}}], 4096 : !sage.stage_ring<stages = 1>
// CHECK: %[[QTILE:.*]] = llvm.getelementptr %[[STAGES]][%c16416_i32{{.*}}]
// CHECK: %[[QDST:.*]] = llvm.addrspacecast %[[QTILE]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %[[QDST]], %{{.*}}, %[[QBAR]], %c4096_i32{{.*}} : !llvm.ptr<7>, <1>
// CHECK: sage.stage_ring_wait %[[QRING]][%c0_i32{{.*}}] : !sage.stage_ring<stages = 1>
// Block 0: the barrier expects 8 KiB, K's tile and V^T's, 4 KiB a copy.
// CHECK: %[[BAR0:.*]] = sage.stage_ring_arm %[[RING]][%c0_i32{{.*}}], 8192
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR0]], %c4096_i32{{.*}} : !llvm.ptr<7>, <1>
// CHECK: nvvm.cp.async.bulk.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR0]], %c4096_i32{{.*}} : !llvm.ptr<7>, <1>
// CHECK: scf.for %[[J:.*]] = %c0_i32{{.*}} to
// The next block's copies go to its stage's barrier ...
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %c1_i32
// CHECK: sage.stage_ring_arm %[[RING]][%[[NEXT]]], 8192
// CHECK-COUNT-2: nvvm.cp.async.bulk.shared.cluster.global
// ... and block j waits for its own.
// CHECK: sage.stage_ring_wait %[[RING]][%[[J]]] : !sage.stage_ring<stages = 2>
// CHECK-NEXT: gpu.barrier
// The descriptors of the first k-step, Q's at 16416 + 64 * 16 * (warp / 4)
// (the warpgroup's rows), then K's; both leading 1024 bytes (64 rows x
// 16), stride 128 (8 rows x 16), through the Q K^T wgmma's row.
// CHECK: %[[QROWS:.*]] = arith.addi %c16416_i32{{.*}}, %{{.*}} : i32
// CHECK: %[[QSTEP:.*]] = arith.addi %[[QROWS]], %c0_i32{{.*}} : i32
// CHECK-NEXT: %[[QBASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK-NEXT: %[[QOFFSET:.*]] = arith.extsi %[[QSTEP]] : i32 to i64
// CHECK-NEXT: %[[QADDRESS:.*]] = arith.addi %[[QBASE]], %[[QOFFSET]] : i64
// CHECK-NEXT: %[[QDESC:.*]] = sage.matrix_descriptor %[[QADDRESS]] {leading = 1024 : i64, mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared{{.*}}>, stride = 128 : i64}
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %{{.*}} : i64
// CHECK-NEXT: %[[KDESC:.*]] = sage.matrix_descriptor %[[ADDRESS]] {leading = 1024 : i64, mma = #sage.mma<{{.*}}>, stride = 128 : i64}
// No register operand passes the fence; the first wgmma starts the
// accumulator (no acc operand), the second adds to it, and the scores are
// read through the wait.
// CHECK: sage.warpgroup_fence{{$}}
// CHECK-NEXT: %[[S0:.*]] = sage.warpgroup_mma %[[QDESC]], %[[KDESC]] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>} : i64 -> vector<32xi32>
// CHECK-NEXT: %[[S1:.*]] = sage.warpgroup_mma %{{.*}}, %{{.*}}, %[[S0]]
// CHECK-NEXT: %[[SG:.*]] = sage.warpgroup_commit(%[[S1]] : vector<32xi32>)
// CHECK-NEXT: %[[S:.*]] = sage.warpgroup_wait 0 on %[[SG]], %[[S1]] : vector<32xi32>
// CHECK-NEXT: vector.extract %[[S]][0] : i32 from vector<32xi32>
// Only a block holding keys past Nk (its last key, start + 63, >= Nk) is
// masked; the others skip sage.mask_scores (not causal here).
// CHECK: %[[SCORES:.*]] = vector.from_elements {{.*}} : vector<32xf32>
// CHECK-NEXT: %[[C63:.*]] = arith.constant 63 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[START:.*]], %[[C63]] : i32
// CHECK-NEXT: %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %[[NK:.*]] : i32
// CHECK-NEXT: scf.if %[[PADDED]] -> (vector<32xf32>) {
// CHECK-NEXT: %[[MASKED:.*]] = sage.mask_scores %[[SCORES]] at [%{{.*}}, %[[START]]] of [%{{.*}}, %[[NK]]]
// CHECK-NEXT: scf.yield %[[MASKED]] : vector<32xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[SCORES]] : vector<32xf32>
// CHECK: sage.online_softmax
// CHECK: %[[P:.*]]:2 = sage.warpgroup_fence(%{{.*}}, %{{.*}} : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>)
// CHECK-NEXT: %[[R0:.*]] = sage.warpgroup_mma %[[P]]#0, %{{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : vector<16xf8E4M3FN> -> vector<32xf32>
// CHECK-NEXT: %[[R1:.*]] = sage.warpgroup_mma %[[P]]#1, %{{.*}}, %[[R0]]
// CHECK-NEXT: %[[RG:.*]] = sage.warpgroup_commit(%[[R1]] : vector<32xf32>)
// The wait also passes P's registers, which the wgmmas read until then.
// CHECK-NEXT: %[[R:.*]]:3 = sage.warpgroup_wait 0 on %[[RG]], %[[R1]], %[[P]]#0, %[[P]]#1 : vector<32xf32>, vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
// CHECK-NEXT: vector.extract %[[R]]#0[0] : f32 from vector<32xf32>
// CHECK: sage.accumulate

// NEGATIVE-SM90: error: mma-scope=warpgroup issues wgmma, which only sm_90a runs; got chip=sm_90
// NEGATIVE-SCOPE: error: unknown mma-scope 'cta'; expected auto, warp or warpgroup

// mma-scope=auto (the default): wgmma where the chip runs it, sm_90a;
// mma.sync elsewhere.
// AUTO-SM90A: sage.warpgroup_mma
// AUTO-SM90: sage.warp_mma

// block-q = 128: two warpgroups, each issuing the wgmmas of its 64 rows on
// the one K/V stage; block-k = 128 is the Q K^T wgmma's n.
// Q's descriptors: leading 2048 bytes (128 rows x 16), the warpgroup's
// rows 1024 bytes (64 x 16) a warpgroup in; K's: leading 2048 (128 keys x
// 16); V^T's: leading 1024 (64 channels x 16); all stride 128.
// TWO-GROUPS: gpu.func @sage_attention({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// TWO-GROUPS: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32
// The Q tile at 32800, after 32 KiB of stages and three barriers.
// TWO-GROUPS: %[[GROUP:.*]] = arith.divui %[[WARP]], %c4_i32{{.*}} : i32
// TWO-GROUPS-NEXT: %[[ROW_BYTES:.*]] = arith.constant 1024 : i32
// TWO-GROUPS-NEXT: %[[GROUP_ROWS:.*]] = arith.muli %[[GROUP]], %[[ROW_BYTES]] : i32
// TWO-GROUPS-NEXT: %[[TILE:.*]] = arith.constant 32800 : i32
// TWO-GROUPS-NEXT: %[[QROWS:.*]] = arith.addi %[[TILE]], %[[GROUP_ROWS]] : i32
// TWO-GROUPS: %[[QDESC:.*]] = sage.matrix_descriptor %{{.*}} {leading = 2048 : i64, mma = #sage.mma<{{.*}}n = 128{{.*}}>, stride = 128 : i64}
// TWO-GROUPS: sage.warpgroup_fence{{$}}
// TWO-GROUPS-NEXT: sage.warpgroup_mma %[[QDESC]], %{{.*}} {{.*}}n = 128, k = 32, a = i8, a_source = shared{{.*}} : i64 -> vector<64xi32>
// TWO-GROUPS: sage.matrix_descriptor %{{.*}} {leading = 1024 : i64, mma = #sage.mma<{{.*}}n = 64, k = 32, a = f8E4M3FN{{.*}}>, stride = 128 : i64}
// TWO-GROUPS: sage.warpgroup_mma {{.*}}n = 64, k = 32, a = f8E4M3FN{{.*}} : vector<16xf8E4M3FN> -> vector<32xf32>
func.func @attention(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// kv-staging=cp-async: the operands are stored row after row and the
// threads copy K/V rows into the stage's core matrices 16 bytes at a time,
// then publish them to the async proxy that wgmma reads through.
// CP-ASYNC: gpu.func @sage_quantize_k
// CP-ASYNC: gpu.func @sage_attention(
// The Q tile the same way, waited for before the loop.
// CP-ASYNC: nvgpu.device_async_copy
// CP-ASYNC: %[[Q_GROUP:.*]] = nvgpu.device_async_create_group
// CP-ASYNC-NEXT: nvgpu.device_async_wait %[[Q_GROUP]] {numGroups = 0 : i32}
// CP-ASYNC-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CP-ASYNC-NEXT: gpu.barrier
// CP-ASYNC: nvgpu.device_async_copy
// CP-ASYNC: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CP-ASYNC-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CP-ASYNC-NEXT: gpu.barrier
// CP-ASYNC: sage.warpgroup_mma

// NEGATIVE-BULK-WARP: error: kv-staging=bulk copies the core-matrix tiles that only the wgmma kernel reads; got mma-scope=auto on sm_90
// NEGATIVE-STAGING: error: unknown kv-staging 'tma'; expected auto, cp-async or bulk

// warp-specialize=true kv-stages=3: a producer warpgroup and the consumer
// warpgroup (block-q = 64). Three stages of 8 KiB, then three "full"
// barriers (the copies complete them) and three "empty" ones (the 128
// consumer threads release a stage on them), the Q tile's barrier, then at
// 24640 the Q tile. D = 64 lets two CTAs share an SM: 256 threads start
// with 128 registers; the producer keeps 24 and the consumers grow to 232.
// WS: llvm.mlir.global internal @sage_attention_kv() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<28736 x i8>
// WS-LABEL: gpu.func @sage_attention(
// WS-SAME: known_block_size = array<i32: 256, 1, 1>
// WS: %[[RING:.*]] = sage.stage_ring %{{.*}}[%c24576_i32{{(_[0-9]+)?}}] : !sage.stage_ring<stages = 3, consumers = 128>
// WS: %[[QRING:.*]] = sage.stage_ring %{{.*}}[%c24624_i32{{(_[0-9]+)?}}] : !sage.stage_ring<stages = 1>
// WS: sage.stage_ring_init %[[RING]]
// WS-NEXT: sage.stage_ring_init %[[QRING]]
// WS-NEXT: nvvm.fence.mbarrier.init
// WS: gpu.barrier
// WS: sage.warp_specialize warps = [4, 4] registers = [24, 232] {
// WS-NEXT: ^bb0(%[[PRODUCER:.*]]: i32):
// WS: arith.cmpi eq, %[[PRODUCER]], %c0_i32
// The producer's thread 0: block j waits for the release of block j - 3,
// then arms its stage's full barrier and copies K and V^T.
// WS: scf.for %[[PJ:[^ ]*]] =
// WS: sage.stage_ring_acquire %[[RING]][%[[PJ]]]
// WS: sage.stage_ring_arm %[[RING]][%[[PJ]]], 8192
// WS-COUNT-2: nvvm.cp.async.bulk.shared.cluster.global
// WS: }, {
// WS-NEXT: ^bb0(%[[CONSUMER:.*]]: i32):
// The consumers' barriers are their own (bar.sync 1, 128); each block
// waits on its full barrier and ends by arriving on its empty one.
// WS: nvvm.barrier id = %c1_i32{{(_[0-9]+)?}} number_of_threads = %c128_i32
// Their thread 0 (not the CTA's, a producer thread) copies the Q tile,
// which they all wait for.
// WS: %[[QISSUER:.*]] = arith.cmpi eq, %[[CONSUMER]], %c0_i32{{(_[0-9]+)?}} : i32
// WS-NEXT: scf.if %[[QISSUER]] {
// WS: %[[QTILE:.*]] = llvm.getelementptr %{{.*}}[%c24640_i32{{(_[0-9]+)?}}]
// WS-NEXT: %[[QDST:.*]] = llvm.addrspacecast %[[QTILE]]
// WS: nvvm.cp.async.bulk.shared.cluster.global %[[QDST]]
// WS: sage.stage_ring_wait %[[QRING]][%c0_i32{{(_[0-9]+)?}}]
// WS: scf.for %[[CJ:[^ ]*]] =
// WS: sage.stage_ring_wait %[[RING]][%[[CJ]]]
// WS: nvvm.barrier id = %c1_i32{{(_[0-9]+)?}} number_of_threads = %c128_i32
// WS: sage.warpgroup_mma
// WS: sage.stage_ring_release %[[RING]][%[[CJ]]]
// WS-NEXT: scf.yield

// NEGATIVE-WS-CP-ASYNC: error: 'sage.quantized_attention' op warp-specialize needs K/V blocks staged by bulk copies (kv-staging=bulk, operands in tiling = core_matrices); got #sage.mma_ordered<along = features, k = 32>
// NEGATIVE-STAGES-CP-ASYNC: error: 'sage.quantized_attention' op kv-stages = 3 needs K/V blocks staged by bulk copies (kv-staging=bulk, operands in tiling = core_matrices); got #sage.mma_ordered<along = features, k = 32>
// NEGATIVE-STAGES: error: kv-stages must be at least 2 (one K/V block in use while the next arrives), or 0 for auto; got 1
// warp-specialize=auto with more than two stages takes the producer that
// fills them (three full barriers, three empty ones).
// AUTO-STAGES: llvm.mlir.global internal @sage_attention_kv() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<28736 x i8>
// AUTO-STAGES: sage.warp_specialize warps = [4, 4] registers = [24, 232]
// NEGATIVE-STAGES-ONE-ROLE: error: 'sage.quantized_attention' op kv-stages = 3 needs warp-specialize=true or warpgroup-turns=true (without a producer warpgroup or turns the kernel prefetches one K/V block ahead, into two stages)
// 32 stages of 8 KiB, 64 barriers and the Q tile's (aligned to 16), the
// Q tile, qbar and two dS buffers: 262144 + 528 + 4096 + 4 * (64 + 128).
// NEGATIVE-SHARED: error: 'sage.quantized_attention' op the attention kernel needs 267536 bytes of shared memory (kv-stages = 32 stages of K/V blocks and the Q tile), more than the 232448 a CTA may have

