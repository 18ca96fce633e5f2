// RUN: sage-opt %s --convert-sage-to-nvvm | FileCheck %s

// convert-sage-to-nvvm (L5) on accumulator fragments of m16n8 mma.sync:
// elements 0, 1 of every 4 are the lane's row g, 2, 3 its row g + 8; a
// row's maximum is reduced over the quad (shuffle xor 1, 2).

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>

// CHECK-LABEL: func @softmax
//  CHECK-SAME: (%[[S:.*]]: vector<8xf32>, %[[M:.*]]: vector<2xf32>, %[[L:.*]]: vector<2xf32>)
//   CHECK-DAG:   %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG:   %[[S0:.*]] = vector.extract %[[S]][0]
//   CHECK-DAG:   %[[S5:.*]] = vector.extract %[[S]][5]
//   CHECK-DAG:   %[[M0:.*]] = vector.extract %[[M]][0]
//   CHECK-DAG:   %[[L0:.*]] = vector.extract %[[L]][0]
// Row g: elements 0, 1, 4, 5.
//       CHECK:   %[[GT0:.*]] = arith.cmpf ogt, %[[NEGINF]], %[[S0]]
//       CHECK:   arith.select %[[GT0]], %[[NEGINF]], %[[S0]]
//       CHECK:   %[[X1:.*]], %{{.*}} = gpu.shuffle  xor %[[ROWMAX:.*]], %c1_i32, %c32_i32 : f32
//       CHECK:   gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
//       CHECK:   %[[QUAD:.*]] = arith.select
//       CHECK:   %[[GT:.*]] = arith.cmpf ogt, %[[M0]], %[[QUAD]]
//       CHECK:   %[[NEWMAX0:.*]] = arith.select %[[GT]], %[[M0]], %[[QUAD]]
//       CHECK:   %[[EMPTY:.*]] = arith.cmpf oeq, %[[NEWMAX0]], %[[NEGINF]]
//       CHECK:   %[[REF0:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[NEWMAX0]]
//       CHECK:   %[[D:.*]] = arith.subf %[[M0]], %[[REF0]]
//       CHECK:   %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[D]])
//       CHECK:   %[[ALPHA0:.*]] = arith.select %[[EMPTY]], %[[ONE]], %[[E]]
// P~ = 2^(s - reference), summed per row in the lane.
//       CHECK:   %[[P0D:.*]] = arith.subf %[[S0]], %[[REF0]]
//       CHECK:   %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[P0D]])
//       CHECK:   %[[SUM0:.*]] = arith.addf %[[P0]], %[[ZERO]]
//       CHECK:   %[[P5D:.*]] = arith.subf %[[S5]], %[[REF0]]
// l' = alpha l + rowsum, not reduced over the quad.
//       CHECK:   %[[LA:.*]] = arith.mulf %[[L0]], %[[ALPHA0]]
//       CHECK:   %[[NEWSUM0:.*]] = arith.addf %[[LA]], %{{.*}}
//       CHECK:   %[[PROBS:.*]] = vector.from_elements %[[P0]], {{.*}} : vector<8xf32>
//       CHECK:   %[[NEWMAX:.*]] = vector.from_elements %[[NEWMAX0]], %{{.*}} : vector<2xf32>
//       CHECK:   %[[NEWSUM:.*]] = vector.from_elements %[[NEWSUM0]], %{{.*}} : vector<2xf32>
//       CHECK:   %[[ALPHA:.*]] = vector.from_elements %[[ALPHA0]], %{{.*}} : vector<2xf32>
//       CHECK:   return %[[PROBS]], %[[NEWMAX]], %[[NEWSUM]], %[[ALPHA]]
func.func @softmax(%s: vector<8xf32>, %m: vector<2xf32>, %l: vector<2xf32>) -> (vector<8xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>) {
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %l {base2, fragment = #s8} : vector<8xf32>, vector<2xf32>
  return %p, %m1, %l1, %a : vector<8xf32>, vector<2xf32>, vector<2xf32>, vector<2xf32>
}

// Without base2 the scores are natural-log units: 2^(x log2 e).
// CHECK-LABEL: func @softmax_base_e
//       CHECK:   %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
//       CHECK:   %[[D:.*]] = arith.subf
//       CHECK:   %[[X:.*]] = arith.mulf %[[D]], %[[LOG2E]]
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[X]])
func.func @softmax_base_e(%s: vector<4xf32>, %m: vector<2xf32>, %l: vector<2xf32>) -> vector<4xf32> {
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %l {fragment = #s8} : vector<4xf32>, vector<2xf32>
  return %p : vector<4xf32>
}

// O = alpha O + R per element, alpha of the element's row.
// CHECK-LABEL: func @accumulate
//  CHECK-SAME: (%[[R:.*]]: vector<4xf32>, %[[O:.*]]: vector<4xf32>, %[[A:.*]]: vector<2xf32>)
//   CHECK-DAG:   %[[O2:.*]] = vector.extract %[[O]][2]
//   CHECK-DAG:   %[[R2:.*]] = vector.extract %[[R]][2]
//   CHECK-DAG:   %[[A1:.*]] = vector.extract %[[A]][1]
//       CHECK:   %[[SCALED:.*]] = arith.mulf %[[O2]], %[[A1]]
//       CHECK:   %[[SUM:.*]] = arith.addf %[[SCALED]], %[[R2]]
//       CHECK:   vector.from_elements %{{.*}}, %{{.*}}, %[[SUM]], %{{.*}} : vector<4xf32>
func.func @accumulate(%r: vector<4xf32>, %o: vector<4xf32>, %a: vector<2xf32>) -> vector<4xf32> {
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  return %o1 : vector<4xf32>
}

// Ops on tiles are left to the levels above.
// CHECK-LABEL: func @tiles
//       CHECK:   sage.online_softmax
//       CHECK:   sage.accumulate
func.func @tiles(%s: tensor<64x64xf32>, %m: tensor<64xf32>, %o: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m : tensor<64x64xf32>, tensor<64xf32>
  %o1 = sage.accumulate %p into %o rescale %a {scheme = #sage.accum<f32>} : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
  return %o1 : tensor<64x64xf32>
}
