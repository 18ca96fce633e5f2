// RUN: sage-opt %s --sage-pack-int4 --split-input-file -verify-diagnostics | FileCheck %s

// A lane's INT4 Q and K fragments after sage-distribute-tiles: Q and K
// become their bytes (the last dimension halved), the windows and reads
// move whole bytes (column 8 t is byte 4 t), the concatenation of Q's
// registers shuffles bytes, and the MMA takes the bytes bitcast to i4 (an
// m16n8k64 s4 fragment is the m16n8k32 s8 fragment of the packed tile).
// CHECK-LABEL: func @fragments
//  CHECK-SAME:     (%[[Q:.*]]: tensor<?x64x32xi8>, %[[K:.*]]: tensor<?x64x32xi8>, %[[ROWS:.*]]: index, %[[LANE:.*]]: index)
//       CHECK:   %[[DIM:.*]] = tensor.dim %[[Q]], %{{.*}} : tensor<?x64x32xi8>
//       CHECK:   %[[QW:.*]] = tensor.extract_slice %[[Q]][0, 0, 0] [1, %[[ROWS]], 32] [1, 1, 1] : tensor<?x64x32xi8> to tensor<?x32xi8>
//       CHECK:   %[[PAD:.*]] = arith.constant -86 : i8
//       CHECK:   %[[QP:.*]] = tensor.pad %[[QW]] low[0, 0] high[%{{.*}}, 0]
//       CHECK:     tensor.yield %[[PAD]] : i8
//       CHECK:   } : tensor<?x32xi8> to tensor<64x32xi8>
//       CHECK:   %[[ROW8:.*]] = arith.addi %[[LANE]], %c8
//       CHECK:   %[[BYTE:.*]] = arith.muli %[[LANE]], %c4
//       CHECK:   %[[ZERO:.*]] = arith.constant 0 : i8
//       CHECK:   %[[R0:.*]] = vector.transfer_read %[[QP]][%[[LANE]], %[[BYTE]]], %[[ZERO]] {in_bounds = [true]} : tensor<64x32xi8>, vector<8xi8>
//       CHECK:   %[[R1:.*]] = vector.transfer_read %[[QP]][%[[ROW8]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64x32xi8>, vector<8xi8>
//       CHECK:   %[[A8:.*]] = vector.shuffle %[[R0]], %[[R1]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
//       CHECK:   %[[A:.*]] = vector.bitcast %[[A8]] : vector<16xi8> to vector<32xi4>
//       CHECK:   %[[KW:.*]] = tensor.extract_slice %[[K]][0, 0, 0] [1, 64, 32] [1, 1, 1] : tensor<?x64x32xi8> to tensor<64x32xi8>
//       CHECK:   %[[B8:.*]] = vector.transfer_read %[[KW]][%[[LANE]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64x32xi8>, vector<8xi8>
//       CHECK:   %[[B:.*]] = vector.bitcast %[[B8]] : vector<8xi8> to vector<16xi4>
//       CHECK:   %[[D:.*]] = sage.warp_mma %[[A]], %[[B]], %{{.*}} {{.*}} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
//       CHECK:   return %[[DIM]], %[[D]]
#s4 = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers,
                b = i4, b_source = registers, acc = i32, scales = none>
