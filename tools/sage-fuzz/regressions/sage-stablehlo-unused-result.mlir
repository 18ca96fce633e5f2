"builtin.module"() <{sym_name = "jit_f"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x1024x8x128xf16>, tensor<2x1024x8x128xf16>, tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x128xf16>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<2x1024x8x128xf16>, %arg5: tensor<2x1024x8x128xf16>, %arg6: tensor<2x1024x8x128xf16>):
    %14 = "stablehlo.reshape"(%arg4) : (tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf16>
    %15 = "stablehlo.dot_general"(%14, %arg5) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f16, rhs_precision_type = f16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x1024x8x1x128xf16>, tensor<2x1024x8x128xf16>) -> tensor<2x8x1024x1x1024xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.0883883461> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024x1x1024xf32>
    %18 = "stablehlo.multiply"(%15, %17) : (tensor<2x8x1024x1x1024xf32>, tensor<2x8x1024x1x1024xf32>) -> tensor<2x8x1024x1x1024xf32>
    %19 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<2x8x1024x1024xi1>
    %21 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1024x1024xi1>
    %23 = "func.call"(%22) <{callee = @tril}> : (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 2, 3>}> : (tensor<1024x1024xi1>) -> tensor<1x1x1024x1024xi1>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1024x1024xi1>) -> tensor<2x8x1024x1024xi1>
    %26 = "stablehlo.and"(%20, %25) : (tensor<2x8x1024x1024xi1>, tensor<2x8x1024x1024xi1>) -> tensor<2x8x1024x1024xi1>
    %27 = "stablehlo.constant"() <{value = dense<-2.38197633E+38> : tensor<f32>}> : () -> tensor<f32>
    %28 = "func.call"(%26, %18, %27) <{callee = @_where}> : (tensor<2x8x1024x1024xi1>, tensor<2x8x1024x1x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024x1024xf32>
    %29 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 4>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %49 = "stablehlo.maximum"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%49) : (tensor<f32>) -> ()
    }) : (tensor<1x2x8x1024x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024xf32>
    %31 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x2x8x1024xf32>
    %33 = "stablehlo.maximum"(%32, %30) : (tensor<1x2x8x1024xf32>, tensor<1x2x8x1024xf32>) -> tensor<1x2x8x1024xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x8x1024xf32>) -> tensor<1x2x8x1024x1xf32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>) -> tensor<1x2x8x1024x1024xf32>
    %36 = "stablehlo.subtract"(%28, %35) : (tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %37 = "stablehlo.exponential"(%36) : (tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %38 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%37, %38) <{dimensions = array<i64: 4>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %48 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%48) : (tensor<f32>) -> ()
    }) : (tensor<1x2x8x1024x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x2x8x1024xf32>) -> tensor<1x2x8x1024x1xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>) -> tensor<1x2x8x1024x1024xf32>
    %42 = "stablehlo.divide"(%37, %41) : (tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %43 = "stablehlo.convert"(%42) : (tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf16>
    %44 = "stablehlo.dot_general"(%arg6, %43) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [1, 2], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [4]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x1024x8x128xf16>, tensor<1x2x8x1024x1024xf16>) -> tensor<2x8x128x1x1024xf16>
    %45 = "stablehlo.transpose"(%44) <{permutation = array<i64: 3, 0, 4, 1, 2>}> : (tensor<2x8x128x1x1024xf16>) -> tensor<1x2x1024x8x128xf16>
    %46 = "stablehlo.transpose"(%45) <{permutation = array<i64: 1, 2, 3, 0, 4>}> : (tensor<1x2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf16>
    %47 = "stablehlo.reshape"(%46) : (tensor<2x1024x8x1x128xf16>) -> tensor<2x1024x8x128xf16>
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<1024x1024xi1>) -> tensor<1024x1024xi1>, res_attrs = [{}], sym_name = "tril", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<1024x1024xi1>):
    %5 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<1024x1024xi32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1024x1024xi32>
    %8 = "stablehlo.add"(%5, %7) : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi32>
    %9 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1024x1024xi32>
    %10 = "stablehlo.compare"(%8, %9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<1024x1024xi32>, tensor<1024x1024xi32>) -> tensor<1024x1024xi1>
    %11 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1024x1024xi1>
    %13 = "stablehlo.select"(%10, %arg3, %12) : (tensor<1024x1024xi1>, tensor<1024x1024xi1>, tensor<1024x1024xi1>) -> tensor<1024x1024xi1>
    "func.return"(%13) : (tensor<1024x1024xi1>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<2x8x1024x1024xi1>, tensor<2x8x1024x1x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024x1024xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x8x1024x1024xi1>, %arg1: tensor<2x8x1024x1x1024xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x1024x1024xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1, 2, 3, 4>}> : (tensor<2x8x1024x1024xi1>) -> tensor<1x2x8x1024x1024xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1, 2, 3, 4>}> : (tensor<2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %3 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 3, 0, 1, 2, 4>}> : (tensor<2x8x1024x1x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    %4 = "stablehlo.select"(%1, %3, %2) : (tensor<1x2x8x1024x1024xi1>, tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>
    "func.return"(%4) : (tensor<1x2x8x1024x1024xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
