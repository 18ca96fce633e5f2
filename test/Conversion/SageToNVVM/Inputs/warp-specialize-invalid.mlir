// Inputs of warp-specialize.mlir's NEGATIVE run: roles convert-sage-to-nvvm
// cannot give launch bounds.

// Outside a kernel: nothing to carry nvvm.minctasm.
func.func @negative_not_a_kernel() {
  sage.warp_specialize warps = [4, 8] registers = [40, 232] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

// The kernel asks for four CTAs an SM; the budgets leave room for one.
gpu.module @kernels {
  gpu.func @negative_minctasm() kernel attributes {known_block_size = array<i32: 384, 1, 1>, nvvm.minctasm = 4 : i32} {
    sage.warp_specialize warps = [4, 8] registers = [40, 232] {
    ^bb0(%thread: i32):
    }, {
    ^bb0(%thread: i32):
    }
    gpu.return
  }
}
