// RUN: sage-opt %s --sage-select-variant=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: sage-opt %s --sage-select-variant=chip=sm_86 | FileCheck %s --check-prefix=SM80
// RUN: sage-opt %s --sage-select-variant=chip=sm_89 | FileCheck %s --check-prefix=F16ACC
// RUN: sage-opt %s --sage-select-variant=chip=sm_120a | FileCheck %s --check-prefix=F16ACC
// RUN: sage-opt %s --sage-select-variant="chip=sm_89 block-k=128" | FileCheck %s --check-prefix=F16ACC
// RUN: sage-opt %s --sage-select-variant="chip=sm_89 block-k=32" | FileCheck %s --check-prefix=INT8FP8
// RUN: sage-opt %s --sage-select-variant="chip=sm_120a block-k=32" | FileCheck %s --check-prefix=INT8FP8
// RUN: sage-opt %s --sage-select-variant=chip=sm_90 | FileCheck %s --check-prefix=INT8FP8
// RUN: sage-opt %s --sage-select-variant=chip=sm_90a | FileCheck %s --check-prefix=INT8FP8
// RUN: sage-opt %s --sage-select-variant=chip=sm_100a | FileCheck %s --check-prefix=INT8FP8
// RUN: not sage-opt %s --sage-select-variant=chip=sm_75 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not sage-opt %s --sage-select-variant=chip=ampere 2>&1 | FileCheck %s --check-prefix=BAD

// variant=auto: each chip's recipe (docs/Recipes.md). The variant and its
// default ranges change; the Q/K granularity and the smoothing stay, but
// nvfp4's microscale granularity, which only nvfp4 takes. K/V blocks of 32
// keys cannot hold the f16 accumulator's flush of two 32-key MMAs: sm_89
// and sm_120 then get the f32 accumulator (int8-fp8).

// SM80-LABEL: func @default_recipe
//       SM80:   recipe = #sage.recipe<"int8-fp16">
// SM80-LABEL: func @per_warp_k_smoothing
//       SM80:   recipe = #sage.recipe<"int8-fp16", qk = per_warp, smooth = [k]>
// SM80-LABEL: func @narrowed_ranges
//       SM80:   recipe = #sage.recipe<"int8-fp16">
// SM80-LABEL: func @nvfp4
//       SM80:   recipe = #sage.recipe<"int8-fp16", smooth = [k]>

// F16ACC-LABEL: func @default_recipe
//       F16ACC:   recipe = #sage.recipe<"int8-fp8-f16acc">
// F16ACC-LABEL: func @per_warp_k_smoothing
//       F16ACC:   recipe = #sage.recipe<"int8-fp8-f16acc", qk = per_warp, smooth = [k]>
// F16ACC-LABEL: func @narrowed_ranges
//       F16ACC:   recipe = #sage.recipe<"int8-fp8-f16acc">
// F16ACC-LABEL: func @nvfp4
//       F16ACC:   recipe = #sage.recipe<"int8-fp8-f16acc", smooth = [k]>

// INT8FP8-LABEL: func @default_recipe
//       INT8FP8:   recipe = #sage.recipe<"int8-fp8">
// INT8FP8-LABEL: func @narrowed_ranges
//       INT8FP8:   recipe = #sage.recipe<"int8-fp8">
// INT8FP8-LABEL: func @nvfp4
//       INT8FP8:   recipe = #sage.recipe<"int8-fp8", smooth = [k]>

// SM75: error: 'sage.attention' op has no recipe on sm_75: every recipe needs the INT8 and f16 mma.sync of sm_80 or newer
// BAD: error: unknown chip 'ampere'; expected sm_<version>[a], e.g. sm_90a

func.func @default_recipe(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}

func.func @per_warp_k_smoothing(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int4-fp8", qk = per_warp, smooth = [k]>}
    : (tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}

func.func @narrowed_ranges(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8-f16acc", p_range = 448.0, v_range = 2.25>}
    : (tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}

func.func @nvfp4(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"nvfp4", smooth = [k]>}
    : (tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}
