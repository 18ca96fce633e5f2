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
//   CHECK-DAG:   %[[S1:.*]] = vector.extract %[[S]][1]
//   CHECK-DAG:   %[[S5:.*]] = vector.extract %[[S]][5]
//   CHECK-DAG:   %[[M0:.*]] = vector.extract %[[M]][0]
//   CHECK-DAG:   %[[L0:.*]] = vector.extract %[[L]][0]
// Row g: elements 0, 1, 4, 5.
//       CHECK:   %[[MAX01:.*]] = llvm.intr.maximum(%[[S0]], %[[S1]]) : (f32, f32) -> f32
//       CHECK:   %[[ROWMAX:.*]] = llvm.intr.maximum(%{{.*}}, %[[S5]])
//       CHECK:   %[[X1:.*]], %{{.*}} = gpu.shuffle  xor %[[ROWMAX]], %c1_i32, %c32_i32 : f32
//       CHECK:   %[[PAIR:.*]] = llvm.intr.maximum(%[[ROWMAX]], %[[X1]])
//       CHECK:   %[[X2:.*]], %{{.*}} = gpu.shuffle  xor %[[PAIR]], %c2_i32, %c32_i32 : f32
//       CHECK:   %[[QUAD:.*]] = llvm.intr.maximum(%[[PAIR]], %[[X2]])
//       CHECK:   %[[NEWMAX0:.*]] = llvm.intr.maximum(%[[M0]], %[[QUAD]])
//       CHECK:   %[[EMPTY:.*]] = arith.cmpf oeq, %[[NEWMAX0]], %[[NEGINF]]
//       CHECK:   %[[REF0:.*]] = arith.select %[[EMPTY]], %[[ZERO]], %[[NEWMAX0]]
//       CHECK:   %[[D:.*]] = arith.subf %[[M0]], %[[REF0]]
//       CHECK:   %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[D]])
//       CHECK:   %[[ALPHA0:.*]] = arith.select %[[EMPTY]], %[[ONE]], %[[E]]
// P~ = 2^(s - reference), summed per row in the lane.
//       CHECK:   %[[P0D:.*]] = arith.subf %[[S0]], %[[REF0]]
//       CHECK:   %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[P0D]])
//       CHECK:   %[[P1D:.*]] = arith.subf %[[S1]], %[[REF0]]
//       CHECK:   %[[P1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[P1D]])
//       CHECK:   %[[SUM01:.*]] = arith.addf %[[P0]], %[[P1]]
//       CHECK:   %[[P5D:.*]] = arith.subf %[[S5]], %[[REF0]]
// l' = alpha l + rowsum, not reduced over the quad.
//       CHECK:   %[[NEWSUM0:.*]] = llvm.intr.fma(%[[L0]], %[[ALPHA0]], %{{.*}}) : (f32, f32, f32) -> f32
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
//       CHECK:   %[[R2:.*]] = vector.extract %[[R]][2]
//  CHECK-NEXT:   %[[O2:.*]] = vector.extract %[[O]][2]
//  CHECK-NEXT:   %[[A1:.*]] = vector.extract %[[A]][1]
//  CHECK-NEXT:   %[[SUM:.*]] = llvm.intr.fma(%[[O2]], %[[A1]], %[[R2]]) : (f32, f32, f32) -> f32
//       CHECK:   vector.from_elements %{{.*}}, %{{.*}}, %[[SUM]], %{{.*}} : vector<4xf32>
func.func @accumulate(%r: vector<4xf32>, %o: vector<4xf32>, %a: vector<2xf32>) -> vector<4xf32> {
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  return %o1 : vector<4xf32>
}

