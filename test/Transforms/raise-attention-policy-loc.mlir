// RUN: sage-opt %s --allow-unregistered-dialect \
// RUN:   --sage-raise-attention="policy=*fragile_head*=none" | FileCheck %s

// A rule on the location (as a frontend records the module path).
// CHECK-LABEL: func @model
//       CHECK: "tm_tensor.attention"
//       CHECK: sage.attention
func.func @model(%q: tensor<8x64x64xf16>, %out: tensor<8x64x64xf16>) -> (tensor<8x64x64xf16>, tensor<8x64x64xf16>) {
  %0 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16> loc("blocks.3.fragile_head.attn")
  %1 = "tm_tensor.attention"(%q, %q, %q, %out) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>, tensor<8x64x64xf16>) -> tensor<8x64x64xf16> loc("blocks.4.attn")
  return %0, %1 : tensor<8x64x64xf16>, tensor<8x64x64xf16>
}

