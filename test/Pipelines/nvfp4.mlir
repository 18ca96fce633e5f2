// nvfp4 (SageAttention3) raised from upstream linalg and compiled to PTX:
// sm_120a, the one chip with the block-scaled m16n8k64 mma.sync, both
// GEMMs through it (ptxas assembles the PTX where it is installed; PTX ISA
// 8.7); any other chip is refused naming the instruction, and wgmma (the
// sm_90a default) naming FP4. With emulate-block-scaled-mma (a test aid)
// sm_90 PTX computes the instruction in lane arithmetic and has none.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=nvfp4" --sage-to-ptx="chip=sm_120a" -o %t.sm_120a.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_120a.mlir -o %t.sm_120a.ptx
// RUN: FileCheck %s < %t.sm_120a.ptx
// RUN: sage-translate --sage-export-plan %t.sm_120a.mlir | FileCheck %s --check-prefix=PLAN
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm_120a.ptx -o %t.sm_120a.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=nvfp4" --sage-to-ptx="chip=sm_100a" 2>&1 | FileCheck %s --check-prefix=SM100
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=nvfp4" --sage-to-ptx="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=nvfp4" --sage-to-ptx="chip=sm_90 emulate-block-scaled-mma=true" | sage-translate --sage-export-ptx -o %t.emulated.ptx
// RUN: FileCheck %s --check-prefix=EMULATED --implicit-check-not=mma.sync < %t.emulated.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.emulated.ptx -o %t.emulated.cubin %}

// CHECK: .version 8.7
// CHECK: .target sm_120a
// CHECK-COUNT-16: mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
// PLAN: "variant": "nvfp4"
// SM100: error: 'sage.warp_mma' op mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 needs sm_120a; the kernels are compiled for sm_100a
// WGMMA: error: 'sage.quantized_attention' op wgmma has no FP4 operands
// EMULATED: .target sm_90
// EMULATED: shfl.sync.idx
