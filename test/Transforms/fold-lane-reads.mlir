// RUN: sage-opt %s --sage-fold-lane-reads -split-input-file | FileCheck %s

// A lane's reads of an operand window padded to the tile become reads of
// the window that may overrun it (docs/Levels.md, "From lanes to a
// kernel"): every dimension of the window is a dimension of the read, so
// vector.transfer_read masks the rows past its end too, and yields the
// pad's value there. The pad goes.
// CHECK-LABEL: func @padded_window
//  CHECK-SAME:   (%[[WINDOW:[^:]*]]: tensor<?x64xi8>, %[[ROW:[^:]*]]: index, %[[COL:[^:]*]]: index
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0 : i8
//   CHECK-NOT:   tensor.pad
//       CHECK:   %[[ONE:.*]] = vector.transfer_read %[[WINDOW]][%[[ROW]], %[[COL]]], %[[ZERO]] : tensor<?x64xi8>, vector<1x1xi8>
//       CHECK:   %[[ELEMENT:.*]] = vector.extract %[[ONE]][0, 0] : i8 from vector<1x1xi8>
//       CHECK:   %[[READ:.*]] = vector.transfer_read %[[WINDOW]][%[[ROW]], %[[COL]]], %[[ZERO]] : tensor<?x64xi8>, vector<1x4xi8>
//       CHECK:   %[[FOUR:.*]] = vector.shape_cast %[[READ]] : vector<1x4xi8> to vector<4xi8>
//       CHECK:   return %[[ELEMENT]], %[[FOUR]]
func.func @padded_window(%window: tensor<?x64xi8>, %row: index, %col: index, %high: index) -> (i8, vector<4xi8>) {
  %zero = arith.constant 0 : i8
  %tile = tensor.pad %window low[0, 0] high[%high, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i8
  } : tensor<?x64xi8> to tensor<64x64xi8>
  %element = tensor.extract %tile[%row, %col] : tensor<64x64xi8>
  %read = vector.transfer_read %tile[%row, %col], %zero {in_bounds = [true]} : tensor<64x64xi8>, vector<4xi8>
  return %element, %read : i8, vector<4xi8>
}

// -----

// Padding at the low end shifts the window; the reads stay on the tile.
// CHECK-LABEL: func @low_padding
//       CHECK:   %[[TILE:.*]] = tensor.pad
//       CHECK:   tensor.extract %[[TILE]]
func.func @low_padding(%window: tensor<?x64xi8>, %row: index, %col: index, %low: index) -> i8 {
  %zero = arith.constant 0 : i8
  %tile = tensor.pad %window low[%low, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i8
  } : tensor<?x64xi8> to tensor<64x64xi8>
  %element = tensor.extract %tile[%row, %col] : tensor<64x64xi8>
  return %element : i8
}

// -----

// A read of the pad's elements with another padding value of its own
// would change what the overrun reads: it stays.
// CHECK-LABEL: func @other_padding
//       CHECK:   %[[TILE:.*]] = tensor.pad
//       CHECK:   vector.transfer_read %[[TILE]]
func.func @other_padding(%window: tensor<?x64xi8>, %row: index, %col: index, %high: index) -> vector<4xi8> {
  %zero = arith.constant 0 : i8
  %one = arith.constant 1 : i8
  %tile = tensor.pad %window low[0, 0] high[%high, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i8
  } : tensor<?x64xi8> to tensor<64x64xi8>
  %read = vector.transfer_read %tile[%row, %col], %one : tensor<64x64xi8>, vector<4xi8>
  return %read : vector<4xi8>
}

// -----

// V^T: a read of the transposed tile reads V at the swapped coordinates,
// a run along V's rows (permutation map d0).
//       CHECK: #[[ROWS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @transposed
//  CHECK-SAME:   (%[[V:[^:]*]]: tensor<64x32xf16>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[ELEMENT:.*]] = tensor.extract %[[V]][%[[J]], %[[I]]] : tensor<64x32xf16>
//       CHECK:   %[[READ:.*]] = vector.transfer_read %[[V]][%[[J]], %[[I]]], %{{.*}} {in_bounds = [true], permutation_map = #[[ROWS]]} : tensor<64x32xf16>, vector<4xf16>
//       CHECK:   return %[[ELEMENT]], %[[READ]]
func.func @transposed(%v: tensor<64x32xf16>, %i: index, %j: index) -> (f16, vector<4xf16>) {
  %zero = arith.constant 0.0 : f16
  %empty = tensor.empty() : tensor<32x64xf16>
  %vt = linalg.transpose ins(%v : tensor<64x32xf16>) outs(%empty : tensor<32x64xf16>) permutation = [1, 0]
  %element = tensor.extract %vt[%i, %j] : tensor<32x64xf16>
  %read = vector.transfer_read %vt[%i, %j], %zero {in_bounds = [true]} : tensor<32x64xf16>, vector<4xf16>
  return %element, %read : f16, vector<4xf16>
}

