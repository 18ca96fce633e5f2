// SageAttention2++ (int8-fp8-f16acc) raised from upstream linalg and
// compiled to PTX for the chips with FP8 mma.sync: P V through the FP8
// mma.sync with an f16 accumulator, which needs PTX ISA 8.7 (the MMA table
// raises the module's version; LLVM would emit it under 8.4 and ptxas
// would refuse it), each pair of MMAs flushed into the f32 buffer by
// cvt + fma. ptxas assembles the PTX where it is installed.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-to-ptx="chip=sm_89 variant=int8-fp8-f16acc" -o %t.sm_89.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_89.mlir -o %t.sm_89.ptx
// RUN: FileCheck %s --implicit-check-not=f32.e4m3.e4m3.f32 < %t.sm_89.ptx
// RUN: sage-translate --sage-export-plan %t.sm_89.mlir | FileCheck %s --check-prefix=PLAN
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.sm_89.ptx -o %t.sm_89.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-to-ptx="chip=sm_120a" | sage-translate --sage-export-ptx -o %t.sm_120a.ptx
// RUN: FileCheck %s --check-prefix=SM120 < %t.sm_120a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm_120a.ptx -o %t.sm_120a.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-to-ptx="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp8-f16acc" --sage-to-ptx="chip=sm_90a mma-scope=warp" | sage-translate --sage-export-ptx | FileCheck %s --check-prefix=SM90A

// CHECK: .version 8.7
// CHECK: .target sm_89
// CHECK-LABEL: .visible .entry sage_attention(
// CHECK: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// CHECK: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32

// PLAN: "variant": "int8-fp8-f16acc"

// SM120: .version 8.7
// SM120: .target sm_120a
// SM120: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16

// WGMMA: error: 'sage.quantized_attention' op the wgmma kernel implements the f32 P V accumulator; #sage.accum<f16, every = 2> (SageAttention2++) is lowered to mma.sync: pass mma-scope=warp

// SM90A: .version 8.7
// SM90A: .target sm_90a
// SM90A: mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
