// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-select-mma=chip=sm_80 -o /dev/null

// The reasons --sage-select-mma gives that select-mma-errors.mlir leaves
// out, one case per diagnostic (scripts/check-diagnostics.py).

func.func @negative_n_not_a_multiple(%a: tensor<16x32xi8>, %b: tensor<12x32xi8>, %one: tensor<1x1xf32>,
    %s0: tensor<16x12xf32>) -> tensor<16x12xf32> {
  // expected-error@+1 {{'sage.qmma' op has no MMA instruction on sm_80 for 'i8' x 'i8' -> 'i32': mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32: no n in 8..8 divides tile N = 12}}
  %s = sage.qmma %a scaled %one, %b scaled %one, %s0 {accumulator = i32}
    : tensor<16x32xi8>, tensor<1x1xf32>, tensor<12x32xi8>, tensor<1x1xf32> -> tensor<16x12xf32>
  return %s : tensor<16x12xf32>
}
