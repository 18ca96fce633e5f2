// RUN: sage-opt %s -split-input-file -verify-diagnostics --sage-raise-attention | FileCheck %s

// sage-opt reads the frontends' ops in MLIR's generic form without
// --allow-unregistered-dialect: their namespaces are placeholder dialects,
// whose attributes and types stay opaque. The attention is raised; the
// other frontend ops are kept as they were.
// CHECK-LABEL: "util.func"() <{function_type = (!hal.buffer_view) -> !hal.buffer_view, sym_name = "iree_module_generic"}>
//       CHECK: ^bb0(%[[VIEW:.*]]: !hal.buffer_view):
//       CHECK: %[[Q:.*]] = "hal.tensor.import"(%[[VIEW]]) {target_encoding = #hal.encoding<"dense">}
//       CHECK: %[[O:.*]] = sage.attention %[[Q]], %[[Q]], %[[Q]]
//       CHECK: %[[R:.*]] = "hal.tensor.export"(%[[O]])
//       CHECK: "util.return"(%[[R]])
"util.func"() <{function_type = (!hal.buffer_view) -> !hal.buffer_view, sym_name = "iree_module_generic"}> ({
^bb0(%view: !hal.buffer_view):
  %q = "hal.tensor.import"(%view) {target_encoding = #hal.encoding<"dense">} : (!hal.buffer_view) -> tensor<8x128x64xf16>
  %init = tensor.empty() : tensor<8x128x64xf16>
  %o = "tm_tensor.attention"(%q, %q, %q, %init) {operandSegmentSizes = array<i32: 3, 1>}
    : (tensor<8x128x64xf16>, tensor<8x128x64xf16>, tensor<8x128x64xf16>, tensor<8x128x64xf16>) -> tensor<8x128x64xf16>
  %r = "hal.tensor.export"(%o) : (tensor<8x128x64xf16>) -> !hal.buffer_view
  "util.return"(%r) : (!hal.buffer_view) -> ()
}) : () -> ()

// -----

func.func @negative_torch_mlir_custom_form(%q: tensor<8x128x64xf16>) -> tensor<8x128x64xf16> {
  // expected-error@+1 {{custom op 'tm_tensor.attention' is in torch-mlir's custom form, which sage-opt does not parse: sage reads these ops in MLIR's generic form ("tm_tensor.attention"(...) : ...); print it with torch-mlir-opt --mlir-print-op-generic, or from Python module.operation.get_asm(print_generic_op_form=True)}}
  %0 = tm_tensor.attention ins(%q, %q, %q : tensor<8x128x64xf16>, tensor<8x128x64xf16>, tensor<8x128x64xf16>) outs(%q : tensor<8x128x64xf16>) -> tensor<8x128x64xf16>
  return %0 : tensor<8x128x64xf16>
}

// -----

func.func @negative_iree_custom_form(%q: tensor<8x128x64xf16>) -> tensor<8x128x64xf16> {
  // expected-error@+1 {{custom op 'iree_linalg_ext.attention' is in IREE's custom form, which sage-opt does not parse: sage reads these ops in MLIR's generic form ("iree_linalg_ext.attention"(...) : ...); print it with iree-opt --mlir-print-op-generic (iree-compile --compile-to=input --mlir-print-op-generic for a model)}}
  %0 = iree_linalg_ext.attention ins(%q, %q, %q : tensor<8x128x64xf16>, tensor<8x128x64xf16>, tensor<8x128x64xf16>) outs(%q : tensor<8x128x64xf16>) -> tensor<8x128x64xf16>
  return %0 : tensor<8x128x64xf16>
}

// -----

func.func @negative_stablehlo_custom_form(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{custom op 'stablehlo.exponential' is in StableHLO (JAX, XLA)'s custom form, which sage-opt does not parse: sage reads these ops in MLIR's generic form ("stablehlo.exponential"(...) : ...); print it with stablehlo-opt --mlir-print-op-generic, or from JAX jax.jit(f).lower(*args).compiler_ir('stablehlo').operation.get_asm(print_generic_op_form=True)}}
  %0 = stablehlo.exponential %a : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// StableHLO's own attributes in generic form stay opaque.
// CHECK-LABEL: func.func @stablehlo_generic
//       CHECK: "stablehlo.dot_general"(%{{.*}}, %{{.*}}) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>}>
func.func @stablehlo_generic(%q: tensor<2x16x32xf32>, %k: tensor<2x24x32xf32>) -> tensor<2x16x24xf32> {
  %s = "stablehlo.dot_general"(%q, %k) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>}>
    : (tensor<2x16x32xf32>, tensor<2x24x32xf32>) -> tensor<2x16x24xf32>
  return %s : tensor<2x16x24xf32>
}
