// RUN: sage-opt %s --sage-decompose-attention="store-values" | FileCheck %s

// store-values: V's E4M3 values are written as the P V MMA reads them,
// [batch, heads, features, groups of 32 keys, 32], position q of group g
// holding key 32 g + the accumulator order's key at q (docs/Layouts.md),
// zero past the last key, and the core takes them with that v_layout.
//   CHECK-DAG: #[[KEY:.+]] = affine_map<(d0, d1) -> (d0 * 32 + (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
// CHECK-LABEL: func.func @stored_values
//       CHECK:   %[[VALUES:.+]], %[[SCALES:.+]] = sage.quantize %{{.*}} {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<2x4x70x64xf16> -> tensor<2x4x70x64xf8E4M3FN>, tensor<2x4x1x64xf32>
//       CHECK:   %[[INIT:.+]] = tensor.empty(%{{.*}}) : tensor<2x4x64x?x32xf8E4M3FN>
//       CHECK:   %[[STORED:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%[[INIT]] : tensor<2x4x64x?x32xf8E4M3FN>)
//       CHECK:     %[[B:.+]] = linalg.index 0
//       CHECK:     %[[H:.+]] = linalg.index 1
//       CHECK:     %[[D:.+]] = linalg.index 2
//       CHECK:     %[[G:.+]] = linalg.index 3
//       CHECK:     %[[Q:.+]] = linalg.index 4
//       CHECK:     %[[K:.+]] = affine.apply #[[KEY]](%[[G]], %[[Q]])
//       CHECK:     %[[INSIDE:.+]] = arith.cmpi ult, %[[K]], %[[TOKENS:.+]] : index
//       CHECK:     %[[READ:.+]] = arith.select %[[INSIDE]], %[[K]], %{{.*}} : index
//       CHECK:     %[[V:.+]] = tensor.extract %[[VALUES]][%[[B]], %[[H]], %[[READ]], %[[D]]]
//       CHECK:     %[[OUT:.+]] = arith.select %[[INSIDE]], %[[V]], %{{.*}} : f8E4M3FN
//       CHECK:     linalg.yield %[[OUT]]
//       CHECK:   sage.quantized_attention {{.*}} v(%[[STORED]], %[[SCALES]]) {{.*}}v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
//  CHECK-SAME:     tensor<2x4x64x?x32xf8E4M3FN>
func.func @stored_values(%q: tensor<2x8x100x64xf16>, %k: tensor<2x4x70x64xf16>,
                         %v: tensor<2x4x70x64xf16>) -> tensor<2x8x100x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x8x100x64xf16>, tensor<2x4x70x64xf16>, tensor<2x4x70x64xf16>) -> tensor<2x8x100x64xf16>
  return %o : tensor<2x8x100x64xf16>
}

// f16 V (int8-fp16) stays as it is: only 8-bit V has the k = 32 layout.
// CHECK-LABEL: func.func @f16_values
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   v_layout
//       CHECK:   return
func.func @f16_values(%q: tensor<2x8x100x64xf16>, %k: tensor<2x4x70x64xf16>,
                      %v: tensor<2x4x70x64xf16>) -> tensor<2x8x100x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp16">}
    : (tensor<2x8x100x64xf16>, tensor<2x4x70x64xf16>, tensor<2x4x70x64xf16>) -> tensor<2x8x100x64xf16>
  return %o : tensor<2x8x100x64xf16>
}
