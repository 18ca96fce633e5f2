// Each frontend form, raised and compiled to PTX in one sage-opt run;
// ptxas assembles it where the CUDA toolkit is installed.
// RUN: sage-opt %S/Inputs/tm_tensor_causal.mlir --allow-unregistered-dialect --sage-raise-attention --sage-to-ptx="chip=sm_90 variant=int8-fp8" -o %t.tm.mlir
// RUN: sage-translate --sage-export-plan %t.tm.mlir | FileCheck %s --check-prefix=TM
// RUN: sage-translate --sage-export-ptx %t.tm.mlir -o %t.tm.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.tm.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.tm.ptx -o %t.tm.cubin %}
// RUN: sage-opt %S/Inputs/iree_attention.mlir --allow-unregistered-dialect --sage-raise-attention --sage-to-ptx="chip=sm_90" -o %t.iree.mlir
// RUN: sage-translate --sage-export-plan %t.iree.mlir | FileCheck %s --check-prefix=IREE
// RUN: sage-translate --sage-export-ptx %t.iree.mlir -o %t.iree.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.iree.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.iree.ptx -o %t.iree.cubin %}
// RUN: sage-opt %S/Inputs/iree_attention_btnh.mlir --allow-unregistered-dialect --sage-raise-attention --sage-to-ptx="chip=sm_90" -o %t.btnh.mlir
// RUN: sage-translate --sage-export-plan %t.btnh.mlir | FileCheck %s --check-prefix=BTNH
// RUN: sage-translate --sage-export-ptx %t.btnh.mlir -o %t.btnh.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.btnh.ptx -o %t.btnh.cubin %}
// RUN: sage-opt %S/Inputs/torch_sdpa_decomposed.mlir --sage-raise-attention --sage-to-ptx="chip=sm_90" -o %t.sdpa.mlir
// RUN: sage-translate --sage-export-plan %t.sdpa.mlir | FileCheck %s --check-prefix=SDPA
// RUN: sage-translate --sage-export-ptx %t.sdpa.mlir -o %t.sdpa.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.sdpa.ptx -o %t.sdpa.cubin %}
// RUN: sage-opt %S/Inputs/stablehlo_btnh.mlir --sage-raise-attention --sage-to-ptx="chip=sm_90" -o %t.shlo.mlir
// RUN: sage-translate --sage-export-plan %t.shlo.mlir | FileCheck %s --check-prefix=SHLO
// RUN: sage-translate --sage-export-ptx %t.shlo.mlir -o %t.shlo.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.shlo.ptx -o %t.shlo.cubin %}
// RUN: sage-opt %S/../../examples/attention.mlir --sage-raise-attention --sage-to-ptx="chip=sm_89" | sage-translate --sage-export-ptx -o %t.linalg.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.linalg.ptx -o %t.linalg.cubin %}

// The materialized mask became `causal` (equal static lengths).
// TM: "causal": true,
// TM: "head_dim": 64,
// TM: "input_type": "f16",
// TM: "layout": [
// TM-NEXT: "batch",
// TM-NEXT: "tokens",
// TM-NEXT: "features"
// TM: "name": "tm_tensor_causal",
// TM: "scale": 0.125,

// IREE: "causal": false,
// IREE: "input_type": "bf16",
// IREE: "layout": [
// IREE-NEXT: "batch",
// IREE-NEXT: "heads",
// IREE-NEXT: "tokens",
// IREE-NEXT: "features"
// IREE: "scale": 0.088{{[0-9]*}},

// PTX: .visible .entry sage_attention(
// PTX: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32

// BTNH: "name": "q",
// BTNH-NEXT: "shape": [
// BTNH-NEXT: "B",
// BTNH-NEXT: "Nq",
// BTNH-NEXT: "H",
// BTNH-NEXT: 64
// BTNH: "layout": [
// BTNH-NEXT: "batch",
// BTNH-NEXT: "tokens",
// BTNH-NEXT: "heads",
// BTNH-NEXT: "features"

// torch's SDPA decomposition: the 4-D values the function takes, with heads.
// SDPA: "name": "q",
// SDPA-NEXT: "shape": [
// SDPA-NEXT: "B",
// SDPA-NEXT: "H",
// SDPA-NEXT: "Nq",
// SDPA-NEXT: 64
// SDPA: "layout": [
// SDPA-NEXT: "batch",
// SDPA-NEXT: "heads",
// SDPA: "scale": 0.125,

// The StableHLO chain on a BTNH layout is read in place.
// SHLO: "input_type": "f32",
// SHLO: "layout": [
// SHLO-NEXT: "batch",
// SHLO-NEXT: "tokens",
// SHLO-NEXT: "heads",
// SHLO-NEXT: "features"
