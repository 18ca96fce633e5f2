// RUN: sage-opt %s --sage-split-launchers | FileCheck %s --check-prefix=LAUNCHERS
// RUN: sage-opt %s --sage-split-launchers=keep=model | FileCheck %s --check-prefix=MODEL
// RUN: not sage-opt %s --sage-split-launchers=keep=both 2>&1 | FileCheck %s --check-prefix=BAD

// An outlined module (sage-outline-attention): a model calling one
// attention function, and a global only the model uses.

// keep=launchers: only the function holding the attention.
// LAUNCHERS-NOT: memref.global
// LAUNCHERS-NOT: func.func @model
//     LAUNCHERS: func.func @model_attention_0(
//     LAUNCHERS:   sage.attention
// LAUNCHERS-NOT: func.func

// keep=model: the attention function becomes a declaration naming its
// launcher's C functions; the rest is untouched.
//       MODEL: memref.global "private" constant @bias
//       MODEL: func.func @model(
//       MODEL:   %[[O:.*]] = call @model_attention_0(
//       MODEL:   arith.negf %[[O]]
//       MODEL: func.func private @model_attention_0(tensor<2x4x16x32xf16> {sage.buffer = "q"}, tensor<2x4x16x32xf16> {sage.buffer = "k"}, tensor<2x4x16x32xf16> {sage.buffer = "v"}) -> (tensor<2x4x16x32xf16> {sage.buffer = "o"})
//  MODEL-SAME: attributes {sage.launcher = {last_error = "model_attention_0_last_error", launch = "model_attention_0_launch", workspace_size = "model_attention_0_workspace_size"}}
//   MODEL-NOT: sage.attention

// BAD: error: unknown keep 'both'; expected launchers or model

memref.global "private" constant @bias : memref<2xf16> = dense<[1.0, 2.0]>

func.func @model(%q: tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16> {
  %o = call @model_attention_0(%q, %q, %q) : (tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>
  %n = arith.negf %o : tensor<2x4x16x32xf16>
  return %n : tensor<2x4x16x32xf16>
}

func.func @model_attention_0(%q: tensor<2x4x16x32xf16> {sage.buffer = "q"}, %k: tensor<2x4x16x32xf16> {sage.buffer = "k"},
    %v: tensor<2x4x16x32xf16> {sage.buffer = "v"}) -> (tensor<2x4x16x32xf16> {sage.buffer = "o"}) {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>
  return %o : tensor<2x4x16x32xf16>
}
