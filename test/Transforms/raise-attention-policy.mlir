// RUN: sage-opt %s --allow-unregistered-dialect -split-input-file -verify-diagnostics \
// RUN:   --sage-raise-attention="explain=true policy=encoder_*=int8-fp8-f16acc,decoder_*=none" \
// RUN:   | FileCheck %s
// RUN: not sage-opt %s --allow-unregistered-dialect --sage-raise-attention="policy=encoder=int7" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-RULE

// BAD-RULE: error: policy rule 'encoder=int7' is not GLOB=VARIANT with a variant or 'none'

// No rule matches: the default recipe.
// CHECK-LABEL: func @default_recipe
//       CHECK: sage.attention {{.*}} recipe = #sage.recipe<"int8-fp8">
func.func @default_recipe(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> tensor<8x64x64xf16> {
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  return %0 : tensor<8x64x64xf16>
}

// -----

// A rule on the function name picks the recipe.
// CHECK-LABEL: func @encoder_layer0
//       CHECK: sage.attention {{.*}} recipe = #sage.recipe<"int8-fp8-f16acc">
func.func @encoder_layer0(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> tensor<8x64x64xf16> {
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  return %0 : tensor<8x64x64xf16>
}

// -----

// A rule on the function name leaves it alone.
// CHECK-LABEL: func @decoder_layer0
//   CHECK-NOT: sage.attention
func.func @decoder_layer0(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> tensor<8x64x64xf16> {
  // expected-remark@+1 {{not raised to sage.attention: policy rule 'decoder_*=none' leaves it alone}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  return %0 : tensor<8x64x64xf16>
}

// -----

// A frontend's attribute wins over the rules: on the op a recipe, on the
// function "none".
// CHECK-LABEL: func @encoder_attribute
//       CHECK: sage.attention {{.*}} recipe = #sage.recipe<"int4-fp8", smooth = [k]>
func.func @encoder_attribute(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> tensor<8x64x64xf16> {
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>,
      sage.recipe = #sage.recipe<"int4-fp8", smooth = [k]>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  return %0 : tensor<8x64x64xf16>
}

// CHECK-LABEL: func @kept_in_full_precision
//   CHECK-NOT: sage.attention
func.func @kept_in_full_precision(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
    attributes {sage.recipe = "none"} {
  // expected-remark@+1 {{not raised to sage.attention: its sage.recipe attribute is "none"}}
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16>
  return %0 : tensor<8x64x64xf16>
}
