// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// A warp's MMA registers of a tile, a matrix of 8 rows x 16 bytes at a
// time (docs/Levels.md, distribute): A of an m16n8k32 int8 MMA (rows g and
// g + 8, two 16-byte halves of the chunk) from a tensor, and B of two
// chunks of an 8-key tile from a workgroup buffer.
// CHECK-LABEL: func @registers
//  CHECK-SAME: (%[[Q:.*]]: tensor<64x64xi8>, %[[K:.*]]: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, %[[ROW:.*]]: index)
//       CHECK:   %[[ZERO:.*]] = arith.constant 0 : index
//       CHECK:   sage.warp_load_matrices %[[Q]][%[[ROW]], %[[ZERO]]] rows [0, 8, 0, 8] columns [32, 32, 48, 48] : tensor<64x64xi8> -> vector<16xi8>
//       CHECK:   sage.warp_load_matrices %[[K]][%[[ROW]], %[[ZERO]]] rows [0, 0, 0, 0] columns [0, 16, 32, 48] : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<16xf8E4M3FN>
//       CHECK:   sage.warp_load_matrices %[[K]][%[[ROW]], %[[ZERO]]] rows [56] columns [48] : {{.*}} -> vector<4xf8E4M3FN>
func.func @registers(%q: tensor<64x64xi8>,
                     %k: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>,
                     %row: index) -> (vector<16xi8>, vector<16xf8E4M3FN>, vector<4xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %a = sage.warp_load_matrices %q[%row, %c0] rows [0, 8, 0, 8] columns [32, 32, 48, 48]
      : tensor<64x64xi8> -> vector<16xi8>
  %b = sage.warp_load_matrices %k[%row, %c0] rows [0, 0, 0, 0] columns [0, 16, 32, 48]
      : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<16xf8E4M3FN>
  %last = sage.warp_load_matrices %k[%row, %c0] rows [56] columns [48]
      : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<4xf8E4M3FN>
  return %a, %b, %last : vector<16xi8>, vector<16xf8E4M3FN>, vector<4xf8E4M3FN>
}

// -----

// 16-bit elements: a word is 2 of them, a matrix row 8.
// CHECK-LABEL: func @halves
//       CHECK:   sage.warp_load_matrices %{{.*}}[%{{.*}}, %{{.*}}] rows [0, 8] columns [8, 8] : tensor<16x16xf16> -> vector<4xf16>
func.func @halves(%p: tensor<16x16xf16>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %a = sage.warp_load_matrices %p[%c0, %c0] rows [0, 8] columns [8, 8]
      : tensor<16x16xf16> -> vector<4xf16>
  return %a : vector<4xf16>
}

// -----

func.func @negative_rank(%t: tensor<64xi8>, %i: index) -> vector<4xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected a 2-D tile, got 'tensor<64xi8>'}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0] columns [0] : tensor<64xi8> -> vector<4xi8>
  return %r : vector<4xi8>
}

// -----

func.func @negative_element_type(%t: tensor<64x64xi8>, %i: index) -> vector<4xf8E4M3FN> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected a result of the tile's element type 'i8', got 'vector<4xf8E4M3FN>'}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0] columns [0] : tensor<64x64xi8> -> vector<4xf8E4M3FN>
  return %r : vector<4xf8E4M3FN>
}

// -----

func.func @negative_width(%t: tensor<64x64xf32>, %i: index) -> vector<1xf32> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected 8- or 16-bit elements (four lanes' words make a matrix row of 16 bytes), got 'f32'}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0] columns [0] : tensor<64x64xf32> -> vector<1xf32>
  return %r : vector<1xf32>
}

// -----

func.func @negative_count(%t: tensor<64x64xi8>, %i: index) -> vector<12xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected 1, 2 or 4 matrices, as many row as column offsets, got 3 and 3}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0, 0, 0] columns [0, 16, 32] : tensor<64x64xi8> -> vector<12xi8>
  return %r : vector<12xi8>
}

// -----

func.func @negative_offsets(%t: tensor<64x64xi8>, %i: index) -> vector<8xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected 1, 2 or 4 matrices, as many row as column offsets, got 2 and 1}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0, 8] columns [0] : tensor<64x64xi8> -> vector<8xi8>
  return %r : vector<8xi8>
}

// -----

func.func @negative_result_size(%t: tensor<64x64xi8>, %i: index) -> vector<8xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected 16 elements (4 matrices of a 4-element word a lane), got 'vector<8xi8>'}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0, 0, 0, 0] columns [0, 16, 32, 48] : tensor<64x64xi8> -> vector<8xi8>
  return %r : vector<8xi8>
}

// -----

func.func @negative_unaligned(%t: tensor<64x64xi8>, %i: index) -> vector<8xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op expected column offsets on 16-byte boundaries (multiples of 16), got 8 for matrix 1}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [0, 0] columns [0, 8] : tensor<64x64xi8> -> vector<8xi8>
  return %r : vector<8xi8>
}

// -----

func.func @negative_outside(%t: memref<64x64xi8>, %i: index) -> vector<4xi8> {
  // expected-error@+1 {{'sage.warp_load_matrices' op matrix 0 at offsets (60, 0) is not inside the tile 'memref<64x64xi8>'}}
  %r = sage.warp_load_matrices %t[%i, %i] rows [60] columns [0] : memref<64x64xi8> -> vector<4xi8>
  return %r : vector<4xi8>
}
