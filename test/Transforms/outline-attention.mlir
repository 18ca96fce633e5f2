// RUN: sage-opt %s --split-input-file --sage-outline-attention | FileCheck %s

// A model holding other ops: its [B, N, H, D] tensors reach the attention
// through transposes, the result goes back through one and on to a negf.
// Everything but the attention and its layout ops stays; the new function
// takes the model's tensors as they are, with the transposes moved in.
// CHECK-LABEL: func.func @layer
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x?x4x64xf16>, %[[K:.*]]: tensor<?x?x4x64xf16>, %[[V:.*]]: tensor<?x?x4x64xf16>)
//   CHECK-NOT: linalg.transpose
//   CHECK-NOT: tensor.empty
//   CHECK-NOT: tensor.dim
//       CHECK: %[[O:.*]] = call @layer_attention_0(%[[Q]], %[[K]], %[[V]]) : (tensor<?x?x4x64xf16>, tensor<?x?x4x64xf16>, tensor<?x?x4x64xf16>) -> tensor<?x?x4x64xf16>
//       CHECK: %[[NEG:.*]] = arith.negf %[[O]]
//       CHECK: return %[[NEG]]
// CHECK-LABEL: func.func @layer_attention_0
//  CHECK-SAME: (%[[AQ:.*]]: tensor<?x?x4x64xf16> {sage.buffer = "q"}, %[[AK:.*]]: tensor<?x?x4x64xf16> {sage.buffer = "k"}, %[[AV:.*]]: tensor<?x?x4x64xf16> {sage.buffer = "v"})
//  CHECK-SAME: -> (tensor<?x?x4x64xf16> {sage.buffer = "o"})
//       CHECK: %[[TQ:.*]] = linalg.transpose ins(%[[AQ]] : {{.*}}) outs({{.*}} : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
//       CHECK: %[[TK:.*]] = linalg.transpose ins(%[[AK]]
//       CHECK: %[[TV:.*]] = linalg.transpose ins(%[[AV]]
//       CHECK: %[[R:.*]] = sage.attention %[[TQ]], %[[TK]], %[[TV]] {layout = #sage.layout<[batch, heads, tokens, features]>
//       CHECK: %[[TO:.*]] = linalg.transpose ins(%[[R]] : tensor<?x4x?x64xf16>) outs({{.*}} : tensor<?x?x4x64xf16>) permutation = [0, 2, 1, 3]
//       CHECK: return %[[TO]]
func.func @layer(%q: tensor<?x?x4x64xf16>, %k: tensor<?x?x4x64xf16>,
    %v: tensor<?x?x4x64xf16>) -> tensor<?x?x4x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x4x64xf16>
  %nq = tensor.dim %q, %c1 : tensor<?x?x4x64xf16>
  %nk = tensor.dim %k, %c1 : tensor<?x?x4x64xf16>
  %qe = tensor.empty(%b, %nq) : tensor<?x4x?x64xf16>
  %qt = linalg.transpose ins(%q : tensor<?x?x4x64xf16>) outs(%qe : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %ke = tensor.empty(%b, %nk) : tensor<?x4x?x64xf16>
  %kt = linalg.transpose ins(%k : tensor<?x?x4x64xf16>) outs(%ke : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<?x?x4x64xf16>) outs(%ke : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %o = sage.attention %qt, %kt, %vt {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 0.125 : f64}
      : (tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>, tensor<?x4x?x64xf16>) -> tensor<?x4x?x64xf16>
  // The result's sizes, as frontends read them for the transpose's init.
  %ob = tensor.dim %o, %c0 : tensor<?x4x?x64xf16>
  %on = tensor.dim %o, %c2 : tensor<?x4x?x64xf16>
  %oe = tensor.empty(%ob, %on) : tensor<?x?x4x64xf16>
  %ot = linalg.transpose ins(%o : tensor<?x4x?x64xf16>) outs(%oe : tensor<?x?x4x64xf16>) permutation = [0, 2, 1, 3]
  %neg = arith.negf %ot : tensor<?x?x4x64xf16>
  return %neg : tensor<?x?x4x64xf16>
}

// -----

// Two attentions in one function, one with a mask and the LSE: one new
// function each, numbered in order, placed after the model; the mask and
// the LSE keep their names in the ABI.
// CHECK-LABEL: func.func @two(
//  CHECK-SAME: %[[Q:[^:]*]]: tensor<2x4x16x32xf32>, %[[K:[^:]*]]: tensor<2x4x24x32xf32>, %[[V:[^:]*]]: tensor<2x4x24x32xf32>, %[[M:[^:]*]]: tensor<2x1x16x24xi1>
//       CHECK: %[[A:.*]]:2 = call @two_attention_0(%[[Q]], %[[K]], %[[V]], %[[M]])
//       CHECK: %[[X:.*]] = arith.addf %[[A]]#0, %[[Q]]
//       CHECK: %[[B:.*]] = call @two_attention_1(%[[X]], %[[K]], %[[V]])
//       CHECK: return %[[B]], %[[A]]#1
//       CHECK: func.func @two_attention_0(%{{.*}}: tensor<2x4x16x32xf32> {sage.buffer = "q"}, %{{.*}}: tensor<2x4x24x32xf32> {sage.buffer = "k"}, %{{.*}}: tensor<2x4x24x32xf32> {sage.buffer = "v"}, %{{.*}}: tensor<2x1x16x24xi1> {sage.buffer = "mask"})
//  CHECK-SAME: -> (tensor<2x4x16x32xf32> {sage.buffer = "o"}, tensor<2x4x16xf32> {sage.buffer = "lse"})
//       CHECK: sage.attention {{.*}} mask(
//       CHECK: func.func @two_attention_1(
func.func @two(%q: tensor<2x4x16x32xf32>, %k: tensor<2x4x24x32xf32>,
    %v: tensor<2x4x24x32xf32>, %m: tensor<2x1x16x24xi1>)
    -> (tensor<2x4x16x32xf32>, tensor<2x4x16xf32>) {
  %o, %lse = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>, tensor<2x1x16x24xi1>) -> (tensor<2x4x16x32xf32>, tensor<2x4x16xf32>)
  %x = arith.addf %o, %q : tensor<2x4x16x32xf32>
  %o2 = sage.attention %x, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<2x4x16x32xf32>, tensor<2x4x24x32xf32>, tensor<2x4x24x32xf32>) -> tensor<2x4x16x32xf32>
  return %o2, %lse : tensor<2x4x16x32xf32>, tensor<2x4x16xf32>
}