// One flush of an f16 accumulator (SageAttention2++): R widened exactly,
// then the same single-rounding fma.
// CHECK-LABEL: func @accumulate_f16
//  CHECK-SAME: (%[[R:.*]]: vector<4xf16>, %[[O:.*]]: vector<4xf32>, %[[A:.*]]: vector<2xf32>)
//       CHECK:   %[[R3:.*]] = vector.extract %[[R]][3] : f16 from vector<4xf16>
//  CHECK-NEXT:   %[[W3:.*]] = arith.extf %[[R3]] : f16 to f32
//  CHECK-NEXT:   %[[O3:.*]] = vector.extract %[[O]][3]
//  CHECK-NEXT:   %[[A1:.*]] = vector.extract %[[A]][1]
//  CHECK-NEXT:   %[[SUM:.*]] = llvm.intr.fma(%[[O3]], %[[A1]], %[[W3]]) : (f32, f32, f32) -> f32
//       CHECK:   vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %[[SUM]] : vector<4xf32>
#e4m3f16 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
func.func @accumulate_f16(%r: vector<4xf16>, %o: vector<4xf32>, %a: vector<2xf32>) -> vector<4xf32> {
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f16, every = 2>, fragment = #e4m3f16} : vector<4xf16>, vector<2xf32> -> vector<4xf32>
  return %o1 : vector<4xf32>
}

