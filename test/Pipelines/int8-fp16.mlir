// int8-fp16 (the official recipe for sm_80/86, which lack FP8 mma.sync)
// raised from upstream linalg and compiled to PTX for every chip that has
// the f16 m16n8k16 mma.sync: Q K^T through the s8 m16n8k32 row, P V
// through the f16 row with an f32 accumulator; no E4M3 anywhere. ptxas
// assembles the PTX where it is installed. wgmma (the sm_90a default) is
// refused by name.
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_80 variant=int8-fp16" -o %t.sm_80.mlir
// RUN: sage-translate --sage-export-ptx %t.sm_80.mlir -o %t.sm_80.ptx
// RUN: FileCheck %s --implicit-check-not=e4m3 < %t.sm_80.ptx
// RUN: sage-translate --sage-export-plan %t.sm_80.mlir | FileCheck %s --check-prefix=PLAN
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.sm_80.ptx -o %t.sm_80.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_86" | sage-translate --sage-export-ptx -o %t.sm_86.ptx
// RUN: FileCheck %s --check-prefix=SM86 < %t.sm_86.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_86 %t.sm_86.ptx -o %t.sm_86.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_89" | sage-translate --sage-export-ptx -o %t.sm_89.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.sm_89.ptx -o %t.sm_89.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_90a mma-scope=warp" | sage-translate --sage-export-ptx -o %t.sm_90a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.sm_90a.ptx -o %t.sm_90a.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_120a" | sage-translate --sage-export-ptx -o %t.sm_120a.ptx
// RUN: FileCheck %s --check-prefix=SM120 < %t.sm_120a.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_120a %t.sm_120a.ptx -o %t.sm_120a.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16-f16acc" --sage-to-ptx="chip=sm_86" -o %t.f16acc.mlir
// RUN: sage-translate --sage-export-ptx %t.f16acc.mlir -o %t.f16acc.ptx
// RUN: FileCheck %s --check-prefix=F16ACC < %t.f16acc.ptx
// RUN: sage-translate --sage-export-plan %t.f16acc.mlir | FileCheck %s --check-prefix=F16ACC-PLAN
// RUN: %if ptxas %{ %ptxas -arch=sm_86 %t.f16acc.ptx -o %t.f16acc.cubin %}
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_90a" 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: not sage-opt %S/../../examples/attention.mlir --sage-raise-attention="variant=int8-fp16" --sage-to-ptx="chip=sm_75" 2>&1 | FileCheck %s --check-prefix=SM75

// CHECK: .version 8.4
// CHECK: .target sm_80
// CHECK-NOT: .entry sage_value_absmax
// V^T leaves the tile two bytes a key, 16 bytes a store.
// CHECK-LABEL: .visible .entry sage_quantize_v(
// CHECK: ld.shared.b16
// CHECK: st.global.v4.b32
// P is rounded to f16 pairs in registers.
// CHECK-LABEL: .visible .entry sage_attention(
// CHECK: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// CHECK: cvt.rn.f16x2.f32
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// PLAN-NOT: "v_amax"
// PLAN: "name": "v_q",
// PLAN: "type": "f16"
// PLAN: "variant": "int8-fp16"

// SM86: .target sm_86
// SM86: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// int8-fp16-f16acc: V scaled per channel (its channel maxima come back),
// the f16-accumulator row, flushed into f32 by an add of widened halves.
// F16ACC: .entry sage_value_absmax(
// F16ACC-LABEL: .visible .entry sage_attention(
// F16ACC: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// F16ACC: cvt.f32.f16
// F16ACC-PLAN: "name": "v_amax",
// F16ACC-PLAN: "f16_flush_every": 2,
// F16ACC-PLAN: "v": 1023
// F16ACC-PLAN: "variant": "int8-fp16-f16acc",

// SM120: .version 8.7
// SM120: .target sm_120a
// SM120: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// WGMMA: error: 'sage.quantized_attention' op the wgmma kernel implements E4M3 P and V; f16 P and V (int8-fp16) are lowered to the m16n8k16 mma.sync: pass mma-scope=warp
// SM75: error: 'sage.quantized_attention' op needs f16 mma.sync for P*V, which sm_75 lacks; use sm_80 or newer