// -----

// V^T gathered into P's key order (sage-distribute-tiles' B of P V), read
// where no promote level staged it: each element of a lane's word is V's
// at (key(p), d). Lane t = 1's first word holds positions 4 to 7 of the
// first 32: keys 2, 3, 10 and 11.
// CHECK-LABEL: func @gathered
//  CHECK-SAME:   (%[[V:[^:]*]]: tensor<64x64xf8E4M3FN>, %[[D:[^:]*]]: index)
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
//   CHECK-DAG:   %[[C10:.*]] = arith.constant 10 : index
//   CHECK-DAG:   %[[C11:.*]] = arith.constant 11 : index
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[E0:.*]] = tensor.extract %[[V]][%[[C2]], %[[D]]] : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[E1:.*]] = tensor.extract %[[V]][%[[C3]], %[[D]]] : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[E2:.*]] = tensor.extract %[[V]][%[[C10]], %[[D]]] : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[E3:.*]] = tensor.extract %[[V]][%[[C11]], %[[D]]] : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[WORD:.*]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]], %[[E3]] : vector<4xf8E4M3FN>
//       CHECK:   return %[[WORD]]
#keys = affine_map<(d0, d1) -> (d0, d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gathered(%v: tensor<64x64xf8E4M3FN>, %d: index) -> vector<4xf8E4M3FN> {
  %zero = arith.constant 0.0 : f8E4M3FN
  %c4 = arith.constant 4 : index
  %te = tensor.empty() : tensor<64x64xf8E4M3FN>
  %vt = linalg.transpose ins(%v : tensor<64x64xf8E4M3FN>) outs(%te : tensor<64x64xf8E4M3FN>) permutation = [1, 0]
  %ge = tensor.empty() : tensor<64x64xf8E4M3FN>
  %vk = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel"]}
      ins(%vt : tensor<64x64xf8E4M3FN>) outs(%ge : tensor<64x64xf8E4M3FN>) {
  ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
    linalg.yield %x : f8E4M3FN
  } -> tensor<64x64xf8E4M3FN>
  %word = vector.transfer_read %vk[%d, %c4], %zero {in_bounds = [true]} : tensor<64x64xf8E4M3FN>, vector<4xf8E4M3FN>
  return %word : vector<4xf8E4M3FN>
}

// -----

