// f16 V^T takes twice E4M3's bytes: the V quantizer's static shared
// memory and the attention kernel's stages are checked against what the
// chip gives a CTA (99 KiB on sm_86, 163 KiB on sm_80) and refused by name.
// RUN: sage-opt %s --sage-to-ptx="chip=sm_80" | sage-translate --sage-export-plan | FileCheck %s --check-prefix=SM80
// RUN: not sage-opt %s --sage-to-ptx="chip=sm_86" 2>&1 | FileCheck %s --check-prefix=SM86
// RUN: not sage-opt %s --sage-to-ptx="chip=sm_80 block-k=128" 2>&1 | FileCheck %s --check-prefix=QUANTIZER

// SM80: "variant": "int8-fp16"
// SM86: error: 'sage.quantized_attention' op the attention kernel needs 109824 bytes of shared memory (kv-stages = 2 stages of K/V blocks), more than the 101376 a CTA may have on sm_86
// QUANTIZER: error: 'sage.quantized_attention' op the V quantizer needs 67584 bytes of shared memory for block-k = 128 and Dv = 256 in 'f16', more than the 49152 a kernel may declare; use a smaller block-k
func.func @big(%q: tensor<?x?x?x256xf16>, %k: tensor<?x?x?x256xf16>, %v: tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp16">}
    : (tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16>
  return %o : tensor<?x?x?x256xf16>
}
