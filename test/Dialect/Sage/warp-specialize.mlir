// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// sage.warp_specialize: one region per role, on whole warpgroups, with a
// register budget each; a region takes the thread's index in its role.

// CHECK-LABEL: gpu.func @producer_consumers
//       CHECK: sage.warp_specialize warps = [4, 8] registers = [40, 232] {
//       CHECK: ^bb0(%[[PRODUCER:.*]]: i32):
//       CHECK:   arith.cmpi eq, %[[PRODUCER]]
//       CHECK: }, {
//       CHECK: ^bb0(%[[CONSUMER:.*]]: i32):
//       CHECK:   arith.addi %[[CONSUMER]]
gpu.module @kernels {
  gpu.func @producer_consumers() kernel attributes {known_block_size = array<i32: 384, 1, 1>} {
    sage.warp_specialize warps = [4, 8] registers = [40, 232] {
    ^bb0(%thread: i32):
      %c0 = arith.constant 0 : i32
      %first = arith.cmpi eq, %thread, %c0 : i32
    }, {
    ^bb0(%thread: i32):
      %c1 = arith.constant 1 : i32
      %next = arith.addi %thread, %c1 : i32
    }
    gpu.return
  }
}

// -----

func.func @negative_roles_budgets() {
  // expected-error@+1 {{'sage.warp_specialize' op expected one warp count and one register budget a role, got 2 and 1 for 2 roles}}
  sage.warp_specialize warps = [4, 4] registers = [40] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

func.func @negative_role_argument() {
  // expected-error@+1 {{'sage.warp_specialize' op expected role 0's region to take the thread's index in its role, one i32}}
  sage.warp_specialize warps = [4] registers = [40] {
  ^bb0(%thread: index):
  }
  return
}

// -----

func.func @negative_role_warps() {
  // expected-error@+1 {{'sage.warp_specialize' op expected role 1 on whole warpgroups (setmaxnreg sets a warpgroup's budget), got 2 warps}}
  sage.warp_specialize warps = [4, 2] registers = [40, 232] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

func.func @negative_role_registers() {
  // expected-error@+1 {{'sage.warp_specialize' op expected role 0's register budget a multiple of 8 in [24, 256], got 20}}
  sage.warp_specialize warps = [4, 8] registers = [20, 232] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

func.func @negative_registers_per_sm() {
  // expected-error@+1 {{'sage.warp_specialize' op expected the roles' registers to fit an SM's 65536, got 89088}}
  sage.warp_specialize warps = [4, 8] registers = [232, 232] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

// Two CTAs an SM start with 80 registers a thread (65536 / 768), 30720 a
// CTA: consumers cannot grow to 112 on the producer's 128 x 56 spare ones.
func.func @negative_registers_per_cta() {
  // expected-error@+1 {{'sage.warp_specialize' op expected the roles' registers (31744) within the 30720 the CTA starts with (384 threads x 80 at 2 CTAs an SM): setmaxnreg only moves registers between its warpgroups}}
  sage.warp_specialize warps = [4, 8] registers = [24, 112] {
  ^bb0(%thread: i32):
  }, {
  ^bb0(%thread: i32):
  }
  return
}

// -----

gpu.module @kernels {
  gpu.func @negative_block_size() kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
    // expected-error@+1 {{'sage.warp_specialize' op expected the kernel's block to be the roles' 384 threads, got array<i32: 256, 1, 1>}}
    sage.warp_specialize warps = [4, 8] registers = [40, 232] {
    ^bb0(%thread: i32):
    }, {
    ^bb0(%thread: i32):
    }
    gpu.return
  }
}

// -----

func.func @negative_no_roles() {
  // expected-error@+1 {{'sage.warp_specialize' op expected at least one role}}
  sage.warp_specialize warps = [] registers = []
  return
}

// -----

func.func @negative_threads() {
  // expected-error@+1 {{'sage.warp_specialize' op expected at most 1024 threads a CTA, got 2048}}
  sage.warp_specialize warps = [64] registers = [24] {
  ^bb0(%thread: i32):
  }
  return
}

