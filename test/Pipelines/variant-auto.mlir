// --sage-to-ptx variant=auto: the chip's recipe (sage-select-variant,
// docs/Recipes.md), whatever the raised op's was (int8-fp8 by default;
// int8-fp16 for sm_90a, which auto replaces); the plan names it.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_80 variant=auto" | sage-translate --sage-export-plan | FileCheck %s --check-prefix=SM80
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_89 variant=auto" | sage-translate --sage-export-plan | FileCheck %s --check-prefix=SM89
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_89 variant=auto block-k=32" | sage-translate --sage-export-plan | FileCheck %s --check-prefix=SM89-K32
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_90a variant=auto" -o %t.sm_90a.mlir
// RUN: sage-translate --sage-export-plan %t.sm_90a.mlir | FileCheck %s --check-prefix=SM90A
// RUN: sage-translate --sage-export-ptx %t.sm_90a.mlir | FileCheck %s --check-prefix=SM90A-PTX
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_120a variant=auto" | sage-translate --sage-export-plan | FileCheck %s --check-prefix=SM120A
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_75 variant=auto" 2>&1 | FileCheck %s --check-prefix=SM75

// SM80: "variant": "int8-fp16"
// SM89: "variant": "int8-fp8-f16acc"
// K/V blocks of 32 keys cannot hold the f16 accumulator's flush (two MMAs
// of 32 keys): the f32 one, not a refusal.
// SM89-K32: "block_k": 32
// SM89-K32: "variant": "int8-fp8"
// SM90A: "variant": "int8-fp8"
// SM90A-PTX: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// SM120A: "variant": "int8-fp8-f16acc"
// SM75: error: 'sage.attention' op has no recipe on sm_75
