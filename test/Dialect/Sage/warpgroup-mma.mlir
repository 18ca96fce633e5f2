// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// sage.warpgroup_mma: one wgmma of a warpgroup, A from a shared-memory
// descriptor or a thread's registers, B from a descriptor; a thread holds
// 1/128 of A (registers) and of the accumulator.

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
#e4r = #sage.mma<scope = warpgroup, m = 64, n = 256, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>

// CHECK-LABEL: func @rows
//  CHECK-SAME: (%[[DA:.*]]: i64, %[[DB:.*]]: i64, %[[C:.*]]: vector<64xi32>, %[[A:.*]]: vector<16xf8E4M3FN>, %[[CF:.*]]: vector<128xf32>)
//       CHECK: sage.warpgroup_mma %[[DA]], %[[DB]], %[[C]] {mma = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, {{.*}}>} : i64 -> vector<64xi32>
//       CHECK: sage.warpgroup_mma %[[A]], %[[DB]], %[[CF]] {mma = #sage.mma<scope = warpgroup, m = 64, n = 256, k = 32, a = f8E4M3FN, a_source = registers, {{.*}}>} : vector<16xf8E4M3FN> -> vector<128xf32>
func.func @rows(%da: i64, %db: i64, %c: vector<64xi32>, %a: vector<16xf8E4M3FN>, %cf: vector<128xf32>) -> (vector<64xi32>, vector<128xf32>) {
  %0 = sage.warpgroup_mma %da, %db, %c {mma = #s8} : i64 -> vector<64xi32>
  %1 = sage.warpgroup_mma %a, %db, %cf {mma = #e4r} : vector<16xf8E4M3FN> -> vector<128xf32>
  return %0, %1 : vector<64xi32>, vector<128xf32>
}

// -----

#warp = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>

func.func @negative_warp_row(%da: i64, %db: i64, %c: vector<4xi32>) -> vector<4xi32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op is one instruction of a warpgroup, but its mma is of scope warp}}
  %0 = sage.warpgroup_mma %da, %db, %c {mma = #warp} : i64 -> vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>

func.func @negative_shared_a_in_registers(%a: vector<16xi8>, %db: i64, %c: vector<64xi32>) -> vector<64xi32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op expected a as the i64 shared-memory descriptor the row reads A through, got 'vector<16xi8>'}}
  %0 = sage.warpgroup_mma %a, %db, %c {mma = #s8} : vector<16xi8> -> vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

#s8r = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = registers, b = i8, b_source = shared, acc = i32, scales = none>

func.func @negative_register_fragment(%a: vector<32xi8>, %db: i64, %c: vector<64xi32>) -> vector<64xi32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op expected a of type 'vector<16xi8>' (a thread's share of 64x32) for wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8, got 'vector<32xi8>'}}
  %0 = sage.warpgroup_mma %a, %db, %c {mma = #s8r} : vector<32xi8> -> vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>

func.func @negative_accumulator(%da: i64, %db: i64, %c: vector<32xi32>) -> vector<32xi32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op expected acc of type 'vector<64xi32>' (a thread's share of 64x128) for wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8, got 'vector<32xi32>'}}
  %0 = sage.warpgroup_mma %da, %db, %c {mma = #s8} : i64 -> vector<32xi32>
  return %0 : vector<32xi32>
}
