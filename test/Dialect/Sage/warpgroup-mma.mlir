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

// A chain starts without an accumulator (D = A * B); its register operands
// pass sage.warpgroup_fence, its commit returns the group's token, and its
// result passes the sage.warpgroup_wait on that token.
#s8r = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = registers, b = i8, b_source = shared, acc = i32, scales = none>

// CHECK-LABEL: func @chain
//  CHECK-SAME: (%[[A0:.*]]: vector<16xi8>, %[[A1:.*]]: vector<16xi8>, %[[DB:.*]]: i64)
//       CHECK: %[[A:.*]]:2 = sage.warpgroup_fence(%[[A0]], %[[A1]] : vector<16xi8>, vector<16xi8>)
//       CHECK: %[[D0:.*]] = sage.warpgroup_mma %[[A]]#0, %[[DB]] {mma = {{.*}}} : vector<16xi8> -> vector<64xi32>
//       CHECK: %[[D1:.*]] = sage.warpgroup_mma %[[A]]#1, %[[DB]], %[[D0]] {mma = {{.*}}} : vector<16xi8> -> vector<64xi32>
//       CHECK: %[[G:.*]] = sage.warpgroup_commit(%[[D1]] : vector<64xi32>)
//       CHECK: %[[D:.*]]:3 = sage.warpgroup_wait 0 on %[[G]], %[[D1]], %[[A]]#0, %[[A]]#1 : vector<64xi32>, vector<16xi8>, vector<16xi8>
//       CHECK: sage.warpgroup_fence
//  CHECK-NEXT: %[[EMPTY:.*]] = sage.warpgroup_commit{{$}}
//  CHECK-NEXT: sage.warpgroup_wait 0 on %[[EMPTY]]{{$}}
//  CHECK-NEXT: return %[[D]]#0
func.func @chain(%a0: vector<16xi8>, %a1: vector<16xi8>, %db: i64) -> vector<64xi32> {
  %a:2 = sage.warpgroup_fence(%a0, %a1 : vector<16xi8>, vector<16xi8>)
  %d0 = sage.warpgroup_mma %a#0, %db {mma = #s8r} : vector<16xi8> -> vector<64xi32>
  %d1 = sage.warpgroup_mma %a#1, %db, %d0 {mma = #s8r} : vector<16xi8> -> vector<64xi32>
  %g = sage.warpgroup_commit(%d1 : vector<64xi32>)
  %d:3 = sage.warpgroup_wait 0 on %g, %d1, %a#0, %a#1 : vector<64xi32>, vector<16xi8>, vector<16xi8>
  sage.warpgroup_fence
  %empty = sage.warpgroup_commit
  sage.warpgroup_wait 0 on %empty
  return %d#0 : vector<64xi32>
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

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>

func.func @negative_result_without_accumulator(%da: i64, %db: i64) -> vector<32xi32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op expected result of type 'vector<64xi32>' (a thread's share of 64x128) for wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8, got 'vector<32xi32>'}}
  %0 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<32xi32>
  return %0 : vector<32xi32>
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>

func.func @negative_accumulator_unlike_result(%da: i64, %db: i64, %c: vector<64xi32>) -> vector<64xf32> {
  // expected-error@+1 {{'sage.warpgroup_mma' op failed to verify that acc has the result's type}}
  %0 = "sage.warpgroup_mma"(%da, %db, %c) {mma = #s8} : (i64, i64, vector<64xi32>) -> vector<64xf32>
  return %0 : vector<64xf32>
}

// -----

func.func @negative_wait_pending(%g: !sage.wgmma_group, %d: vector<64xi32>) -> vector<64xi32> {
  // expected-error@+1 {{'sage.warpgroup_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0}}
  %0 = sage.warpgroup_wait -1 on %g, %d : vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

func.func @negative_wait_types(%g: !sage.wgmma_group, %d: vector<64xi32>) -> vector<64xf32> {
  // expected-error@+1 {{'sage.warpgroup_wait' op failed to verify that the results have the fragments' types}}
  %0 = "sage.warpgroup_wait"(%g, %d) {pending = 0 : i64} : (!sage.wgmma_group, vector<64xi32>) -> vector<64xf32>
  return %0 : vector<64xf32>
}

// -----

func.func @negative_wait_pending_too_many(%g: !sage.wgmma_group, %d: vector<64xi32>) -> vector<64xi32> {
  // expected-error@+1 {{'sage.warpgroup_wait' op attribute 'pending' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 0 whose maximum value is 7}}
  %0 = sage.warpgroup_wait 8 on %g, %d : vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

func.func @negative_fence_partial_register(%a: vector<3xi8>) -> vector<3xi8> {
  // expected-error@+1 {{'sage.warpgroup_fence' op expected fragment #0 to fill whole 32-bit registers with integer or float elements, got 'vector<3xi8>'}}
  %0 = sage.warpgroup_fence(%a : vector<3xi8>)
  return %0 : vector<3xi8>
}

// -----

func.func @negative_wait_index_fragment(%g: !sage.wgmma_group, %s: vector<2xf32>, %d: vector<4xindex>) -> vector<4xindex> {
  // expected-error@+1 {{'sage.warpgroup_wait' op expected fragment #1 to fill whole 32-bit registers with integer or float elements, got 'vector<4xindex>'}}
  %0:2 = sage.warpgroup_wait 0 on %g, %s, %d : vector<2xf32>, vector<4xindex>
  return %0#1 : vector<4xindex>
}

// -----

// A wgmma result is read after the wait of its own group.
#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_wait_other_group(%da: i64, %db: i64) -> vector<64xi32> {
  %d0 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  %g0 = sage.warpgroup_commit(%d0 : vector<64xi32>)
  %d1 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  %g1 = sage.warpgroup_commit(%d1 : vector<64xi32>)
  // expected-error@+1 {{'sage.warpgroup_wait' op waits on a group that does not cover fragment #0, a wgmma result no earlier commit names}}
  %0 = sage.warpgroup_wait 1 on %g0, %d1 : vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

// Groups complete in commit order: waiting for a later group covers an
// earlier group's results.
// CHECK-LABEL: func @wait_later_group
//       CHECK:   sage.warpgroup_wait 0 on %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi32>, vector<64xi32>
#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @wait_later_group(%da: i64, %db: i64) -> vector<64xi32> {
  %d0 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  %g0 = sage.warpgroup_commit(%d0 : vector<64xi32>)
  %d1 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  %g1 = sage.warpgroup_commit(%d1 : vector<64xi32>)
  %0:2 = sage.warpgroup_wait 0 on %g1, %d0, %d1 : vector<64xi32>, vector<64xi32>
  return %0#0 : vector<64xi32>
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_wait_too_many_pending(%da: i64, %db: i64) -> vector<64xi32> {
  %d0 = sage.warpgroup_mma %da, %db {mma = #s8} : i64 -> vector<64xi32>
  %g0 = sage.warpgroup_commit(%d0 : vector<64xi32>)
  // expected-error@+1 {{'sage.warpgroup_wait' op leaves 1 groups pending, but only 0 were committed after its group}}
  %0 = sage.warpgroup_wait 1 on %g0, %d0 : vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

func.func @negative_wait_argument_token(%g: !sage.wgmma_group, %d: vector<64xi32>) -> vector<64xi32> {
  // expected-error@+1 {{'sage.warpgroup_wait' op expected the token of a sage.warpgroup_commit}}
  %0 = sage.warpgroup_wait 0 on %g, %d : vector<64xi32>
  return %0 : vector<64xi32>
}

// -----

func.func @negative_commit_token_returned() -> !sage.wgmma_group {
  // expected-error@+1 {{'sage.warpgroup_commit' op token is used by 'func.return'; only sage.warpgroup_wait takes it}}
  %g = sage.warpgroup_commit
  return %g : !sage.wgmma_group
}

// -----

func.func @negative_commit_token_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'sage.warpgroup_commit' op token is used by 'scf.for'; only sage.warpgroup_wait takes it}}
  %g = sage.warpgroup_commit
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %g) -> (!sage.wgmma_group) {
    scf.yield %t : !sage.wgmma_group
  }
  return
}

// -----

// sage.matrix_descriptor: the descriptor a wgmma or tcgen05.mma row reads a
// shared-memory operand through.
// CHECK-LABEL: func @descriptor
//       CHECK:   sage.matrix_descriptor %{{.*}} {leading = 1024 : i64, mma = #sage.mma<scope = warpgroup{{.*}}>, stride = 128 : i64}
#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @descriptor(%address: i64) -> i64 {
  %0 = sage.matrix_descriptor %address {leading = 1024 : i64, mma = #s8, stride = 128 : i64}
  return %0 : i64
}

// -----

func.func @negative_descriptor_warp(%address: i64) -> i64 {
  // expected-error@+1 {{'sage.matrix_descriptor' op describes shared memory for wgmma or tcgen05, but its mma is an mma.sync, which reads registers}}
  %0 = sage.matrix_descriptor %address {leading = 1024 : i64, mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>, stride = 128 : i64}
  return %0 : i64
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_descriptor_leading(%address: i64) -> i64 {
  // expected-error@+1 {{'sage.matrix_descriptor' op leading must be a multiple of 16 below 2^18 bytes, got 1000}}
  %0 = sage.matrix_descriptor %address {leading = 1000 : i64, mma = #s8, stride = 128 : i64}
  return %0 : i64
}

// -----

#s8 = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
func.func @negative_descriptor_stride(%address: i64) -> i64 {
  // expected-error@+1 {{'sage.matrix_descriptor' op stride must be a multiple of 16 below 2^18 bytes, got 262144}}
  %0 = sage.matrix_descriptor %address {leading = 1024 : i64, mma = #s8, stride = 262144 : i64}
  return %0 : i64
}