func.func @fragments(%q: tensor<?x64x64xi4>, %k: tensor<?x64x64xi4>, %rows: index,
                     %lane: index) -> (index, vector<4xi32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i4
  %pad = arith.constant -6 : i4
  %acc = arith.constant dense<0> : vector<4xi32>
  %heads = tensor.dim %q, %c0 : tensor<?x64x64xi4>
  %qw = tensor.extract_slice %q[0, 0, 0] [1, %rows, 64] [1, 1, 1]
      : tensor<?x64x64xi4> to tensor<?x64xi4>
  %high = arith.subi %c64, %rows : index
  %qp = tensor.pad %qw low[0, 0] high[%high, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pad : i4
  } : tensor<?x64xi4> to tensor<64x64xi4>
  %col = arith.muli %lane, %c8 : index
  %row8 = arith.addi %lane, %c8 : index
  %r0 = vector.transfer_read %qp[%lane, %col], %zero {in_bounds = [true]} : tensor<64x64xi4>, vector<16xi4>
  %r1 = vector.transfer_read %qp[%row8, %col], %zero {in_bounds = [true]} : tensor<64x64xi4>, vector<16xi4>
  %a = vector.shuffle %r0, %r1 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
      : vector<16xi4>, vector<16xi4>
  %kw = tensor.extract_slice %k[0, 0, 0] [1, 64, 64] [1, 1, 1]
      : tensor<?x64x64xi4> to tensor<64x64xi4>
  %kcol = arith.muli %lane, %c8 : index
  %b = vector.transfer_read %kw[%lane, %kcol], %zero {in_bounds = [true]} : tensor<64x64xi4>, vector<16xi4>
  %d = sage.warp_mma %a, %b, %acc {mma = #s4} : vector<32xi4>, vector<16xi4> -> vector<4xi32>
  return %heads, %d : index, vector<4xi32>
}

// -----

// A quantizer's values: the generic runs over the bytes, reading each
// input at columns 2j and 2j + 1, and packs the two results, the lower
// column in the low nibble.
// CHECK-DAG: #[[LOW:.*]] = affine_map<(d0, d1) -> (d0, d1 * 2)>
// CHECK-DAG: #[[HIGH:.*]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @quantizer
//       CHECK:   %[[INIT:.*]] = tensor.empty(%{{.*}}) : tensor<?x32xi8>
//       CHECK:   %[[PACKED:.*]] = linalg.generic {indexing_maps = [#[[LOW]], #[[ROW]], #[[HIGH]], #[[ROW]], #[[ID]]]
//  CHECK-SAME:       ins(%[[X:.*]], %[[S:.*]], %[[X]], %[[S]] : tensor<?x64xf32>, tensor<?x1xf32>, tensor<?x64xf32>, tensor<?x1xf32>)
//  CHECK-SAME:       outs(%[[INIT]] : tensor<?x32xi8>)
//       CHECK:   ^bb0(%[[X0:.*]]: f32, %[[S0:.*]]: f32, %[[X1:.*]]: f32, %[[S1:.*]]: f32, %{{.*}}: i8):
//       CHECK:     %[[D0:.*]] = arith.divf %[[X0]], %[[S0]]
//       CHECK:     %[[V0:.*]] = arith.fptosi %{{.*}} : f32 to i4
//       CHECK:     %[[E0:.*]] = arith.extui %[[V0]] : i4 to i8
//       CHECK:     %[[D1:.*]] = arith.divf %[[X1]], %[[S1]]
//       CHECK:     %[[V1:.*]] = arith.fptosi %{{.*}} : f32 to i4
//       CHECK:     %[[E1:.*]] = arith.extui %[[V1]] : i4 to i8
//       CHECK:     %[[HI:.*]] = arith.shli %[[E1]], %c4_i8
//       CHECK:     %[[BYTE:.*]] = arith.ori %[[E0]], %[[HI]]
//       CHECK:     linalg.yield %[[BYTE]] : i8
//       CHECK:   return %[[PACKED]] : tensor<?x32xi8>
func.func @quantizer(%x: tensor<?x64xf32>, %s: tensor<?x1xf32>) -> tensor<?x64xi4> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %init = tensor.empty(%n) : tensor<?x64xi4>
  %v = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>,
                       affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<?x64xf32>, tensor<?x1xf32>) outs(%init : tensor<?x64xi4>) {
  ^bb0(%in: f32, %scale: f32, %out: i4):
    %q = arith.divf %in, %scale : f32
    %r = math.roundeven %q : f32
    %i = arith.fptosi %r : f32 to i4
    linalg.yield %i : i4
  } -> tensor<?x64xi4>
  return %v : tensor<?x64xi4>
}

// -----

// The packed tile is the source of truth: a value in an odd column of a
// byte cannot be sliced out.
func.func @negative_odd_slice(%k: tensor<64x64xi4>) -> tensor<64x8xi4> {
  // expected-error @below {{'tensor.extract_slice' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: its columns do not start and end on whole bytes (even offset and size, stride 1)}}
  %w = tensor.extract_slice %k[0, 3] [64, 8] [1, 1] : tensor<64x64xi4> to tensor<64x8xi4>
  return %w : tensor<64x8xi4>
}

// -----

func.func @negative_unproven_column(%k: tensor<64x64xi4>, %lane: index) -> vector<8xi4> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i4
  %col = arith.addi %lane, %c1 : index
  // expected-error @below {{'vector.transfer_read' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: its column index is not provably even}}
  %r = vector.transfer_read %k[%lane, %col], %zero {in_bounds = [true]} : tensor<64x64xi4>, vector<8xi4>
  return %r : vector<8xi4>
}

// -----

// expected-error @below {{'func.func' op has 'tensor<?x?xi4>', which cannot be stored packed, two i4 values a byte: its last dimension is dynamic}}
func.func @negative_dynamic_columns(%k: tensor<?x?xi4>) -> tensor<?x?xi4> {
  return %k : tensor<?x?xi4>
}

// -----

func.func @negative_element_read(%k: tensor<64x64xi4>, %i: index) -> i4 {
  // expected-error @below {{'tensor.extract' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: this pass does not store its i4 values packed}}
  %e = tensor.extract %k[%i, %i] : tensor<64x64xi4>
  return %e : i4
}

