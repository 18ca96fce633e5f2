// RUN: not sage-opt %s --sage-to-ptx="chip=sm_90 variant=int4-fp8" 2>&1 | FileCheck %s --check-prefix=VARIANT
// RUN: not sage-opt %s --sage-to-ptx="chip=sm_80" 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not sage-opt %s --sage-to-ptx="variant=fp16" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not sage-opt %s --sage-to-ptx="binary-format=cubin" 2>&1 | FileCheck %s --check-prefix=FORMAT

// VARIANT: error: 'sage.attention' op has recipe "int8-fp8" but --sage-to-ptx was asked for variant=int4-fp8
// SM80: error: 'sage.quantized_attention' op needs FP8 (e4m3) mma.sync for P*V, which sm_80 lacks; use sm_89 or newer (int8-fp16 for sm_80/86)
// UNKNOWN: error: unknown variant 'fp16'; expected auto, int8-fp8, int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc
// FORMAT: error: unknown binary-format 'cubin'; expected isa (PTX), bin (a cubin) or fatbin (both)
func.func @attention(%q: tensor<1x4x?x64xf16>, %k: tensor<1x4x?x64xf16>, %v: tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>, tensor<1x4x?x64xf16>) -> tensor<1x4x?x64xf16>
  return %o : tensor<1x4x?x64xf16>
}
