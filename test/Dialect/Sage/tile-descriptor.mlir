// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// The descriptor through which a wgmma reads its rows of an operand held
// as K-major core matrices ([K / 16, rows, 16] bytes; docs/Layouts.md):
// Q's rows of a warpgroup (A) from a tensor, a k32 chunk of V^T (B) from a
// workgroup buffer.
#qk = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                b = i8, b_source = shared, acc = i32, scales = none>
#pv = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
// CHECK-LABEL: func @descriptors
//  CHECK-SAME: (%[[Q:.*]]: tensor<4x128x16xi8>, %[[V:.*]]: memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>, %[[ROW:.*]]: index)
//       CHECK:   %[[C32:.*]] = arith.constant 32 : index
//       CHECK:   sage.tile_descriptor %[[Q]][%[[ROW]], %[[C32]]] {mma = #sage.mma<scope = warpgroup, {{.*}}a = i8, a_source = shared{{.*}}>} : tensor<4x128x16xi8> -> i64
//       CHECK:   sage.tile_descriptor %[[V]][%[[ROW]], %[[C32]]] {mma = #sage.mma<scope = warpgroup, {{.*}}a = f8E4M3FN, a_source = registers{{.*}}>} : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>> -> i64
func.func @descriptors(%q: tensor<4x128x16xi8>,
                       %v: memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>>,
                       %row: index) -> (i64, i64) {
  %c32 = arith.constant 32 : index
  %a = sage.tile_descriptor %q[%row, %c32] {mma = #qk} : tensor<4x128x16xi8> -> i64
  %b = sage.tile_descriptor %v[%row, %c32] {mma = #pv}
      : memref<4x64x16xf8E4M3FN, #gpu.address_space<workgroup>> -> i64
  return %a, %b : i64, i64
}

// -----

func.func @negative_warp_mma(%t: tensor<4x64x16xi8>, %i: index) -> i64 {
  // expected-error@+1 {{'sage.tile_descriptor' op describes shared memory for wgmma or tcgen05, but its mma is an mma.sync, which reads registers}}
  %d = sage.tile_descriptor %t[%i, %i] {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32,
      a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>}
      : tensor<4x64x16xi8> -> i64
  return %d : i64
}

// -----

// P, the A operand of this row, comes from registers: only B's tile has a
// descriptor.
func.func @negative_operand_in_registers(%t: tensor<4x64x16xi8>, %i: index) -> i64 {
  // expected-error@+1 {{'sage.tile_descriptor' op expected a tile of an operand the MMA reads from shared memory ('f8E4M3FN' B), got 'i8'}}
  %d = sage.tile_descriptor %t[%i, %i] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
      a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>}
      : tensor<4x64x16xi8> -> i64
  return %d : i64
}

// -----

func.func @negative_row_bytes(%t: tensor<8x64x8xi8>, %i: index) -> i64 {
  // expected-error@+1 {{'sage.tile_descriptor' op expected a tile of core matrices [K / 16, rows, 16] (16-byte rows of 'i8', static), got 'tensor<8x64x8xi8>'}}
  %d = sage.tile_descriptor %t[%i, %i] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
      a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
      : tensor<8x64x8xi8> -> i64
  return %d : i64
}

// -----

func.func @negative_global_buffer(%t: memref<4x64x16xi8>, %i: index) -> i64 {
  // expected-error@+1 {{'sage.tile_descriptor' op expected a buffer in workgroup memory whose 16-byte rows are contiguous and one after another, at a static column stride, got 'memref<4x64x16xi8>'}}
  %d = sage.tile_descriptor %t[%i, %i] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
      a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
      : memref<4x64x16xi8> -> i64
  return %d : i64
}

// -----

func.func @negative_sub_byte(%t: tensor<2x64x32xf4E2M1FN>, %i: index) -> i64 {
  // expected-error@+1 {{'sage.tile_descriptor' op describes tiles of whole bytes; 'f4E2M1FN' elements (stored 2 a byte) are not supported yet}}
  %d = sage.tile_descriptor %t[%i, %i] {mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64,
      a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>}
      : tensor<2x64x32xf4E2M1FN> -> i64
  return %d : i64
}

// -----

func.func @negative_column(%t: tensor<4x64x16xi8>, %i: index) -> i64 {
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{'sage.tile_descriptor' op starts at column 8, which is not on a core matrix's 16-byte column (a multiple of 16)}}
  %d = sage.tile_descriptor %t[%i, %c8] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
      a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
      : tensor<4x64x16xi8> -> i64
  return %d : i64
}