// -----

func.func @negative_split_shuffle(%a: vector<8xi4>, %b: vector<8xi4>) -> vector<8xi4> {
  // expected-error @below {{'vector.shuffle' op has 'vector<8xi4>', which cannot be stored packed, two i4 values a byte: its mask splits bytes}}
  %s = vector.shuffle %a, %b [1, 2, 3, 4, 5, 6, 7, 8] : vector<8xi4>, vector<8xi4>
  return %s : vector<8xi4>
}

// -----

// expected-error @below {{'func.func' op has 'tensor<i4>', which cannot be stored packed, two i4 values a byte: it has no columns}}
func.func @negative_no_columns(%k: tensor<i4>) {
  return
}

// -----

// expected-error @below {{'func.func' op has 'tensor<64x63xi4>', which cannot be stored packed, two i4 values a byte: its last dimension, 63, is odd}}
func.func @negative_odd_columns(%k: tensor<64x63xi4>) {
  return
}

// -----

// expected-error @below {{'func.func' op has 'tensor<64x64xi4, "tiles">', which cannot be stored packed, two i4 values a byte: it carries an encoding}}
func.func @negative_encoding(%k: tensor<64x64xi4, "tiles">) {
  return
}

// -----

func.func @negative_dropped_columns(%k: tensor<64x64xi4>) -> tensor<64xi4> {
  // expected-error @below {{'tensor.extract_slice' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: it drops the last dimension}}
  %w = tensor.extract_slice %k[0, 0] [64, 1] [1, 1] : tensor<64x64xi4> to tensor<64xi4>
  return %w : tensor<64xi4>
}

// -----

func.func @negative_odd_pad(%k: tensor<64x62xi4>) -> tensor<64x64xi4> {
  %zero = arith.constant 0 : i4
  // expected-error @below {{'tensor.pad' op has 'tensor<64x62xi4>', which cannot be stored packed, two i4 values a byte: it pads an odd number of columns}}
  %p = tensor.pad %k low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : i4
  } : tensor<64x62xi4> to tensor<64x64xi4>
  return %p : tensor<64x64xi4>
}

// -----

func.func @negative_pad_value(%k: tensor<62x64xi4>, %v: i4) -> tensor<64x64xi4> {
  // expected-error @below {{'tensor.pad' op has 'tensor<62x64xi4>', which cannot be stored packed, two i4 values a byte: its padding value is not a constant}}
  %p = tensor.pad %k low[0, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : i4
  } : tensor<62x64xi4> to tensor<64x64xi4>
  return %p : tensor<64x64xi4>
}

// -----

func.func @negative_read_down_columns(%k: tensor<64x64xi4>, %i: index) -> vector<8xi4> {
  %zero = arith.constant 0 : i4
  // expected-error @below {{'vector.transfer_read' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: it does not read along the last dimension, unmasked}}
  %r = vector.transfer_read %k[%i, %i], %zero {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : tensor<64x64xi4>, vector<8xi4>
  return %r : vector<8xi4>
}

// -----

func.func @negative_reduction(%x: tensor<64x64xf32>, %init: tensor<64x2xi4>) -> tensor<64x2xi4> {
  // expected-error @below {{'linalg.generic' op has 'tensor<64x2xi4>', which cannot be stored packed, two i4 values a byte: it is not an element-wise producer of i4 values}}
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<64x64xf32>) outs(%init : tensor<64x2xi4>) {
  ^bb0(%in: f32, %out: i4):
    %i = arith.fptosi %in : f32 to i4
    %s = arith.addi %i, %out : i4
    linalg.yield %s : i4
  } -> tensor<64x2xi4>
  return %r : tensor<64x2xi4>
}

// -----

func.func @negative_reads_int4(%x: tensor<64x64xi4>) -> tensor<64x64xi4> {
  %init = tensor.empty() : tensor<64x64xi4>
  // expected-error @below {{'linalg.generic' op has 'tensor<64x64xi4>', which cannot be stored packed, two i4 values a byte: it reads i4 tensors}}
  %r = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xi4>) outs(%init : tensor<64x64xi4>) {
  ^bb0(%in: i4, %out: i4):
    %n = arith.addi %in, %in : i4
    linalg.yield %n : i4
  } -> tensor<64x64xi4>
  return %r : tensor<64x64xi4>
}

// -----

func.func @negative_dynamic_dim(%k: tensor<?x64xi4>, %d: index) -> index {
  // expected-error @below {{'tensor.dim' op has 'tensor<?x64xi4>', which cannot be stored packed, two i4 values a byte: its dimension index is not a constant}}
  %n = tensor.dim %k, %d : tensor<?x64xi4>
  return %n : index
}
