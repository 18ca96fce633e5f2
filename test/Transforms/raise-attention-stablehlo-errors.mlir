// RUN: sage-opt %s --sage-raise-attention="explain=true" -split-input-file -verify-diagnostics | FileCheck %s

// Hand-written StableHLO in the generic form JAX prints (from
// test/Pipelines/Inputs/jax/einsum_bnth.mlir, made small): B = 1 and what
// the StableHLO reader refuses, named in the remark.

// B = 1: the unit batch dim is dropped like vmap's, and the attention is
// rank 3 over the heads.
// CHECK-LABEL: func.func public @batch1
//  CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<1x2x16x8xf16>, %[[K:[a-z0-9]+]]: tensor<1x2x16x8xf16>, %[[V:[a-z0-9]+]]: tensor<1x2x16x8xf16>)
//   CHECK-DAG: %[[Q3:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1], [2], [3]]
//   CHECK-DAG: %[[K3:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]]
//   CHECK-DAG: %[[V3:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1], [2], [3]]
//       CHECK: %[[O:.*]] = sage.attention %[[Q3]], %[[K3]], %[[V3]] {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 1.250000e-01 : f64}
//       CHECK: %[[O4:.*]] = tensor.expand_shape %[[O]] {{\[}}[0, 1], [2], [3]]
//       CHECK: return %[[O4]]
//   CHECK-NOT: stablehlo
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "batch1", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1x2x16x8xf16>, %arg1: tensor<1x2x16x8xf16>, %arg2: tensor<1x2x16x8xf16>):
    %0 = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<f16>}> : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<1x2x16x8xf16>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    %3 = "stablehlo.dot_general"(%2, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x16xf16>
    %4 = "stablehlo.convert"(%3) : (tensor<1x2x16x16xf16>) -> tensor<1x2x16x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %22 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x2x16xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<1x2x16xf32>, tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %12 = "stablehlo.subtract"(%4, %11) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %21 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf16>
    %20 = "stablehlo.dot_general"(%19, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x16xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    "func.return"(%20) : (tensor<1x2x16x8xf16>) -> ()
  }) : () -> ()

// -----

// Q*K^T without its dimension numbers: not read, and the IR stays.
// CHECK-LABEL: @negative_dot_without_dimension_numbers
//   CHECK-NOT: sage.attention
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "negative_dot_without_dimension_numbers", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1x2x16x8xf16>, %arg1: tensor<1x2x16x8xf16>, %arg2: tensor<1x2x16x8xf16>):
    %0 = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<f16>}> : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<1x2x16x8xf16>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    %3 = "stablehlo.dot_general"(%2, %arg1) <{precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x16xf16>
    %4 = "stablehlo.convert"(%3) : (tensor<1x2x16x16xf16>) -> tensor<1x2x16x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %22 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x2x16xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<1x2x16xf32>, tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %12 = "stablehlo.subtract"(%4, %11) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %21 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf16>
    // expected-remark@+1 {{not raised to sage.attention: the scores have users besides the softmax ('stablehlo.dot_general' has no #stablehlo.dot dimension numbers to read)}}
    %20 = "stablehlo.dot_general"(%19, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x16xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    "func.return"(%20) : (tensor<1x2x16x8xf16>) -> ()
  }) : () -> ()

// -----

// A row minimum where the softmax takes the maximum.
// CHECK-LABEL: @negative_max_is_a_minimum
//   CHECK-NOT: sage.attention
//   CHECK-NOT: linalg.
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "negative_max_is_a_minimum", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1x2x16x8xf16>, %arg1: tensor<1x2x16x8xf16>, %arg2: tensor<1x2x16x8xf16>):
    %0 = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<f16>}> : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<1x2x16x8xf16>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    %3 = "stablehlo.dot_general"(%2, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x8xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x16xf16>
    %4 = "stablehlo.convert"(%3) : (tensor<1x2x16x16xf16>) -> tensor<1x2x16x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %22 = "stablehlo.minimum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x2x16xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<1x2x16xf32>, tensor<1x2x16xf32>) -> tensor<1x2x16xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %12 = "stablehlo.subtract"(%4, %11) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %21 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<1x2x16x16xf32>, tensor<f32>) -> tensor<1x2x16xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x2x16xf32>) -> tensor<1x2x16x1xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x16x1xf32>) -> tensor<1x2x16x16xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf16>
    // expected-remark@+1 {{not raised to sage.attention: the left operand is not a spelled-out softmax ('stablehlo.reduce' has a body other than one maximum or add)}}
    %20 = "stablehlo.dot_general"(%19, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<1x2x16x16xf16>, tensor<1x2x16x8xf16>) -> tensor<1x2x16x8xf16>
    "func.return"(%20) : (tensor<1x2x16x8xf16>) -> ()
  }) : () -> ()
