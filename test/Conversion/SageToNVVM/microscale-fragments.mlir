// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s

// convert-sage-to-nvvm (L5): NVFP4's P in two levels on the accumulator
// fragment of an m16n8 mma.sync (64 keys: eight 8-key tiles, four values a
// tile; element 4j + e is row g + 8 (e / 2) of tile j).

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>

// Level one: row g's max over the lane (elements 4j, 4j + 1) and the
// quad, s_row = max / row_range, P' = P~ / s_row (0 for a row of zeros).
// Level two: block 0 of row g is tiles 0..3 of this lane pair (elements
// 0, 1, 4, 5, 8, 9, 12, 13 of each lane); its max meets the pair's by one
// shuffle, its E4M3 scale is max / 6. Row g + 8's block 0 is elements 2,
// 3, 6, 7, ... The A scale word of a row is b0 b1 b2 b3 from the low byte:
// this pair's blocks 0 and 2 (bytes 0 and 1 of its word) and the other
// pair's 1 and 3 (xor 2); lanes t = 1 take row g + 8's.
// CHECK-LABEL: func @microscale
//  CHECK-SAME: (%[[P:.*]]: vector<32xf32>)
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : i32
//   CHECK-DAG:   %[[FF00:.*]] = arith.constant 65280 : i32
//   CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : i32
//   CHECK-DAG:   %[[FF:.*]] = arith.constant 255 : i32
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[ROWRANGE:.*]] = arith.constant 2.688000e+03 : f32
//   CHECK-DAG:   %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
//   CHECK-DAG:   %[[P0:.*]] = vector.extract %[[P]][0]
//   CHECK-DAG:   %[[P1:.*]] = vector.extract %[[P]][1]
//   CHECK-DAG:   %[[P2:.*]] = vector.extract %[[P]][2]
//   CHECK-DAG:   %[[P4:.*]] = vector.extract %[[P]][4]
//   CHECK-DAG:   %[[P5:.*]] = vector.extract %[[P]][5]
//   CHECK-DAG:   %[[P8:.*]] = vector.extract %[[P]][8]
//   CHECK-DAG:   %[[P9:.*]] = vector.extract %[[P]][9]
//   CHECK-DAG:   %[[P12:.*]] = vector.extract %[[P]][12]
//   CHECK-DAG:   %[[P13:.*]] = vector.extract %[[P]][13]
//   CHECK-DAG:   %[[P29:.*]] = vector.extract %[[P]][29]
//       CHECK:   %[[M0:.*]] = llvm.intr.maximum(%[[ZERO]], %[[P0]])
//  CHECK-NEXT:   %[[M1:.*]] = llvm.intr.maximum(%[[M0]], %[[P1]])
//  CHECK-NEXT:   llvm.intr.maximum(%[[M1]], %[[P4]])
//       CHECK:   %[[LANEMAX:.*]] = llvm.intr.maximum(%{{.*}}, %[[P29]])
//  CHECK-NEXT:   %[[X1:.*]], %{{.*}} = gpu.shuffle  xor %[[LANEMAX]], %[[C1:.*]], %[[C32:.*]] : f32
//  CHECK-NEXT:   %[[QM1:.*]] = llvm.intr.maximum(%[[LANEMAX]], %[[X1]])
//  CHECK-NEXT:   %[[X2:.*]], %{{.*}} = gpu.shuffle  xor %[[QM1]], %[[C2:.*]], %[[C32]] : f32
//  CHECK-NEXT:   %[[ROWMAX:.*]] = llvm.intr.maximum(%[[QM1]], %[[X2]])
//  CHECK-NEXT:   %[[EMPTY:.*]] = arith.cmpf oeq, %[[ROWMAX]], %[[ZERO]]
//  CHECK-NEXT:   %[[SROW0:.*]] = arith.divf %[[ROWMAX]], %[[ROWRANGE]]
//  CHECK-NEXT:   %[[DIVISOR:.*]] = arith.select %[[EMPTY]], %{{.*}}, %[[SROW0]]
//  CHECK-NEXT:   %[[Q0:.*]] = arith.divf %[[P0]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP0:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q0]]
//  CHECK-NEXT:   %[[Q1:.*]] = arith.divf %[[P1]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP1:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q1]]
//  CHECK-NEXT:   %[[Q4:.*]] = arith.divf %[[P4]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP4:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q4]]
//  CHECK-NEXT:   %[[Q5:.*]] = arith.divf %[[P5]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP5:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q5]]
//  CHECK-NEXT:   %[[Q8:.*]] = arith.divf %[[P8]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP8:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q8]]
//  CHECK-NEXT:   %[[Q9:.*]] = arith.divf %[[P9]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP9:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q9]]
//  CHECK-NEXT:   %[[Q12:.*]] = arith.divf %[[P12]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP12:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q12]]
//  CHECK-NEXT:   %[[Q13:.*]] = arith.divf %[[P13]], %[[DIVISOR]]
//  CHECK-NEXT:   %[[PP13:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[Q13]]
//       CHECK:   %[[SROW1:.*]] = arith.divf %{{.*}}, %[[ROWRANGE]]
//  CHECK-NEXT:   %[[DIVISOR1:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SROW1]]
//  CHECK-NEXT:   %[[Q2:.*]] = arith.divf %[[P2]], %[[DIVISOR1]]
//  CHECK-NEXT:   %[[PP2:.*]] = arith.select %{{.*}}, %[[ZERO]], %[[Q2]]
//       CHECK:   %[[TID:.*]] = gpu.thread_id  x
//       CHECK:   %[[TID32:.*]] = arith.index_castui %[[TID]]
//  CHECK-NEXT:   %[[LANE:.*]] = arith.remui %[[TID32]], %[[C32]]
//  CHECK-NEXT:   %[[T:.*]] = arith.remui %[[LANE]], %{{.*}}
//  CHECK-NEXT:   %[[SECOND:.*]] = arith.cmpi eq, %[[T]], %[[C1]]
//  CHECK-NEXT:   %[[B0:.*]] = llvm.intr.maximum(%[[ZERO]], %[[PP0]])
//  CHECK-NEXT:   %[[B1:.*]] = llvm.intr.maximum(%[[B0]], %[[PP1]])
//  CHECK-NEXT:   %[[B2:.*]] = llvm.intr.maximum(%[[B1]], %[[PP4]])
//  CHECK-NEXT:   %[[B3:.*]] = llvm.intr.maximum(%[[B2]], %[[PP5]])
//  CHECK-NEXT:   %[[B4:.*]] = llvm.intr.maximum(%[[B3]], %[[PP8]])
//  CHECK-NEXT:   %[[B5:.*]] = llvm.intr.maximum(%[[B4]], %[[PP9]])
//  CHECK-NEXT:   %[[B6:.*]] = llvm.intr.maximum(%[[B5]], %[[PP12]])
//  CHECK-NEXT:   %[[BLANE:.*]] = llvm.intr.maximum(%[[B6]], %[[PP13]])
//  CHECK-NEXT:   %[[BX:.*]], %{{.*}} = gpu.shuffle  xor %[[BLANE]], %[[C1]], %[[C32]] : f32
//  CHECK-NEXT:   %[[BMAX:.*]] = llvm.intr.maximum(%[[BLANE]], %[[BX]])
//  CHECK-NEXT:   %[[SCALEARG:.*]] = arith.divf %[[BMAX]], %[[SIX]]
//  CHECK-NEXT:   nvvm.convert.f32x2.to.f8x2 %[[ZERO]], %[[SCALEARG]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK:   llvm.intr.maximum(%[[ZERO]], %[[PP2]])
//       CHECK:   %[[OTHER0:.*]], %{{.*}} = gpu.shuffle  xor %[[PAIR0:.*]], %[[C2]], %[[C32]] : i32
//  CHECK-NEXT:   %[[W0:.*]] = arith.andi %[[PAIR0]], %[[FF]] : i32
//  CHECK-NEXT:   %[[W1M:.*]] = arith.andi %[[OTHER0]], %[[FF]] : i32
//  CHECK-NEXT:   %[[W1:.*]] = arith.shli %[[W1M]], %[[C8]] : i32
//  CHECK-NEXT:   %[[W2M:.*]] = arith.andi %[[PAIR0]], %[[FF00]] : i32
//  CHECK-NEXT:   %[[W2:.*]] = arith.shli %[[W2M]], %[[C8]] : i32
//  CHECK-NEXT:   %[[W3M:.*]] = arith.andi %[[OTHER0]], %[[FF00]] : i32
//  CHECK-NEXT:   %[[W3:.*]] = arith.shli %[[W3M]], %[[C16]] : i32
//  CHECK-NEXT:   %[[LOW0:.*]] = arith.ori %[[W0]], %[[W1]]
//  CHECK-NEXT:   %[[HIGH0:.*]] = arith.ori %[[W2]], %[[W3]]
//  CHECK-NEXT:   %[[WORD0:.*]] = arith.ori %[[LOW0]], %[[HIGH0]]
//  CHECK-NEXT:   gpu.shuffle  xor %{{.*}}, %[[C2]], %[[C32]] : i32
//       CHECK:   %[[LOW1:.*]] = arith.ori
//  CHECK-NEXT:   %[[HIGH1:.*]] = arith.ori
//  CHECK-NEXT:   %[[WORD1:.*]] = arith.ori %[[LOW1]], %[[HIGH1]]
//  CHECK-NEXT:   %[[WORD:.*]] = arith.select %[[SECOND]], %[[WORD1]], %[[WORD0]] : i32
//       CHECK:   %[[NIBBLES:.*]] = vector.from_elements {{.*}} : vector<32xi4>
//  CHECK-NEXT:   %[[VALUES:.*]] = arith.bitcast %[[NIBBLES]] : vector<32xi4> to vector<32xf4E2M1FN>
//  CHECK-NEXT:   %[[WORDS:.*]] = vector.from_elements %[[WORD]] : vector<1xi32>
//  CHECK-NEXT:   %[[SCALES:.*]] = vector.bitcast %[[WORDS]] : vector<1xi32> to vector<4xf8E4M3FN>
//  CHECK-NEXT:   %[[ROWS:.*]] = vector.from_elements %[[SROW0]], %[[SROW1]] : vector<2xf32>
//  CHECK-NEXT:   return %[[VALUES]], %[[SCALES]], %[[ROWS]]
func.func @microscale(%p: vector<32xf32>) -> (vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>) {
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return %v, %s, %r : vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
}

// Two 64-key chunks: one scale word each, in chunk order.
// CHECK-LABEL: func @microscale_two_chunks
//       CHECK:   %[[W0:.*]] = arith.select %{{.*}} : i32
//       CHECK:   %[[W1:.*]] = arith.select %{{.*}} : i32
//       CHECK:   %[[WORDS:.*]] = vector.from_elements %[[W0]], %[[W1]] : vector<2xi32>
//  CHECK-NEXT:   vector.bitcast %[[WORDS]] : vector<2xi32> to vector<8xf8E4M3FN>
func.func @microscale_two_chunks(%p: vector<64xf32>) -> vector<8xf8E4M3FN> {
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<64xf32> -> vector<64xf4E2M1FN>, vector<8xf8E4M3FN>, vector<2xf32>
  return %s : vector<8xf8E4M3FN>
}
