// What the StableHLO reader refuses, each named in the explain remark (in
// parentheses after the matcher's own reason when the attention is still
// recognized), and the IR left as it was. Each case is a real JAX input
// (test/Pipelines/Inputs/jax) with one thing changed by sed.
// DEFINE: %{raise} = sage-opt --sage-raise-attention=explain=true --mlir-print-op-on-diagnostic=false
// DEFINE: %{check} = FileCheck %s --implicit-check-not='= sage.attention' --implicit-check-not='= linalg.'
// DEFINE: %{jax} = %S/../Pipelines/Inputs/jax

// RUN: sed 's/tensor<2x8x1024x1024xf16>/tensor<2x8x1024x1024xi32>/g' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=INT
// INT: remark: not raised to sage.attention: 'stablehlo.dot_general' is not a float product of ranked tensors over a dim longer than 1

// RUN: sed '0,/dimensions = array<i64: 3>/s//dims = array<i64: 3>/' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=REDUCE
// REDUCE: remark: not raised to sage.attention: {{.*}} ('stablehlo.reduce' is not a reduction of one tensor over `dimensions`)

// RUN: sed 's/%5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>/%c = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>\n    %5 = "stablehlo.negate"(%c) : (tensor<f32>) -> tensor<f32>/' \
// RUN:   %{jax}/einsum_bnth.mlir | %{raise} 2>&1 | %{check} --check-prefix=INIT
// INIT: remark: not raised to sage.attention: {{.*}} ('stablehlo.reduce' does not start from a float constant)

// RUN: sed '0,/<{broadcast_dimensions = array<i64: 0, 1, 2>}>/s//<{}>/' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=NODIMS
// NODIMS: remark: not raised to sage.attention: {{.*}} ('stablehlo.broadcast_in_dim' is not a static broadcast of a ranked tensor)

// RUN: sed '0,/<{broadcast_dimensions = array<i64: 0, 1, 2>}>/s//<{broadcast_dimensions = array<i64: 0, 1, 3>}>/' \
// RUN:   %{jax}/einsum_bnth.mlir | %{raise} 2>&1 | %{check} --check-prefix=BROADCAST
// BROADCAST: remark: not raised to sage.attention: {{.*}} ('stablehlo.broadcast_in_dim' broadcasts a dim that is not 1)

// Dynamic sizes (sage's kernels take them, this reader does not yet).
// RUN: sed 's/tensor<2x8x/tensor<?x8x/g' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=DYNAMIC
// DYNAMIC: remark: not raised to sage.attention: 'stablehlo.dot_general' has no static tensor result

// IR no StableHLO verifier has seen: operands that do not fit the op.
// RUN: sed 's/"stablehlo.subtract"(%4, %11) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>)/"stablehlo.subtract"(%4, %9) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024xf32>)/' \
// RUN:   %{jax}/einsum_bnth.mlir | %{raise} 2>&1 | %{check} --check-prefix=SHAPE
// SHAPE: remark: not raised to sage.attention: {{.*}} ('stablehlo.subtract' has operands of another shape than its result)
// RUN: sed 's/"stablehlo.subtract"(%4, %11) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf32>/"stablehlo.subtract"(%4, %11) : (tensor<2x8x1024x1024xf32>, tensor<2x8x1024x1024xf32>) -> tensor<2x8x1024x1024xf16>/; s/"stablehlo.exponential"(%12) : (tensor<2x8x1024x1024xf32>)/"stablehlo.exponential"(%12) : (tensor<2x8x1024x1024xf16>)/' \
// RUN:   %{jax}/einsum_bnth.mlir | %{raise} 2>&1 | %{check} --check-prefix=ELEMENT
// ELEMENT: remark: not raised to sage.attention: {{.*}} ('stablehlo.subtract' has operands of another element type than it computes)
// RUN: sed 's/-> tensor<2x1024x8x128xf16>, res_attrs/-> tensor<*xf16>, res_attrs/; s/"stablehlo.reshape"(%24) : (tensor<2x1024x8x1x128xf16>) -> tensor<2x1024x8x128xf16>/"stablehlo.reshape"(%24) : (tensor<2x1024x8x1x128xf16>) -> tensor<*xf16>/; s/"func.return"(%25) : (tensor<2x1024x8x128xf16>)/"func.return"(%25) : (tensor<*xf16>)/' \
// RUN:   %{jax}/dpa_plain.mlir | %{raise} 2>&1 | %{check} --check-prefix=UNRANKED
// UNRANKED: remark: not raised to sage.attention: its result is not a ranked tensor

// A bias converted to integers.
// RUN: sed '11s/-> tensor<2x8x1x1024x1024xf32>/-> tensor<2x8x1x1024x1024xi32>/; 13s/(tensor<2x8x1x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>/(tensor<2x8x1x1024x1024xi32>) -> tensor<1x2x8x1024x1024xi32>/; 14s/tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>)/tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xi32>)/' \
// RUN:   %{jax}/dpa_bias.mlir | %{raise} 2>&1 | %{check} --check-prefix=CONVERT
// CONVERT: remark: not raised to sage.attention: {{.*}} ('stablehlo.convert' converts between types sage does not read)

