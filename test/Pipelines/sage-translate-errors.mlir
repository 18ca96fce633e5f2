// RUN: not sage-translate --sage-export-ptx %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not sage-translate --sage-export-header %s 2>&1 | FileCheck %s --check-prefix=NO-LAUNCHERS
// RUN: sage-opt %S/../../benchmarks/kernels.mlir --sage-to-ptx=chip=sm_89 -o %t.mlir
// RUN: not sage-translate --sage-export-plan %t.mlir 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not sage-translate --sage-export-plan --sage-kernel-module=nope %t.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: sage-translate --sage-export-plan --sage-kernel-module=attention_d64_bf16 %t.mlir | FileCheck %s --check-prefix=ONE

// NONE: error: no sage.launch_plans: run --sage-to-ptx first
// NO-LAUNCHERS: error: no host launchers: run --sage-to-ptx or --sage-to-llvm first
// MANY: error: the input has 26 kernel modules; pick one with --sage-kernel-module: attention_d112_f16 attention_d128_bf16 attention_d128_bf16_causal attention_d128_bf16_causal_top_left_lse attention_d128_f16 attention_d128_f16_causal attention_d128_f16_causal_k_smoothing attention_d128_f16_k_smoothing attention_d128_f16_lse attention_d128_f16_mask_f16_heads1 attention_d128_f16_mask_i1 attention_d256_f16 attention_d256_f16_causal attention_d48_bf16 attention_d64_bf16 attention_d64_bf16_causal attention_d64_bf16_causal_lse attention_d64_bf16_causal_mask_f32_batch1_lse attention_d64_f16 attention_d64_f16_causal attention_d64_f16_causal_k_smoothing attention_d64_f16_causal_top_left attention_d64_f16_k_smoothing attention_d80_f16_causal attention_d96_f16 attention_d96_f16_causal
// UNKNOWN: error: no kernel module 'nope'
// ONE: "input_type": "bf16",
// ONE: "name": "attention_d64_bf16",
module {
}
