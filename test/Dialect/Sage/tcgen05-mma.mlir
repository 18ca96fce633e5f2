// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// sage.tcgen05_mma: one tcgen05.mma of a tcgen05-scope row (docs/Levels.md,
// L4), D in tensor memory (an i32 address), A through a descriptor or from
// tensor memory, B through a descriptor.

#i8 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
#i8tmem = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = tensor_memory, b = i8, b_source = shared, acc = i32, scales = none>
#nvfp4 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>

// CHECK-LABEL: func @tcgen05
//  CHECK-SAME: (%[[D:.*]]: i32, %[[TA:.*]]: i32, %[[SA:.*]]: i32, %[[SB:.*]]: i32, %[[A:.*]]: i64, %[[B:.*]]: i64, %[[ACC:.*]]: i1)
//       CHECK:   sage.tcgen05_mma %[[D]], %[[A]], %[[B]], %[[ACC]] {mma = #sage.mma<scope = tcgen05, {{.*}}a_source = shared{{.*}}>} : i64
//       CHECK:   sage.tcgen05_mma %[[D]], %[[TA]], %[[B]], %[[ACC]] {mma = #sage.mma<{{.*}}a_source = tensor_memory{{.*}}>} : i32
//       CHECK:   sage.tcgen05_mma %[[D]], %[[A]], %[[B]], %[[ACC]] scales(%[[SA]], %[[SB]]) {mma = #sage.mma<{{.*}}scales = ue4m3_block16>} : i64
func.func @tcgen05(%d: i32, %ta: i32, %sa: i32, %sb: i32, %a: i64, %b: i64, %acc: i1) {
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #i8} : i64
  sage.tcgen05_mma %d, %ta, %b, %acc {mma = #i8tmem} : i32
  sage.tcgen05_mma %d, %a, %b, %acc scales(%sa, %sb) {mma = #nvfp4} : i64
  return
}

// -----

func.func @negative_scope(%d: i32, %a: i64, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op is one tcgen05.mma, but its mma is of scope warpgroup}}
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>} : i64
  return
}

// -----

#i8 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_shared_a_address(%d: i32, %a: i32, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op expected a as the i64 shared-memory descriptor the row reads A through, got 'i32'}}
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #i8} : i32
  return
}

// -----

#i8tmem = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = tensor_memory, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_tensor_memory_a_descriptor(%d: i32, %a: i64, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op expected a as the i32 tensor-memory address the row reads A from, got 'i64'}}
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #i8tmem} : i64
  return
}

// -----

#nvfp4 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>
func.func @negative_no_scales(%d: i32, %a: i64, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op expected the tensor-memory addresses of A's and B's block scales: the row is block-scaled}}
  sage.tcgen05_mma %d, %a, %b, %acc {mma = #nvfp4} : i64
  return
}

// -----

#i8 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_scales(%d: i32, %s: i32, %a: i64, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op takes block scales only for a block-scaled row}}
  sage.tcgen05_mma %d, %a, %b, %acc scales(%s, %s) {mma = #i8} : i64
  return
}

// -----

#nvfp4 = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>
func.func @negative_a_scales_only(%d: i32, %s: i32, %a: i64, %b: i64, %acc: i1) {
  // expected-error@+1 {{'sage.tcgen05_mma' op expected the block scales of both A and B, or neither}}
  "sage.tcgen05_mma"(%d, %a, %b, %acc, %s) {mma = #nvfp4, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (i32, i64, i64, i1, i32) -> ()
  return
}
