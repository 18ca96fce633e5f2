// --sage-levels="variant=auto": sage-select-variant gives each attention
// its chip's recipe (docs/Recipes.md, "variant=auto") before the levels
// compile it: int8-fp16 on sm_80/86 (no FP8 MMA), int8-fp8-f16acc on sm_89
// and sm_120a (FP8 into f16 accumulators), int8-fp8 on sm_90 (its FP8
// mma.sync is emulated either way) and on sm_90a (wgmma), and on sm_100a
// until a tcgen05 kernel exists. A named variant is checked against each
// op's recipe. The kernels' MMAs a K/V block, and ptxas where installed.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_80 variant=auto" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.sm80.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.sm80.ptx | sort | uniq -c | FileCheck %s --check-prefix=SM80
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 variant=auto" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.sm89.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.sm89.ptx | sort | uniq -c | FileCheck %s --check-prefix=SM89
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.sm89.ptx -o %t.sm89.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_90 variant=auto" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.sm90.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.sm90.ptx | sort | uniq -c | FileCheck %s --check-prefix=SM90
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_90a variant=auto" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.sm90a.ptx
// RUN: grep -o 'wgmma.mma_async[a-z0-9.]*' %t.sm90a.ptx | sort | uniq -c | FileCheck %s --check-prefix=SM90A
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.sm90a.ptx -o %t.sm90a.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_120a variant=auto" | sage-translate --sage-export-ptx --sage-kernel-module=attention_kernel -o %t.sm120a.ptx
// RUN: grep -o 'mma.sync[a-z0-9.]*' %t.sm120a.ptx | sort | uniq -c | FileCheck %s --check-prefix=SM89
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm120a.ptx -o %t.sm120a.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 variant=int8-fp16" 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-levels="chip=sm_89 variant=int9" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// SM80: 32 mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// SM80: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// SM89: 16 mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16
// SM89: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// SM90: 16 mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// SM90: 16 mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// SM90A: 2 wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
// SM90A: 2 wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// NAMED: error: 'sage.attention' op has recipe "int8-fp8" but --sage-levels was asked for variant=int8-fp16
// UNKNOWN: error: unknown variant 'int9'; expected auto, int8-fp8, int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc
