// INT4 Q/K (int4-fp8 and SageAttention2++'s int4-fp8-f16acc) raised from
// upstream linalg and compiled to PTX for the chips with FP8 mma.sync:
// Q K^T through the m16n8k64 s4 mma.sync (no wgmma exists for INT4);
// ptxas assembles the PTX where it is installed.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-to-ptx="chip=sm_89 variant=int4-fp8" -o %t.sm_89.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_89.mlir -o %t.sm_89.ptx
// RUN: FileCheck %s --implicit-check-not=s32.s8.s8.s32 < %t.sm_89.ptx
// RUN: sage-translate --sage-export-plan %t.sm_89.mlir | FileCheck %s --check-prefix=PLAN
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.sm_89.ptx -o %t.sm_89.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8-f16acc" --sage-to-ptx="chip=sm_120a" | sage-translate --sage-export-ptx -o %t.sm_120a.ptx
// RUN: FileCheck %s --check-prefix=F16ACC < %t.sm_120a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm_120a.ptx -o %t.sm_120a.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int4-fp8" --sage-to-ptx="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA

// CHECK: .version 8.4
// CHECK: .target sm_89
// CHECK-LABEL: .visible .entry sage_quantize_k(
// CHECK: shl.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 28;
// CHECK-LABEL: .visible .entry sage_attention(
// CHECK: mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// CHECK: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32

// PLAN: "variant": "int4-fp8"

// F16ACC: .version 8.7
// F16ACC: .target sm_120a
// F16ACC: mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32
// F16ACC: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16

// WGMMA: error: 'sage.quantized_attention' op wgmma has no INT4 operands; INT4 Q/K is lowered to the m16n8k64 mma.sync: pass mma-scope=warp