// R made of two MMA chains (P V's N tiles, concatenated by
// vector.shuffle): each element's fma comes right after the MMA that
// computes it, so that a chain's fresh accumulator dies there instead of
// living until the last chain.
// CHECK-LABEL: func @accumulate_after_chains
//  CHECK-SAME: (%{{.*}}: vector<16xf8E4M3FN>, %{{.*}}: vector<8xf8E4M3FN>, %{{.*}}: vector<8xf8E4M3FN>, %[[O:.*]]: vector<8xf32>, %[[A:.*]]: vector<2xf32>)
//       CHECK:   %[[MMA0:.*]] = llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
//       CHECK:   %[[R0:.*]] = llvm.extractvalue %[[MMA0]][0]
//       CHECK:   %[[O0:.*]] = vector.extract %[[O]][0]
//  CHECK-NEXT:   %[[A0:.*]] = vector.extract %[[A]][0]
//  CHECK-NEXT:   %[[SUM0:.*]] = llvm.intr.fma(%[[O0]], %[[A0]], %[[R0]])
//  CHECK-COUNT-3:   llvm.intr.fma
//   CHECK-NOT:   vector.from_elements %{{.*}} : vector<8xf32>
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
//  CHECK-COUNT-4:   llvm.intr.fma
//       CHECK:   vector.from_elements %[[SUM0]], {{.*}} : vector<8xf32>
func.func @accumulate_after_chains(%p: vector<16xf8E4M3FN>, %v0: vector<8xf8E4M3FN>, %v1: vector<8xf8E4M3FN>,
                                   %o: vector<8xf32>, %a: vector<2xf32>) -> vector<8xf32> {
  %z = arith.constant dense<0.0> : vector<4xf32>
  %r0 = sage.warp_mma %p, %v0, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  %r1 = sage.warp_mma %p, %v1, %z {mma = #e4m3} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
  %r = vector.shuffle %r0, %r1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<8xf32>, vector<2xf32> -> vector<8xf32>
  return %o1 : vector<8xf32>
}

// Key j of the lane's element: key_offset + 8 * tile + 2t + column; -inf
// past the last key and, with causal, right of row g (+ 8) + Nk - Nq. Each
// comparison keeps the lane's one position on the left (2t, or 2t - g) and
// what the block changes on the right, so that no per-element value is
// loop-invariant for LLVM to hoist out of the K/V loop.
// CHECK-LABEL: func @mask
//  CHECK-SAME: (%[[S:.*]]: vector<8xf32>, %[[Q0:.*]]: i32, %[[K0:.*]]: i32, %[[NQ:.*]]: i32, %[[NK:.*]]: i32)
//   CHECK-DAG:   %[[TID:.*]] = gpu.thread_id  x
//   CHECK-DAG:   %[[TID32:.*]] = arith.index_castui %[[TID]] : index to i32
//   CHECK-DAG:   %[[LANE:.*]] = arith.remui %[[TID32]], %c32_i32
//   CHECK-DAG:   %[[G:.*]] = arith.divui %[[LANE]], %c4_i32
//   CHECK-DAG:   %[[T:.*]] = arith.remui %[[LANE]], %c4_i32
//   CHECK-DAG:   %[[T2:.*]] = arith.muli %[[T]], %c2_i32
//   CHECK-DAG:   %[[LEFT:.*]] = arith.subi %[[NK]], %[[K0]]
//   CHECK-DAG:   %[[SKEW:.*]] = arith.subi %[[T2]], %[[G]]
//   CHECK-DAG:   %[[QK:.*]] = arith.subi %[[Q0]], %[[K0]]
//   CHECK-DAG:   %[[SHIFT:.*]] = arith.subi %[[NK]], %[[NQ]]
//   CHECK-DAG:   %[[DIAG:.*]] = arith.addi %[[QK]], %[[SHIFT]]
//   CHECK-DAG:   %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
//   CHECK-DAG:   %[[S0:.*]] = vector.extract %[[S]][0]
//   CHECK-DAG:   %[[S7:.*]] = vector.extract %[[S]][7]
// Element 0: tile 0, row g, column 2t: padded iff 2t >= Nk - key_offset,
// right of the diagonal iff 2t - g > q_offset - key_offset + Nk - Nq.
//       CHECK:   %[[PAD0:.*]] = arith.cmpi sge, %[[T2]], %[[LEFT]]
//       CHECK:   %[[AFTER0:.*]] = arith.cmpi sgt, %[[SKEW]], %[[DIAG]]
//       CHECK:   %[[MASK0:.*]] = arith.ori %[[PAD0]], %[[AFTER0]]
//       CHECK:   %[[R0:.*]] = arith.select %[[MASK0]], %[[NEGINF]], %[[S0]]
// CHECK-COUNT-6:   arith.select
// Element 7: tile 1, row g + 8, column 8 + 2t + 1: the padding bound less
// 9, the diagonal's less 9 - 8.
//       CHECK:   %[[LEFT7:.*]] = arith.addi %[[LEFT]], %c-9_i32
//       CHECK:   %[[PAD7:.*]] = arith.cmpi sge, %[[T2]], %[[LEFT7]]
//       CHECK:   %[[DIAG7:.*]] = arith.addi %[[DIAG]], %c-1_i32
//       CHECK:   %[[AFTER7:.*]] = arith.cmpi sgt, %[[SKEW]], %[[DIAG7]]
//       CHECK:   %[[MASK7:.*]] = arith.ori %[[PAD7]], %[[AFTER7]]
//       CHECK:   %[[R7:.*]] = arith.select %[[MASK7]], %[[NEGINF]], %[[S7]]
//       CHECK:   vector.from_elements %[[R0]], {{.*}}, %[[R7]] : vector<8xf32>
func.func @mask(%s: vector<8xf32>, %q0: i32, %k0: i32, %nq: i32, %nk: i32) -> vector<8xf32> {
  %0 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal, fragment = #s8} : vector<8xf32>, i32
  return %0 : vector<8xf32>
}

// Aligned top-left, a key is masked past the row itself: no Nk - Nq shift.
// CHECK-LABEL: func @mask_top_left
//  CHECK-SAME: (%[[S:[^:]*]]: vector<4xf32>, %[[Q0:[^:]*]]: i32, %[[K0:[^:]*]]: i32, %[[NQ:[^:]*]]: i32, %[[NK:[^:]*]]: i32)
//   CHECK-NOT:   %[[NQ]]
//       CHECK:   %[[LEFT:.*]] = arith.subi %[[NK]], %[[K0]] : i32
//       CHECK:   %[[SKEW:.*]] = arith.subi %[[T2:.*]], %[[G:.*]] : i32
//       CHECK:   %[[DIAG:.*]] = arith.subi %[[Q0]], %[[K0]] : i32
//   CHECK-NOT:   %[[NQ]]
//       CHECK:   %[[PAD0:.*]] = arith.cmpi sge, %[[T2]], %[[LEFT]]
//       CHECK:   %[[AFTER0:.*]] = arith.cmpi sgt, %[[SKEW]], %[[DIAG]]
//       CHECK:   arith.ori %[[PAD0]], %[[AFTER0]]
//       CHECK:   return
func.func @mask_top_left(%s: vector<4xf32>, %q0: i32, %k0: i32, %nq: i32, %nk: i32) -> vector<4xf32> {
  %0 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal, causal_alignment = #sage.causal_alignment<top_left>, fragment = #s8} : vector<4xf32>, i32
  return %0 : vector<4xf32>
}

// Without causal only padded keys are masked; index positions work alike.
// CHECK-LABEL: func @mask_index
//   CHECK-NOT:   arith.index_castui
//   CHECK-NOT:   arith.ori
//       CHECK:   arith.cmpi sge
func.func @mask_index(%s: vector<4xf32>, %q0: index, %k0: index, %nq: index, %nk: index) -> vector<4xf32> {
  %0 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {fragment = #s8} : vector<4xf32>
  return %0 : vector<4xf32>
}

// P_hat = P~ * range / bound in E4M3, two elements per cvt (the first
// operand lands in the upper byte), packed back into the fragment's order;
// the scale is bound / range.
// CHECK-LABEL: func @quantize
//  CHECK-SAME: (%[[P:.*]]: vector<4xf32>)
//   CHECK-DAG:   %[[RANGE:.*]] = arith.constant 2.240000e+02 : f32
//   CHECK-DAG:   %[[SCALE:.*]] = arith.constant dense<0.00446428591> : vector<1xf32>
//   CHECK-DAG:   %[[P0:.*]] = vector.extract %[[P]][0]
//   CHECK-DAG:   %[[P1:.*]] = vector.extract %[[P]][1]
//       CHECK:   %[[LO:.*]] = arith.mulf %[[P0]], %[[RANGE]]
//       CHECK:   %[[HI:.*]] = arith.mulf %[[P1]], %[[RANGE]]
//       CHECK:   %[[PAIR0:.*]] = nvvm.convert.f32x2.to.f8x2 %[[HI]], %[[LO]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : i16(f8E4M3FN)
//       CHECK:   %[[PAIR1:.*]] = nvvm.convert.f32x2.to.f8x2
//       CHECK:   %[[PAIRS:.*]] = vector.from_elements %[[PAIR0]], %[[PAIR1]] : vector<2xi16>
//       CHECK:   %[[VALUES:.*]] = vector.bitcast %[[PAIRS]] : vector<2xi16> to vector<4xf8E4M3FN>
//       CHECK:   return %[[VALUES]], %[[SCALE]]
func.func @quantize(%p: vector<4xf32>) -> (vector<4xf8E4M3FN>, vector<1xf32>) {
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>, fragment = #s8} : vector<4xf32> -> vector<4xf8E4M3FN>, vector<1xf32>
  return %v, %s : vector<4xf8E4M3FN>, vector<1xf32>
}

// P in its range already (bound = range): no multiply before the cvt.
// CHECK-LABEL: func @quantize_in_range
//   CHECK-NOT:   arith.mulf
//       CHECK:   nvvm.convert.f32x2.to.f8x2
func.func @quantize_in_range(%p: vector<4xf32>) -> vector<4xf8E4M3FN> {
  %v, %s = sage.quantize %p {bound = 448.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : vector<4xf32> -> vector<4xf8E4M3FN>, vector<1xf32>
  return %v : vector<4xf8E4M3FN>
}

// The folds: raw scores x with the lane's factor f and P~ scaled by 448.
// The lane's max of x is scaled once; each prob is one fma and one ex2,
// 2^(x f - (m' - log2 448)); the block's sum is unscaled once a row.
// CHECK-LABEL: func @softmax_folded
//  CHECK-SAME: (%[[S:.*]]: vector<4xf32>, %[[M:.*]]: vector<2xf32>, %[[L:.*]]: vector<2xf32>, %[[F:.*]]: vector<1xf32>)
//   CHECK-DAG:   %[[LOG2RANGE:.*]] = arith.constant 8.80735492 : f32
//   CHECK-DAG:   %[[INVRANGE:.*]] = arith.constant 0.00223214296 : f32
//   CHECK-DAG:   %[[S0:.*]] = vector.extract %[[S]][0]
//   CHECK-DAG:   %[[S1:.*]] = vector.extract %[[S]][1]
//   CHECK-DAG:   %[[L0:.*]] = vector.extract %[[L]][0]
//       CHECK:   %[[FACTOR:.*]] = vector.extract %[[F]][0]
//       CHECK:   %[[LANEMAX:.*]] = llvm.intr.maximum(%[[S0]], %[[S1]])
//       CHECK:   %[[SCALED:.*]] = arith.mulf %[[LANEMAX]], %[[FACTOR]]
//       CHECK:   gpu.shuffle  xor %[[SCALED]]
//       CHECK:   %[[REF0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
//       CHECK:   %[[ALPHA0:.*]] = arith.select
//       CHECK:   %[[SHIFTED:.*]] = arith.subf %[[REF0]], %[[LOG2RANGE]]
//       CHECK:   %[[OFFSET:.*]] = arith.negf %[[SHIFTED]]
//       CHECK:   %[[E0:.*]] = llvm.intr.fma(%[[S0]], %[[FACTOR]], %[[OFFSET]])
//       CHECK:   %[[P0:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[E0]])
//       CHECK:   %[[E1:.*]] = llvm.intr.fma(%[[S1]], %[[FACTOR]], %[[OFFSET]])
//       CHECK:   %[[P1:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[E1]])
//       CHECK:   %[[BLOCK:.*]] = arith.addf %[[P0]], %[[P1]]
//       CHECK:   %[[UNSCALED:.*]] = arith.mulf %[[BLOCK]], %[[INVRANGE]]
//       CHECK:   llvm.intr.fma(%[[L0]], %[[ALPHA0]], %[[UNSCALED]])
func.func @softmax_folded(%s: vector<4xf32>, %m: vector<2xf32>, %l: vector<2xf32>, %f: vector<1xf32>) -> (vector<4xf32>, vector<2xf32>) {
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %l scaled %f : vector<1xf32> {base2, fragment = #s8, prob_scale = 448.0 : f64} : vector<4xf32>, vector<2xf32>
  return %p, %l1 : vector<4xf32>, vector<2xf32>
}

// prob_scale alone (scores dequantized before, e.g. with Q smoothing's
// dS): one subtraction a score, of m' - log2 448.
// CHECK-LABEL: func @softmax_prob_scale
//   CHECK-DAG:   %[[LOG2RANGE:.*]] = arith.constant 8.80735492 : f32
//       CHECK:   %[[REF0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
//       CHECK:   %[[OFFSET:.*]] = arith.subf %[[REF0]], %[[LOG2RANGE]]
//       CHECK:   %[[E0:.*]] = arith.subf %{{.*}}, %[[OFFSET]]
//       CHECK:   llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[E0]])
func.func @softmax_prob_scale(%s: vector<4xf32>, %m: vector<2xf32>, %l: vector<2xf32>) -> vector<4xf32> {
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %l {base2, fragment = #s8, prob_scale = 448.0 : f64} : vector<4xf32>, vector<2xf32>
  return %p : vector<4xf32>
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
