// Two of JAX's einsum_bnth attentions (test/Pipelines/Inputs/jax) in a row,
// the second's Q the first's output: each is raised on its own.
"builtin.module"() <{sym_name = "jit_einsum_bnth"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x8x1024x64xf16>, %arg1: tensor<2x8x1024x64xf16>, %arg2: tensor<2x8x1024x64xf16>):
    %0 = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<f16>}> : () -> tensor<f16>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<2x8x1024x64xf16>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>
    %3 = "stablehlo.dot_general"(%2, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x1024xf16>
    %4 = "stablehlo.convert"(%3) : (tensor<2x8x1024x1024xf16>) -> tensor<2x8x1024x1024xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %22 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1024x1024xf32>, tensor<f32>) -> tensor<2x8x1024xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<2x8x1024xf32>, tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1024xf32>) -> tensor<2x8x1024x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x1024x1xf32>) -> tensor<2x8x1024x1024xf32>
    %12 = "stablehlo.subtract"(%4, %11) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %21 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1024x1024xf32>, tensor<f32>) -> tensor<2x8x1024xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1024xf32>) -> tensor<2x8x1024x1xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x1024x1xf32>) -> tensor<2x8x1024x1024xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf16>
    %20 = "stablehlo.dot_general"(%19, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x1024x1024xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>
    %x0 = "stablehlo.constant"() <{value = dense<1.250000e-01> : tensor<f16>}> : () -> tensor<f16>
    %x1 = "stablehlo.broadcast_in_dim"(%x0) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<2x8x1024x64xf16>
    %x2 = "stablehlo.multiply"(%20, %x1) : (tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>
    %x3 = "stablehlo.dot_general"(%x2, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x1024x64xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x1024xf16>
    %x4 = "stablehlo.convert"(%x3) : (tensor<2x8x1024x1024xf16>) -> tensor<2x8x1024x1024xf32>
    %x5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %x6 = "stablehlo.reduce"(%x4, %x5) <{dimensions = array<i64: 3>}> ({
    ^bb0(%xarg5: tensor<f32>, %xarg6: tensor<f32>):
      %x22 = "stablehlo.maximum"(%xarg5, %xarg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%x22) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1024x1024xf32>, tensor<f32>) -> tensor<2x8x1024xf32>
    %x7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %x8 = "stablehlo.broadcast_in_dim"(%x7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024xf32>
    %x9 = "stablehlo.maximum"(%x8, %x6) : (tensor<2x8x1024xf32>, tensor<2x8x1024xf32>) -> tensor<2x8x1024xf32>
    %x10 = "stablehlo.broadcast_in_dim"(%x9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1024xf32>) -> tensor<2x8x1024x1xf32>
    %x11 = "stablehlo.broadcast_in_dim"(%x10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x1024x1xf32>) -> tensor<2x8x1024x1024xf32>
    %x12 = "stablehlo.subtract"(%x4, %x11) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %x13 = "stablehlo.exponential"(%x12) : (tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %x14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %x15 = "stablehlo.reduce"(%x13, %x14) <{dimensions = array<i64: 3>}> ({
    ^bb0(%xarg3: tensor<f32>, %xarg4: tensor<f32>):
      %x21 = "stablehlo.add"(%xarg3, %xarg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%x21) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1024x1024xf32>, tensor<f32>) -> tensor<2x8x1024xf32>
    %x16 = "stablehlo.broadcast_in_dim"(%x15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1024xf32>) -> tensor<2x8x1024x1xf32>
    %x17 = "stablehlo.broadcast_in_dim"(%x16) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x8x1024x1xf32>) -> tensor<2x8x1024x1024xf32>
    %x18 = "stablehlo.divide"(%x13, %x17) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>
    %x19 = "stablehlo.convert"(%x18) : (tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf16>
    %x20 = "stablehlo.dot_general"(%x19, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x1024x1024xf16>, tensor<2x8x1024x64xf16>) -> tensor<2x8x1024x64xf16>
    "func.return"(%x20) : (tensor<2x8x1024x64xf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
