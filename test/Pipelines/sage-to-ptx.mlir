// Raised upstream linalg attention through the whole pipeline to PTX, for
// each FP8-capable chip; ptxas assembles what it emits where it is installed.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_90 variant=int8-fp8" -o %t.sm_90.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_90.mlir -o %t.sm_90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.sm_90.ptx
// RUN: sage-translate --sage-export-plan %t.sm_90.mlir | FileCheck %s --check-prefix=PLAN
// RUN: sage-translate --sage-export-plan --sage-export-name=attention_q128 %t.sm_90.mlir | FileCheck %s --check-prefix=RENAMED
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.sm_90.ptx -o %t.sm_90.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_89" | sage-translate --sage-export-ptx -o %t.sm_89.ptx
// RUN: FileCheck %s --check-prefix=SM89 < %t.sm_89.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.sm_89.ptx -o %t.sm_89.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_90a" -o %t.sm_90a.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_90a.mlir -o %t.sm_90a.ptx
// RUN: sage-translate --sage-export-plan %t.sm_90a.mlir | FileCheck %s --check-prefix=PLAN-SM90A
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.sm_90a.ptx -o %t.sm_90a.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_90a mma-scope=warpgroup" | sage-translate --sage-export-ptx -o %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=WGMMA --implicit-check-not=mma.sync --implicit-check-not=cp.async.cg < %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=WGMMA-BODY < %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=WGMMA-FENCED < %t.wgmma.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.wgmma.ptx -o %t.wgmma.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_120a" | sage-translate --sage-export-ptx -o %t.sm_120a.ptx
// RUN: FileCheck %s --check-prefix=SM120 < %t.sm_120a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm_120a.ptx -o %t.sm_120a.cubin %}

// PTX: .version 8.4
// PTX: .target sm_90
// PTX-LABEL: .visible .entry sage_sum_tokens_d64(
// PTX: atom.global.add.f32
// PTX-LABEL: .visible .entry sage_value_absmax(
// PTX: atom.global.max.u32
// PTX-LABEL: .visible .entry sage_quantize_k(
// PTX: bar.sync
// PTX: cvt.rni.s32.f32
// PTX-LABEL: .visible .entry sage_quantize_v(
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX-LABEL: .visible .entry sage_quantize_q(
// PTX-LABEL: .visible .entry sage_attention(
// Q fragments: one 16-byte load per row and 64-channel group.
// PTX: ld.global.v4.b32
// K/V blocks by cp.async, 16 bytes a copy, none read past the last block
// (the source size operand, 16 or 0); block j + 1's group stays in flight
// while block j is used.
// PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 1;
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX: shfl.sync.bfly.b32
// PTX: ex2.approx.ftz.f32
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// O: two adjacent channels of a row converted together, one 4-byte store.
// PTX-NOT: st.global.b16
// PTX: cvt.rn.f16x2.f32 [[PAIR:%r[0-9]+]]
// PTX: st.global.b32 [{{.*}}], [[PAIR]];
// PTX-NOT: st.global.b16

// The plan exported under another name points to the PTX file of that name.
// RENAMED: "name": "attention_q128",
// RENAMED: "ptx": "attention_q128.ptx",

// mma-scope=warpgroup: both products as wgmma, B through descriptors; K
// and V^T tiles arrive by bulk copies on the stages' mbarriers.
// WGMMA: .target sm_90a
// WGMMA-LABEL: .visible .entry sage_attention(
// WGMMA: mbarrier.init.shared.b64 [sage_attention_kv+[[BARRIER:[0-9]+]]],
// WGMMA: fence.mbarrier_init.release.cluster;
// WGMMA: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [sage_attention_kv+[[BARRIER]]],
// WGMMA: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], %r{{[0-9]+}}, [sage_attention_kv+[[BARRIER]]];
// WGMMA: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// WGMMA: mbarrier.try_wait.parity.shared.b64
// Q K^T with A (the Q tile) through a descriptor too: upstream's
// nvvm.wgmma.mma_async, whose asm sets its scale-d predicate (0 for the
// first: D = A * B). Nothing reads the accumulators before the wait.
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA-NEXT: // begin inline asm
// WGMMA-NEXT: {
// WGMMA-NEXT: .reg .pred p;
// WGMMA-NEXT: setp.ne.b32 p, 0, 0;
// WGMMA-NEXT: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{[{].*[}]}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p;
// WGMMA: setp.ne.b32 p, 1, 0;
// WGMMA-NEXT: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA-NEXT: wgmma.wait_group.sync.aligned 0;

// P V (P from registers: the one instruction in sage's asm, scale-d a
// predicate operand), wherever LLVM's block layout puts it (masking a
// block is a branch).
// WGMMA-BODY-LABEL: .visible .entry sage_attention(
// WGMMA-BODY-DAG: ex2.approx.ftz.f32
// WGMMA-BODY-DAG: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {{[{].*[}]}}, {{[{].*[}]}}, %rd{{[0-9]+}}, %p{{[0-9]+}}, 1, 1;
// No instruction writes a 32-bit register between a wgmma.fence and its
// commit (the PTX ISA leaves a register written there undefined).
// WGMMA-FENCED-LABEL: .visible .entry sage_attention(
// WGMMA-FENCED: wgmma.fence.sync.aligned;
// WGMMA-FENCED-NOT: {{^[[:space:]]*[a-z][a-z0-9._:]*[[:space:]]+%r[0-9]+,}}
// WGMMA-FENCED: wgmma.commit_group.sync.aligned;
// WGMMA-FENCED: wgmma.fence.sync.aligned;
// WGMMA-FENCED-NOT: {{^[[:space:]]*[a-z][a-z0-9._:]*[[:space:]]+%r[0-9]+,}}
// WGMMA-FENCED: wgmma.commit_group.sync.aligned;

// On sm_90a the default is the wgmma kernel with two warpgroups a CTA.
// PLAN-SM90A: "chip": "sm_90a",
// PLAN-SM90A: "tiles": {
// PLAN-SM90A-NEXT: "block_k": 64,
// PLAN-SM90A-NEXT: "block_q": 128,
// PLAN-SM90A-NEXT: "warp_q": 16,
// PLAN-SM90A-NEXT: "warps": 8

// PLAN: "chip": "sm_90",
// PLAN: "kernels": [
// PLAN: "name": "sage_sum_tokens_d64",
// PLAN: "name": "sage_attention",
// PLAN: "layout": [
// PLAN-NEXT: "batch",
// PLAN-NEXT: "tokens",
// PLAN-NEXT: "features"
// PLAN: "scale": 0.125,
// PLAN: "block_q": 64,
// PLAN: "variant": "int8-fp8",

// SM89: .target sm_89
// SM89: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// SM120: .version 8.7
// SM120: .target sm_120a