// -----

// Q's transpose has another user, so it stays in the model, and then no
// transpose moves (the kernels take one memory order for Q, K, V and O):
// the new function takes [B, H, N, D] tensors.
// CHECK-LABEL: func.func @shared_transpose
//       CHECK: %[[QT:.*]] = linalg.transpose ins(%arg0
//       CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1
//       CHECK: %[[VT:.*]] = linalg.transpose ins(%arg2
//       CHECK: %[[O:.*]] = call @shared_transpose_attention_0(%[[QT]], %[[KT]], %[[VT]]) : (tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>
//       CHECK: linalg.transpose ins(%[[O]]
//       CHECK: arith.addf {{.*}}, %[[QT]]
// CHECK-LABEL: func.func @shared_transpose_attention_0
//   CHECK-NOT: linalg.transpose
//       CHECK: sage.attention %arg0, %arg1, %arg2
func.func @shared_transpose(%q: tensor<2x16x4x32xf16>, %k: tensor<2x16x4x32xf16>,
    %v: tensor<2x16x4x32xf16>) -> (tensor<2x16x4x32xf16>, tensor<2x4x16x32xf16>) {
  %e = tensor.empty() : tensor<2x4x16x32xf16>
  %qt = linalg.transpose ins(%q : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %o = sage.attention %qt, %kt, %vt {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>
  %oe = tensor.empty() : tensor<2x16x4x32xf16>
  %ot = linalg.transpose ins(%o : tensor<2x4x16x32xf16>) outs(%oe : tensor<2x16x4x32xf16>) permutation = [0, 2, 1, 3]
  %other = arith.addf %qt, %qt : tensor<2x4x16x32xf16>
  return %ot, %other : tensor<2x16x4x32xf16>, tensor<2x4x16x32xf16>
}

// -----

// A function that computes one attention and nothing else compiles as it
// stands: left alone.
// CHECK-LABEL: func.func @attention_only
//   CHECK-NOT: call
//       CHECK: sage.attention
//   CHECK-NOT: func.func @attention_only_attention
func.func @attention_only(%q: tensor<2x16x4x32xf16>, %k: tensor<2x16x4x32xf16>,
    %v: tensor<2x16x4x32xf16>) -> tensor<2x16x4x32xf16> {
  %e = tensor.empty() : tensor<2x4x16x32xf16>
  %qt = linalg.transpose ins(%q : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%k : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<2x16x4x32xf16>) outs(%e : tensor<2x4x16x32xf16>) permutation = [0, 2, 1, 3]
  %o = sage.attention %qt, %kt, %vt {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>, tensor<2x4x16x32xf16>) -> tensor<2x4x16x32xf16>
  %oe = tensor.empty() : tensor<2x16x4x32xf16>
  %ot = linalg.transpose ins(%o : tensor<2x4x16x32xf16>) outs(%oe : tensor<2x16x4x32xf16>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x16x4x32xf16>
}

// -----

// Reshapes of the leading dims move in when the new function can rebuild
// them from its argument: the collapse of [B, H] and the expand back with
// one dynamic size a group. An expand whose group has two dynamic sizes
// (only the model knows B and H apart) stays in the model.
// CHECK-LABEL: func.func @reshapes
//  CHECK-SAME: (%[[Q:.*]]: tensor<?x4x?x64xf16>, %[[K:.*]]: tensor<?x?x64xf16>, %[[V:.*]]: tensor<?x?x64xf16>, %[[B:.*]]: index, %[[H:.*]]: index)
//       CHECK: %[[KX:.*]] = tensor.expand_shape %[[K]] {{\[}}[0, 1], [2], [3]] output_shape [%[[B]], %[[H]]
//       CHECK: %[[VX:.*]] = tensor.expand_shape %[[V]]
//       CHECK: %[[O:.*]] = call @reshapes_attention_0(%[[Q]], %[[KX]], %[[VX]]) : (tensor<?x4x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x4x?x64xf16>
//       CHECK: arith.negf %[[O]]
// CHECK-LABEL: func.func @reshapes_attention_0
//       CHECK: %[[QC:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]]
//       CHECK: %[[QX:.*]] = tensor.expand_shape %[[QC]] {{\[}}[0, 1], [2], [3]] output_shape [%{{.*}}, 4, %{{.*}}, 64]
//       CHECK: sage.attention %[[QX]], %arg1, %arg2
func.func @reshapes(%q: tensor<?x4x?x64xf16>, %k: tensor<?x?x64xf16>, %v: tensor<?x?x64xf16>,
    %b: index, %h: index) -> tensor<?x4x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %bq = tensor.dim %q, %c0 : tensor<?x4x?x64xf16>
  %nq = tensor.dim %q, %c2 : tensor<?x4x?x64xf16>
  %q4 = tensor.expand_shape %q3 [[0, 1], [2], [3]] output_shape [%bq, 4, %nq, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
  %nk = tensor.dim %k, %c0 : tensor<?x?x64xf16>
  %k4 = tensor.expand_shape %k [[0, 1], [2], [3]] output_shape [%b, %h, %nk, 64] : tensor<?x?x64xf16> into tensor<?x?x?x64xf16>
  %v4 = tensor.expand_shape %v [[0, 1], [2], [3]] output_shape [%b, %h, %nk, 64] : tensor<?x?x64xf16> into tensor<?x?x?x64xf16>
  %o = sage.attention %q4, %k4, %v4 {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<?x4x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x4x?x64xf16>
  %neg = arith.negf %o : tensor<?x4x?x64xf16>
  return %neg : tensor<?x4x?x64xf16>
}

// -----

// An attention inside a loop is called there; names become C identifiers
// and do not collide with existing symbols.
// CHECK-LABEL: func.func @model.block(
//       CHECK: scf.for
//       CHECK:   func.call @model_block_attention_0_0(%[[H:.*]], %[[H]], %[[H]])
// CHECK-LABEL: func.func @model_block_attention_0_0(
//  CHECK-SAME: %[[Q:[^:]*]]: tensor<8x16x32xf16> {sage.buffer = "q"}, %[[K:[^:]*]]: tensor<8x16x32xf16> {sage.buffer = "k"}, %[[V:[^:]*]]: tensor<8x16x32xf16> {sage.buffer = "v"}
//       CHECK: sage.attention %[[Q]], %[[K]], %[[V]]
// CHECK-LABEL: func.func @model_block_attention_0(
func.func @"model.block"(%x: tensor<8x16x32xf16>, %n: index) -> tensor<8x16x32xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> tensor<8x16x32xf16> {
    %o = sage.attention %h, %h, %h {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
        : (tensor<8x16x32xf16>, tensor<8x16x32xf16>, tensor<8x16x32xf16>) -> tensor<8x16x32xf16>
    scf.yield %o : tensor<8x16x32xf16>
  }
  return %r : tensor<8x16x32xf16>
}
func.func @model_block_attention_0(%x: tensor<8x16x32xf16>) -> tensor<8x16x32xf16> {
  return %x : tensor<8x16x32xf16>
}

// -----

// The result's reshape back to [B, H, N, D] has two dynamic sizes in one
// group, so the new function cannot rebuild it and the result keeps its
// transpose in the model; then no transpose moves, Q's, K's and V's stay
// too (the kernels take one memory order for all four), and only the
// collapses move in.
// CHECK-LABEL: func.func @result_cut(
//       CHECK: %[[QT:.*]] = linalg.transpose ins(%arg0
//       CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1
//       CHECK: %[[VT:.*]] = linalg.transpose ins(%arg2
//       CHECK: %[[O:.*]] = call @result_cut_attention_0(%[[QT]], %[[KT]], %[[VT]])
//       CHECK: %[[OX:.*]] = tensor.expand_shape %[[O]]
//       CHECK: %[[OT:.*]] = linalg.transpose ins(%[[OX]]
//       CHECK: arith.negf %[[OT]]
// CHECK-LABEL: func.func @result_cut_attention_0(
//  CHECK-SAME: tensor<?x4x?x64xf16> {sage.buffer = "q"}
//   CHECK-NOT: linalg.transpose
//       CHECK: tensor.collapse_shape %arg0
//       CHECK: sage.attention
//  CHECK-SAME: -> tensor<?x?x64xf16>
//       CHECK: return
func.func @result_cut(%q: tensor<?x?x4x64xf16>, %k: tensor<?x?x4x64xf16>,
    %v: tensor<?x?x4x64xf16>, %b: index, %h: index) -> tensor<?x?x?x64xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bq = tensor.dim %q, %c0 : tensor<?x?x4x64xf16>
  %nq = tensor.dim %q, %c1 : tensor<?x?x4x64xf16>
  %nk = tensor.dim %k, %c1 : tensor<?x?x4x64xf16>
  %qe = tensor.empty(%bq, %nq) : tensor<?x4x?x64xf16>
  %qt = linalg.transpose ins(%q : tensor<?x?x4x64xf16>) outs(%qe : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %ke = tensor.empty(%bq, %nk) : tensor<?x4x?x64xf16>
  %kt = linalg.transpose ins(%k : tensor<?x?x4x64xf16>) outs(%ke : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<?x?x4x64xf16>) outs(%ke : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %o = sage.attention %q3, %k3, %v3 {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
      : (tensor<?x?x64xf16>, tensor<?x?x64xf16>, tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [%b, %h, %nq, 64] : tensor<?x?x64xf16> into tensor<?x?x?x64xf16>
  %oe = tensor.empty(%b, %nq, %h) : tensor<?x?x?x64xf16>
  %ot = linalg.transpose ins(%o4 : tensor<?x?x?x64xf16>) outs(%oe : tensor<?x?x?x64xf16>) permutation = [0, 2, 1, 3]
  %n = arith.negf %ot : tensor<?x?x?x64xf16>
  return %n : tensor<?x?x?x64xf16>
}