// The private @_where holding an op of another dialect, or calling itself.
// RUN: sed 's/"stablehlo.select"(%arg0, %2, %1)/"arith.select"(%arg0, %2, %1)/' %{jax}/dpa_mask.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=CALLEE
// CALLEE: remark: not raised to sage.attention: {{.*}} (a private function called on the way computes a value sage does not read (arith.select))
// RUN: sed 's/%3 = "stablehlo.select"(%arg0, %2, %1) : (tensor<1x2x8x1024x1024xi1>, tensor<1x2x8x1024x1024xf32>, tensor<1x2x8x1024x1024xf32>) -> tensor<1x2x8x1024x1024xf32>/%3 = "func.call"(%arg0, %arg1, %arg2) <{callee = @_where}> : (tensor<1x2x8x1024x1024xi1>, tensor<2x8x1024x1x1024xf32>, tensor<f32>) -> tensor<1x2x8x1024x1024xf32>/' \
// RUN:   %{jax}/dpa_mask.mlir | %{raise} 2>&1 | %{check} --check-prefix=RECURSION
// RECURSION: remark: not raised to sage.attention: {{.*}} (a private function called on the way calls itself)

// A reshape that also changes the element type.
// RUN: sed 's/"stablehlo.reshape"(%arg0) : (tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf16>/"stablehlo.reshape"(%arg0) : (tensor<2x1024x8x128xf16>) -> tensor<2x1024x8x1x128xf32>/; s/"stablehlo.dot_general"(%0, %arg1) \(.*\) : (tensor<2x1024x8x1x128xf16>/"stablehlo.dot_general"(%0, %arg1) \1 : (tensor<2x1024x8x1x128xf32>/' \
// RUN:   %{jax}/dpa_plain.mlir | %{raise} 2>&1 | %{check} --check-prefix=RETYPE
// RETYPE: remark: not raised to sage.attention: {{.*}} ('stablehlo.reshape' computes a type other than its result's)

// RUN: sed 's/comparison_direction GE/comparison_direction XX/' %{jax}/dpa_causal.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=COMPARE
// COMPARE: remark: not raised to sage.attention: {{.*}} ('stablehlo.compare' has a comparison sage does not read)

// RUN: sed 's/"stablehlo.subtract"(%4, %11)/"stablehlo.atan2"(%4, %11)/' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=ELEMENTWISE
// ELEMENTWISE: remark: not raised to sage.attention: {{.*}} ('stablehlo.atan2' is not an elementwise op sage reads)

// RUN: sed 's/<{value = dense<0.000000e+00> : tensor<f32>}>/<{value = 0.0 : f32}>/' %{jax}/einsum_bnth.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=CONSTANT
// CONSTANT: remark: not raised to sage.attention: {{.*}} ('stablehlo.constant' has no dense value of its type)

// RUN: sed 's/iota_dimension = 0 : i64/iota_dimension = 5 : i64/' %{jax}/dpa_causal.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=IOTA
// IOTA: remark: not raised to sage.attention: {{.*}} ('stablehlo.iota' is not an integer iota along one of its dims)

// The result's layout chain must be read whole.
// RUN: sed 's/(tensor<2x1024x8x1x128xf16>) -> tensor<2x1024x8x128xf16>/(tensor<2x1024x8x1x128xf16>) -> tensor<1024x2x8x128xf16>/; s/-> tensor<2x1024x8x128xf16>, res_attrs/-> tensor<1024x2x8x128xf16>, res_attrs/; s/"func.return"(%25) : (tensor<2x1024x8x128xf16>)/"func.return"(%25) : (tensor<1024x2x8x128xf16>)/' \
// RUN:   %{jax}/dpa_plain.mlir | %{raise} 2>&1 | %{check} --check-prefix=RESHAPE
// RESHAPE: remark: not raised to sage.attention: 'stablehlo.reshape' is not one expand_shape or collapse_shape
// RESHAPE: "stablehlo.dot_general"

// RUN: sed 's/<{permutation = array<i64: 3, 0, 4, 1, 2>}>/<{}>/' %{jax}/dpa_plain.mlir \
// RUN:   | %{raise} 2>&1 | %{check} --check-prefix=PERMUTATION
// PERMUTATION: remark: not raised to sage.attention: 'stablehlo.transpose' has no permutation of its rank

// Found by the fuzzer (tools/sage-fuzz/regressions/sage-stablehlo-*): with
// the function's return gone, nothing used the result, the slice was dead
// on arrival and its product was erased before it was matched.
// RUN: sed '/"func.return"/d' %{jax}/dpa_plain.mlir | %{raise} 2>&1 | %{check} --check-prefix=UNUSED
// UNUSED: remark: not raised to sage.attention: its result is not used
// Repeated broadcast dimensions.
// RUN: sed 's/<{broadcast_dimensions = array<i64: 0, 1, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>)/<{broadcast_dimensions = array<i64: 0, 0, 2, 3, 4>}> : (tensor<1x2x8x1024x1xf32>)/' \
// RUN:   %{jax}/dpa_plain.mlir | %{raise} 2>&1 | %{check} --check-prefix=REPEATED
// REPEATED: remark: not raised to sage.attention: {{.*}} ('stablehlo.broadcast_in_dim' is not a static broadcast of a ranked tensor)
