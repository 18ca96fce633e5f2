"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x1024x8x128xf16>, tensor<2x1024x8x128xf16>, tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x128xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x1024x8x128xf16>, %arg1: tensor<2x1024x8x128xf16>, %arg2: tensor<2x1024x8x128xf16>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf16>
    %1 = "stablehlo.dot_general"(%0, %arg1) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f16, rhs_precision_type = f16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x1024x8x1x128xf16>, tensor<2x1024x8x128xf16>) -> tensor<2x8x1024x1x1024xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.0883883461> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024x1x1024xf32>
    %4 = "stablehlo.multiply"(%1, %3) : (tensor<2x8x1024x1x1024xf32>, tensor<2x8x1024x1x1024xf32>) -> tensor<2x8x1024x1x1024xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 4>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %27 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x8x1024x1x1024xf32>, tensor<f32>) -> tensor<2x8x1024x1xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024x1xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<2x8x1024x1xf32>, tensor<2x8x1024x1xf32>) -> tensor<2x8x1024x1xf32>
    %10 = "stablehlo.transpose"(%9) <{permutation = array<i64: 3, 0, 1, 2>}> : (tensor<2x8x1024x1xf32>) -> tensor<1x2x8x1024xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x8x1024xf32>) -> tensor<1x2x8x1024x1xf32>
    %12 = "stablehlo.transpose"(%4) <{permutation = array<i64: 3, 0, 1, 2, 4>}> : (tensor<2x8x1024x1x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %13 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>) -> tensor<1x2x8x1024x1024xf32>
    %14 = "stablehlo.subtract"(%12, %13) : (tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %15 = "stablehlo.exponential"(%14) : (tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 4>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %26 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%26) : (tensor<f32>) -> ()
    }) : (tensor<1x2x8x1024x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x8x1024xf32>) -> tensor<1x2x8x1024x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 0, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>) -> tensor<1x2x8x1024x1024xf32>
    %20 = "stablehlo.divide"(%15, %19) : (tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %21 = "stablehlo.convert"(%20) : (tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf16>
    %22 = "stablehlo.dot_general"(%arg2, %21) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [1, 2], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [4]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x1024x8x128xf16>, tensor<1x2x8x1024x1024xf16>) -> tensor<2x8x128x1x1024xf16>
    %23 = "stablehlo.transpose"(%22) <{permutation = array<i64: 3, 0, 4, 1, 2>}> : (tensor<2x8x128x1x1024xf16>) -> tensor<1x2x1024x8x128xf16>
    %24 = "stablehlo.transpose"(%23) <{permutation = array<i64: 1, 2, 3, 0, 4>}> : (tensor<1x2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf16>
    %25 = "stablehlo.reshape"(%24) : (tensor<2x1024x8x1x128xf16>) -> tensor<2x1024x8x128xf16>
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