// dS: element i of K mean_Q is row i's dot product, the f16 products in
// f32, summed in order onto the init's element (a fill: zero).
// CHECK-LABEL: func @matvec
//  CHECK-SAME:   (%[[K:[^:]*]]: tensor<64x64xf16>, %[[MEAN:[^:]*]]: tensor<64xf32>, %[[I:[^:]*]]: index)
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-NOT:   linalg.matvec
//       CHECK:   %[[ROW:.*]] = vector.transfer_read %[[K]][%[[I]], %[[C0]]], %{{.*}} {in_bounds = [true]} : tensor<64x64xf16>, vector<64xf16>
//       CHECK:   %[[WIDE:.*]] = arith.extf %[[ROW]] : vector<64xf16> to vector<64xf32>
//       CHECK:   %[[X:.*]] = vector.transfer_read %[[MEAN]][%[[C0]]], %[[ZERO]] {in_bounds = [true]} : tensor<64xf32>, vector<64xf32>
//       CHECK:   %[[PRODUCTS:.*]] = arith.mulf %[[WIDE]], %[[X]] : vector<64xf32>
//       CHECK:   %[[SUM:.*]] = vector.reduction <add>, %[[PRODUCTS]], %[[ZERO]] : vector<64xf32> into f32
//       CHECK:   return %[[SUM]]
func.func @matvec(%k: tensor<64x64xf16>, %mean: tensor<64xf32>, %i: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %ds = linalg.matvec ins(%k, %mean : tensor<64x64xf16>, tensor<64xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
  %element = tensor.extract %ds[%i] : tensor<64xf32>
  return %element : f32
}

// -----

// dS that sage-promote-tiles computes once per CTA in workgroup memory
// stays: the lanes read it.
// CHECK-LABEL: func @staged_matvec
//       CHECK:   %[[DS:.*]] = linalg.matvec
//       CHECK:   tensor.extract %[[DS]]
func.func @staged_matvec(%k: tensor<64x64xf16>, %mean: tensor<64xf32>, %i: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%buffer : tensor<64xf32>) -> tensor<64xf32>
  %ds = linalg.matvec ins(%k, %mean : tensor<64x64xf16>, tensor<64xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
  %element = tensor.extract %ds[%i] : tensor<64xf32>
  return %element : f32
}

// -----

// A reduction of dynamic length is not unrolled into one vector.
// CHECK-LABEL: func @dynamic_matvec
//       CHECK:   %[[DS:.*]] = linalg.matvec
//       CHECK:   tensor.extract %[[DS]]
func.func @dynamic_matvec(%k: tensor<64x?xf16>, %mean: tensor<?xf32>, %init: tensor<64xf32>, %i: index) -> f32 {
  %ds = linalg.matvec ins(%k, %mean : tensor<64x?xf16>, tensor<?xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
  %element = tensor.extract %ds[%i] : tensor<64xf32>
  return %element : f32
}

// -----

// A warp's matrix read of a window padded to the tile (not in workgroup
// memory) is each lane's reads of its words: matrix q's row g, from
// position 4 t, read from the window (out of bounds: zero).
// CHECK-LABEL: func @matrices_of_window
//  CHECK-SAME:   (%[[WINDOW:[^:]*]]: tensor<?x64xi8>,
//   CHECK-NOT:   sage.warp_load_matrices
//       CHECK:   %[[LANE:.*]] = arith.remui %{{.*}}, %c32
//       CHECK:   %[[G:.*]] = arith.divui %[[LANE]], %c4
//       CHECK:   %[[T:.*]] = arith.remui %[[LANE]], %c4
//       CHECK:   %[[ROW:.*]] = arith.addi %[[G]], %c8
//       CHECK:   %[[FOUR_T:.*]] = arith.muli %[[T]], %c4
//       CHECK:   %[[COL0:.*]] = arith.addi %[[FOUR_T]], %c32
//       CHECK:   %[[W0:.*]] = vector.transfer_read %[[WINDOW]][%[[ROW]], %[[COL0]]], %{{.*}} : tensor<?x64xi8>, vector<1x4xi8>
//       CHECK:   %[[COL1:.*]] = arith.addi %{{.*}}, %c48
//       CHECK:   %[[W1:.*]] = vector.transfer_read %[[WINDOW]][%{{.*}}, %[[COL1]]], %{{.*}} : tensor<?x64xi8>, vector<1x4xi8>
//       CHECK:   vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi8>, vector<4xi8>
func.func @matrices_of_window(%window: tensor<?x64xi8>, %high: index) -> vector<8xi8> {
  %zero = arith.constant 0 : i8
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %tile = tensor.pad %window low[0, 0] high[%high, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i8
  } : tensor<?x64xi8> to tensor<64x64xi8>
  %b = sage.warp_load_matrices %tile[%c8, %c0] rows [0, 0] columns [32, 48]
      : tensor<64x64xi8> -> vector<8xi8>
  return %b : vector<8xi8>
}

// -----

// In workgroup memory, the read stays: sage-lower-staging makes it one
// ldmatrix.
// CHECK-LABEL: func @matrices_of_workgroup_tile
//       CHECK:   sage.warp_load_matrices
func.func @matrices_of_workgroup_tile(%window: tensor<?x64xi8>) -> vector<4xi8> {
  %zero = arith.constant 0 : i8
  %c0 = arith.constant 0 : index
  %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
  %tile = sage.stage_tile %window pad(%zero : i8) into %buffer
      : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  %b = sage.warp_load_matrices %tile[%c0, %c0] rows [0] columns [0]
      : tensor<64x64xi8> -> vector<4xi8>
  return %b : vector<4xi8>
}
