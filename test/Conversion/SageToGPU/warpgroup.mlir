// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" | FileCheck %s --implicit-check-not=sage.warp_mma
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90 mma-scope=warpgroup" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-SM90
// RUN: not sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=cta" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-SCOPE
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=AUTO-SM90A --implicit-check-not=sage.warp_mma
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90" | FileCheck %s --check-prefix=AUTO-SM90 --implicit-check-not=sage.warpgroup_mma
// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a mma-scope=warpgroup" | FileCheck %s --check-prefix=TWO-GROUPS --implicit-check-not=sage.warp_mma

// mma-scope=warpgroup: the attention kernel's two products are wgmmas of
// its one warpgroup, A (Q, then P) from registers and B (K, then V^T) from
// the K/V stage through shared-memory descriptors; the stage is stored in
// core matrices (D = 64: K 64 x 64 bytes, V^T 64 x 64, two stages, 16 KiB).

// CHECK: llvm.mlir.global internal @sage_attention_kv() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<16384 x i8>
// CHECK-LABEL: gpu.func @sage_attention(
// The copies' writes are published to the async proxy before the barrier.
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// K's descriptor of the first k-step: leading 1024 bytes (64 rows x 16),
// stride 128 (8 rows x 16): (64 << 16) | (8 << 32).
// CHECK: %[[BASE:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK: %[[ADDRESS:.*]] = arith.addi %[[BASE]], %{{.*}} : i64
// CHECK: %[[MASKED:.*]] = arith.andi %[[ADDRESS]], %c262143_i64
// CHECK: %[[START:.*]] = arith.shrui %[[MASKED]], %c4_i64
// CHECK: %[[FIELDS:.*]] = arith.constant 34363932672 : i64
// CHECK: %[[KDESC:.*]] = arith.ori %[[START]], %[[FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[S0:.*]] = sage.warpgroup_mma %{{.*}}, %[[KDESC]], %{{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = registers, b = i8, b_source = shared, acc = i32, scales = none>} : vector<16xi8> -> vector<32xi32>
// CHECK-NEXT: %[[S:.*]] = sage.warpgroup_mma %{{.*}}, %{{.*}}, %[[S0]]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: vector.extract %[[S]][0] : i32 from vector<32xi32>
// CHECK: sage.online_softmax
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[R0:.*]] = sage.warpgroup_mma %{{.*}} {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>} : vector<16xf8E4M3FN> -> vector<32xf32>
// CHECK-NEXT: %[[R:.*]] = sage.warpgroup_mma %{{.*}}, %{{.*}}, %[[R0]]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: sage.accumulate

// NEGATIVE-SM90: error: mma-scope=warpgroup issues wgmma, which only sm_90a runs; got chip=sm_90
// NEGATIVE-SCOPE: error: unknown mma-scope 'cta'; expected auto, warp or warpgroup

// mma-scope=auto (the default): wgmma where the chip runs it, sm_90a;
// mma.sync elsewhere.
// AUTO-SM90A: sage.warpgroup_mma
// AUTO-SM90: sage.warp_mma

// block-q = 128: two warpgroups, each issuing the wgmmas of its 64 rows on
// the one K/V stage; block-k = 128 is the Q K^T wgmma's n.
// K's descriptors: leading 2048 bytes (128 keys x 16), (128 << 16) |
// (8 << 32); V^T's: leading 1024 (64 channels x 16), (64 << 16) | (8 << 32).
// TWO-GROUPS: gpu.func @sage_attention({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// TWO-GROUPS: arith.constant 34368126976 : i64
// TWO-GROUPS: sage.warpgroup_mma {{.*}}n = 128, k = 32, a = i8{{.*}} : vector<16xi8> -> vector<64xi32>
// TWO-GROUPS: arith.constant 34363932672 : i64
// TWO-GROUPS: sage.warpgroup_mma {{.*}}n = 64, k = 32, a = f8E4M3FN{{.*}} : vector<16xf8E4M3FN> -> vector<32xf32>
func.func @attention(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}
