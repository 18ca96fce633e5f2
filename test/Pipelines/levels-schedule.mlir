// --sage-levels on sm_90a with neither block-q nor block-k given takes the
// measured schedule's tiles (docs/Tuning.md) where its row is a schedule
// the levels build, every warp one block after the other: K smoothing at
// D = 128 gets 64 x 128 (Q groups of 64 rows, K groups of 128 tokens), a
// CTA of one warpgroup that sage-bound-registers makes three an SM. The
// row for Q and K smoothing has a producer warpgroup and turns, which the
// levels do not build: the defaults, 128 x 64. A tile given turns the
// table off.
// RUN: sage-opt %s --sage-levels="chip=sm_90a" --mlir-print-ir-after=sage-decompose-attention,sage-bound-registers -o /dev/null 2>&1 | FileCheck %s
// RUN: sage-opt %s --sage-levels="chip=sm_90a block-k=64" --mlir-print-ir-after=sage-decompose-attention -o /dev/null 2>&1 | FileCheck %s --check-prefix=GIVEN

// CHECK-LABEL: IR Dump After SageDecomposeAttention
//       CHECK: func.func @k_only
//       CHECK:   sage.quantized_attention
//  CHECK-SAME:     k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>
//  CHECK-SAME:     q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>
//       CHECK: func.func @q_and_k
//       CHECK:   sage.quantized_attention
//  CHECK-SAME:     k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>
//  CHECK-SAME:     q_quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 16>
//       CHECK: IR Dump After SageBoundRegisters
//       CHECK: gpu.func @k_only_kernel
//  CHECK-SAME:   known_block_size = array<i32: 128, 1, 1>
//  CHECK-SAME:   nvvm.minctasm = 3 : i32
//       CHECK: gpu.func @q_and_k_kernel
//  CHECK-SAME:   known_block_size = array<i32: 256, 1, 1>
//   CHECK-NOT:   nvvm.minctasm

//       GIVEN: func.func @k_only
//       GIVEN:   k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>
//  GIVEN-SAME:   q_quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 16>
func.func @k_only(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>,
                  %v: tensor<?x?x?x128xf16>, %out: memref<?x?x?x128xf16>) {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x128xf16>, memref<?x?x?x128xf16>) -> ()
  return
}
func.func @q_and_k(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>,
                   %v: tensor<?x?x?x128xf16>, %out: memref<?x?x?x128xf16>) {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x128xf16>, memref<?x?x?x128xf16>) -> ()
  return
}
