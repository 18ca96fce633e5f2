// RUN: sage-opt %s --sage-distribute-tiles -split-input-file -verify-diagnostics | FileCheck %s

// The K/V loop with the encodings sage-assign-fragments gives it
// (docs/Levels.md, distribute): each lane's 32 scores of its warp's 16
// rows (4 x m16n8 tiles of 8 keys, 64 keys), its 2 rows of m and l, its 32
// elements of the 64 x 64 output. Each sage.qmma becomes the lane's
// warp MMAs (16 a 64 x 64 tile), the softmax chain the fragment forms
// (L4), and P V takes P from the registers it was computed in.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
#O = #sage.acc_fragment<mma = #pv, warps = 4>
#R = #sage.row_fragment<m = 16, warps = 4>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @loop
//  CHECK-SAME: %[[Q0:[^:]*]]: index, %[[N:[^:]*]]: index)
//   CHECK-DAG:   %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
//   CHECK-DAG:   %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<32xf32>
//   CHECK-DAG:   %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : vector<2xf32>
//   CHECK-DAG:   %[[ZERO_ROWS:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
//       CHECK:   %[[LOOP:.*]]:3 = scf.for %[[J:.*]] = {{.*}} iter_args(%[[O:.*]] = %[[ZEROS]], %[[M:.*]] = %[[NEG_INF]], %[[L:.*]] = %[[ZERO_ROWS]]) -> (vector<32xf32>, vector<2xf32>, vector<2xf32>)
//       CHECK:     %[[K0:.*]] = arith.muli %[[J]]
//   CHECK-NOT:     unrealized_conversion_cast
//  CHECK-COUNT-16:     sage.warp_mma {{.*}} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
// Both products start from zero: the chains' scaled sums are the results,
// with no addition of a zero accumulator.
//   CHECK-NOT:     arith.addf
//       CHECK:     %[[SUM:.*]] = arith.sitofp %{{.*}} : vector<32xi32> to vector<32xf32>
//       CHECK:     %[[S:.*]] = arith.mulf %[[SUM]], %{{.*}} fastmath<contract> : vector<32xf32>
//       CHECK:     %[[SCALES:.*]] = vector.broadcast %[[SCALE]] : f32 to vector<32xf32>
//       CHECK:     %[[SCALED:.*]] = arith.mulf %[[S]], %[[SCALES]] : vector<32xf32>
// The warp's first row: the tile's first row + 16 (thread x / 32).
//       CHECK:     %[[TID:.*]] = gpu.thread_id x
//       CHECK:     %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
//       CHECK:     %[[WARP_ROWS:.*]] = arith.muli %[[WARP]], %{{.*}} : index
//       CHECK:     %[[ROW0:.*]] = arith.addi %[[Q0]], %[[WARP_ROWS]] : index
// Only a warp's tile with a padded key (its last, K0 + 63, at or past N)
// or a key right of its first row's diagonal (K0 + 63 > ROW0 + N - N) is
// masked; the others skip it.
//       CHECK:     %[[LAST:.*]] = arith.addi %[[K0]], %c63 : index
//       CHECK:     %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %[[N]] : index
//       CHECK:     %[[DIAGONAL:.*]] = arith.subi %[[N]], %[[N]] : index
//       CHECK:     %[[LIMIT:.*]] = arith.addi %[[ROW0]], %[[DIAGONAL]] : index
//       CHECK:     %[[RIGHT:.*]] = arith.cmpi sgt, %[[LAST]], %[[LIMIT]] : index
//       CHECK:     %[[ANY:.*]] = arith.ori %[[PADDED]], %[[RIGHT]] : i1
//       CHECK:     %[[MASKED:.*]] = scf.if %[[ANY]] -> (vector<32xf32>) {
//       CHECK:       %[[SELECTED:.*]] = sage.mask_scores %[[SCALED]] at [%[[ROW0]], %[[K0]]] of [%[[N]], %[[N]]] {causal, fragment = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}>} : vector<32xf32>
//       CHECK:       scf.yield %[[SELECTED]] : vector<32xf32>
//       CHECK:     } else {
//       CHECK:       scf.yield %[[SCALED]] : vector<32xf32>
//       CHECK:     }
//       CHECK:     %[[P:.*]], %[[M1:.*]], %[[L1:.*]], %[[ALPHA:.*]] = sage.online_softmax %[[MASKED]], %[[M]], %[[L]] {fragment = #sage.mma<{{.*}}a = i8{{.*}}>} : vector<32xf32>, vector<2xf32>
//       CHECK:     %[[PQ:.*]], %{{.*}} = sage.quantize %[[P]] {bound = 1.000000e+00 : f64, fragment = #sage.mma<{{.*}}a = i8{{.*}}>, quant = #sage.quant<f8E4M3FN, per_tensor>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
//       CHECK:     %[[P0:.*]] = vector.shuffle %[[PQ]], %[[PQ]] [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15] : vector<32xf8E4M3FN>, vector<32xf8E4M3FN>
//       CHECK:     %[[P1:.*]] = vector.shuffle %[[PQ]], %[[PQ]] [16, 17, 20, 21, 18, 19, 22, 23, 24, 25, 28, 29, 26, 27, 30, 31]
//       CHECK:     sage.warp_mma %[[P0]], {{.*}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//       CHECK:     sage.warp_mma %[[P1]], {{.*}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//   CHECK-NOT:     unrealized_conversion_cast
//   CHECK-NOT:     arith.addf
//       CHECK:     %[[R:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : vector<32xf32>
//       CHECK:     %[[O1:.*]] = sage.accumulate %[[R]] into %[[O]] rescale %[[ALPHA]] {fragment = #sage.mma<{{.*}}a = f8E4M3FN{{.*}}>, scheme = #sage.accum<f32>} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
//       CHECK:     scf.yield %[[O1]], %[[M1]], %[[L1]] : vector<32xf32>, vector<2xf32>, vector<2xf32>
//   CHECK-NOT:   ub.poison
func.func @loop(%q: tensor<64x64xi8>, %qs: tensor<32x1xf32>, %k: tensor<64x64xi8>,
                %ks: tensor<4x1xf32>, %vt: tensor<64x64xf8E4M3FN>, %one: tensor<1x1xf32>,
                %blocks: index, %q0: index, %n: index)
    -> (tensor<64x64xf32, #O>, tensor<64xf32, #R>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %eo = tensor.empty() : tensor<64x64xf32, #O>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<64x64xf32, #O>) -> tensor<64x64xf32, #O>
  %em = tensor.empty() : tensor<64xf32, #R>
  %m0 = linalg.fill ins(%ninf : f32) outs(%em : tensor<64xf32, #R>) -> tensor<64xf32, #R>
  %el = tensor.empty() : tensor<64xf32, #R>
  %l0 = linalg.fill ins(%zero : f32) outs(%el : tensor<64xf32, #R>) -> tensor<64xf32, #R>
  %r:3 = scf.for %j = %c0 to %blocks step %c1 iter_args(%o = %zo, %m = %m0, %l = %l0)
      -> (tensor<64x64xf32, #O>, tensor<64xf32, #R>, tensor<64xf32, #R>) {
    %k0 = arith.muli %j, %c64 : index
    %es = tensor.empty() : tensor<64x64xf32, #S>
    %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<64x64xf32, #S>) -> tensor<64x64xf32, #S>
    %s = sage.qmma %q scaled %qs, %k scaled %ks, %zs {accumulator = i32,
        a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, mma = #qk}
      : tensor<64x64xi8>, tensor<32x1xf32>, tensor<64x64xi8>, tensor<4x1xf32> -> tensor<64x64xf32, #S>
    %e2 = tensor.empty() : tensor<64x64xf32, #S>
    %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<64x64xf32, #S>) outs(%e2 : tensor<64x64xf32, #S>) {
    ^bb0(%x: f32, %unused: f32):
      %y = arith.mulf %x, %scale : f32
      linalg.yield %y : f32
    } -> tensor<64x64xf32, #S>
    %masked = sage.mask_scores %scaled at [%q0, %k0] of [%n, %n] {causal} : tensor<64x64xf32, #S>
    %p, %m1, %l1, %alpha = sage.online_softmax %masked, %m, %l : tensor<64x64xf32, #S>, tensor<64xf32, #R>
    %pq, %ps = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
      : tensor<64x64xf32, #S> -> tensor<64x64xf8E4M3FN, #S>, tensor<1x1xf32, #sage.replicated>
    %e3 = tensor.empty() : tensor<64x64xf32, #O>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32, #O>) -> tensor<64x64xf32, #O>
    %pv = sage.qmma %pq scaled %one, %vt scaled %one, %z3 {accumulator = f32, mma = #pv}
      : tensor<64x64xf8E4M3FN, #S>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32, #O>
    %o1 = sage.accumulate %pv into %o rescale %alpha {scheme = #sage.accum<f32>}
      : tensor<64x64xf32, #O>, tensor<64xf32, #R> -> tensor<64x64xf32, #O>
    scf.yield %o1, %m1, %l1 : tensor<64x64xf32, #O>, tensor<64xf32, #R>, tensor<64xf32, #R>
  }
  return %r#0, %r#2 : tensor<64x64xf32, #O>, tensor<64xf32, #R>
}

// -----

// A fill of a value known only at run time is a broadcast; an element-wise
// body with a comparison works on i1 vectors; an op that keeps the tile
// (here a return) reads the vector back through a cast.
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 2>
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @broadcast_and_select
//  CHECK-SAME: (%[[X:.*]]: f32, %[[T:.*]]: tensor<32x16xf32, #{{.*}}>)
//       CHECK:   %[[IN:.*]] = builtin.unrealized_conversion_cast %[[T]] : tensor<32x16xf32, #{{.*}}> to vector<8xf32>
//       CHECK:   %[[FILLED:.*]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
//       CHECK:   %[[LESS:.*]] = arith.cmpf olt, %[[IN]], %[[FILLED]] : vector<8xf32>
//       CHECK:   %[[MIN:.*]] = arith.select %[[LESS]], %[[IN]], %[[FILLED]] : vector<8xi1>, vector<8xf32>
//       CHECK:   %[[TILE:.*]] = builtin.unrealized_conversion_cast %[[MIN]] : vector<8xf32> to tensor<32x16xf32, #{{.*}}>
//       CHECK:   return %[[TILE]]
func.func @broadcast_and_select(%x: f32, %t: tensor<32x16xf32, #O>) -> tensor<32x16xf32, #O> {
  %e = tensor.empty() : tensor<32x16xf32, #O>
  %filled = linalg.fill ins(%x : f32) outs(%e : tensor<32x16xf32, #O>) -> tensor<32x16xf32, #O>
  %e2 = tensor.empty() : tensor<32x16xf32, #O>
  %min = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %filled : tensor<32x16xf32, #O>, tensor<32x16xf32, #O>) outs(%e2 : tensor<32x16xf32, #O>) {
  ^bb0(%a: f32, %b: f32, %unused: f32):
    %less = arith.cmpf olt, %a, %b : f32
    %c = arith.select %less, %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<32x16xf32, #O>
  return %min : tensor<32x16xf32, #O>
}

// -----

func.func @negative_replicated_scores(%s: tensor<16x16xf32, #sage.replicated>, %q0: index, %n: index)
    -> tensor<16x16xf32, #sage.replicated> {
  // expected-error@+1 {{'sage.mask_scores' op cannot be distributed: expected a tile held as MMA accumulators (#sage.acc_fragment), got 'tensor<16x16xf32, #sage.replicated>'}}
  %m = sage.mask_scores %s at [%q0, %q0] of [%n, %n] : tensor<16x16xf32, #sage.replicated>
  return %m : tensor<16x16xf32, #sage.replicated>
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_plain_scores(%s: tensor<64x64xf32>,
    %m: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'sage.online_softmax' op cannot be distributed: expected a tile held as MMA accumulators (#sage.acc_fragment), got 'tensor<64x64xf32>'}}
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %m, %m : tensor<64x64xf32>, tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>
  return %p : tensor<64x64xf32>
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_measured_scale(%p: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>)
    -> tensor<1x1xf32> {
  // expected-error@+1 {{'sage.quantize' op cannot be distributed: measured scales need a reduction across lanes; only a static `bound` is distributed}}
  %pq, %ps = sage.quantize %p {quant = #sage.quant<f8E4M3FN, per_tensor>}
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  return %ps : tensor<1x1xf32>
}

// -----

// Q K^T on one warp's 16 x 16 tile of scores, one 32-channel chunk: the
// warp reads A's four 8 x 16-byte matrices (lane (g, t) gets rows g and
// g + 8, channels 4t .. 4t + 3 and 16 + 4t ..) and B's two of each 8-key
// tile (key g), then one m16n8k32 a tile; the i32 sums
// are scaled by its row's delta_Q (group 8 w + g) and its keys' delta_K
// (group t): one factor for all of the lane's sums, broadcast.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 1>
// CHECK-LABEL: func @scores
//  CHECK-SAME: (%[[Q:[^:]*]]: tensor<16x32xi8>, %[[QS:[^:]*]]: tensor<8x1xf32>, %[[K:[^:]*]]: tensor<16x32xi8>, %[[KS:[^:]*]]: tensor<4x1xf32>, %[[ACC_TILE:[^:]*]]: tensor<16x16xf32, #{{.*}}>)
//       CHECK:   %[[ACC:.*]] = builtin.unrealized_conversion_cast %[[ACC_TILE]] : tensor<16x16xf32, #{{.*}}> to vector<8xf32>
//       CHECK:   %[[TID:.*]] = gpu.thread_id x
//       CHECK:   %[[LANE:.*]] = arith.remui %[[TID]], %{{.*}} : index
//       CHECK:   %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
//       CHECK:   %[[G:.*]] = arith.divui %[[LANE]], %{{.*}} : index
//       CHECK:   %[[T:.*]] = arith.remui %[[LANE]], %{{.*}} : index
//       CHECK:   %[[WARP_ROW:.*]] = arith.muli %[[WARP]], %{{.*}} : index
//       CHECK:   %[[ZERO_INDEX:.*]] = arith.constant 0 : index
//       CHECK:   %[[A:.*]] = sage.warp_load_matrices %[[Q]][%[[WARP_ROW]], %[[ZERO_INDEX]]] rows [0, 8, 0, 8] columns [0, 0, 16, 16] : tensor<16x32xi8> -> vector<16xi8>
//       CHECK:   %[[B0:.*]] = sage.warp_load_matrices %[[K]][%{{.*}}, %{{.*}}] rows [0, 0] columns [0, 16] : tensor<16x32xi8> -> vector<8xi8>
//       CHECK:   %[[S0:.*]] = sage.warp_mma %[[A]], %[[B0]], %[[ZERO:.*]] {mma = #sage.mma<{{.*}}a = i8{{.*}}>} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       CHECK:   %[[EIGHT:.*]] = arith.constant 8 : index
//       CHECK:   %[[B1:.*]] = sage.warp_load_matrices %[[K]][%[[EIGHT]], %{{.*}}] rows [0, 0] columns [0, 16]
//       CHECK:   %[[S1:.*]] = sage.warp_mma %[[A]], %[[B1]], %[[ZERO]]
//       CHECK:   %[[SUMS:.*]] = vector.shuffle %[[S0]], %[[S1]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xi32>, vector<4xi32>
//       CHECK:   %[[FLOATS:.*]] = arith.sitofp %[[SUMS]] : vector<8xi32> to vector<8xf32>
//       CHECK:   %[[DQ:.*]] = tensor.extract %[[QS]]
//       CHECK:   %[[DK:.*]] = tensor.extract %[[KS]]
//       CHECK:   %[[F:.*]] = arith.mulf %[[DQ]], %[[DK]] : f32
//   CHECK-NOT:   tensor.extract
//       CHECK:   %[[FACTORS:.*]] = vector.broadcast %[[F]] : f32 to vector<8xf32>
//       CHECK:   %[[SCALED:.*]] = arith.mulf %[[FLOATS]], %[[FACTORS]] fastmath<contract> : vector<8xf32>
//       CHECK:   %[[S:.*]] = arith.addf %[[ACC]], %[[SCALED]] fastmath<contract> : vector<8xf32>
//       CHECK:   builtin.unrealized_conversion_cast %[[S]] : vector<8xf32> to tensor<16x16xf32, #{{.*}}>
func.func @scores(%q: tensor<16x32xi8>, %qs: tensor<8x1xf32>, %k: tensor<16x32xi8>,
    %ks: tensor<4x1xf32>, %acc: tensor<16x16xf32, #S>) -> tensor<16x16xf32, #S> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 16, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 16>, mma = #qk}
    : tensor<16x32xi8>, tensor<8x1xf32>, tensor<16x32xi8>, tensor<4x1xf32> -> tensor<16x16xf32, #S>
  return %s : tensor<16x16xf32, #S>
}


// -----

// Per-token scales differ between the lane's rows g and g + 8 and its
// columns: a factor an accumulator.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 1>
// CHECK-LABEL: func @scores_per_token
//  CHECK-SAME: (%{{[^:]*}}: tensor<16x32xi8>, %[[QS:[^:]*]]: tensor<16x1xf32>, %{{[^:]*}}: tensor<16x32xi8>, %[[KS:[^:]*]]: tensor<16x1xf32>
//       CHECK:   %[[FLOATS:.*]] = arith.sitofp
//       CHECK:   %[[DQ0:.*]] = tensor.extract %[[QS]]
//       CHECK:   %[[DK0:.*]] = tensor.extract %[[KS]]
//       CHECK:   %[[F0:.*]] = arith.mulf %[[DQ0]], %[[DK0]] : f32
//       CHECK:   %[[DK1:.*]] = tensor.extract %[[KS]]
//       CHECK:   %[[F1:.*]] = arith.mulf %[[DQ0]], %[[DK1]] : f32
//       CHECK:   %[[DQ1:.*]] = tensor.extract %[[QS]]
//       CHECK:   %[[F2:.*]] = arith.mulf %[[DQ1]], %[[DK0]] : f32
//       CHECK:   %[[FACTORS:.*]] = vector.from_elements %[[F0]], %[[F1]], %[[F2]], %{{.*}} : vector<8xf32>
//       CHECK:   arith.mulf %[[FLOATS]], %[[FACTORS]] fastmath<contract> : vector<8xf32>
func.func @scores_per_token(%q: tensor<16x32xi8>, %qs: tensor<16x1xf32>, %k: tensor<16x32xi8>,
    %ks: tensor<16x1xf32>, %acc: tensor<16x16xf32, #S>) -> tensor<16x16xf32, #S> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_token, block = 16>,
      b_quant = #sage.quant<i8, per_token, block = 16>, mma = #qk}
    : tensor<16x32xi8>, tensor<16x1xf32>, tensor<16x32xi8>, tensor<16x1xf32> -> tensor<16x16xf32, #S>
  return %s : tensor<16x16xf32, #S>
}

// -----

// Scores that start from zero (no dS) with one factor a lane, read by the
// mask of the blocks that need one and by a softmax with a score_scale:
// the softmax takes the raw sums and scales them by c * max(f, the
// smallest normal float), one multiply a lane (a zero f would make the
// masked -inf scores NaN).
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 1>
#R = #sage.row_fragment<m = 16, warps = 1>
// CHECK-LABEL: func @score_factor_in_softmax
//  CHECK-SAME: (%{{[^:]*}}: tensor<16x32xi8>, %[[QS:[^:]*]]: tensor<8x1xf32>, %{{[^:]*}}: tensor<16x32xi8>, %[[KS:[^:]*]]: tensor<4x1xf32>
//       CHECK:   %[[FLOATS:.*]] = arith.sitofp %{{.*}} : vector<8xi32> to vector<8xf32>
//       CHECK:   %[[F:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
//   CHECK-NOT:   arith.mulf %[[FLOATS]]
//       CHECK:   %[[SCORES:.*]] = scf.if %{{.*}} -> (vector<8xf32>) {
//       CHECK:     %[[MASKED:.*]] = sage.mask_scores %[[FLOATS]]
//       CHECK:     scf.yield %[[MASKED]]
//       CHECK:   } else {
//       CHECK:     scf.yield %[[FLOATS]]
//       CHECK:   %[[SMALLEST:.*]] = arith.constant 1.17549435E-38 : f32
//       CHECK:   %[[POSITIVE:.*]] = arith.maximumf %[[F]], %[[SMALLEST]] : f32
//       CHECK:   %[[LANE_FACTOR:.*]] = vector.broadcast %[[POSITIVE]] : f32 to vector<1xf32>
//       CHECK:   %[[LANE_SCALE:.*]] = arith.mulf %[[C:.*]], %[[LANE_FACTOR]] : vector<1xf32>
//       CHECK:   sage.online_softmax %[[SCORES]], %{{.*}}, %{{.*}} scaled %[[LANE_SCALE]] : vector<1xf32>
func.func @score_factor_in_softmax(%q: tensor<16x32xi8>, %qs: tensor<8x1xf32>, %k: tensor<16x32xi8>,
    %ks: tensor<4x1xf32>, %m: tensor<16xf32, #R>, %l: tensor<16xf32, #R>,
    %k0: index, %n: index, %edge: i1) -> tensor<16x16xf32, #S> {
  %c = arith.constant dense<0.125> : vector<1xf32>
  %e = tensor.empty() : tensor<16x16xf32, #S>
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32, #S>) -> tensor<16x16xf32, #S>
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 16, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 16>, mma = #qk}
    : tensor<16x32xi8>, tensor<8x1xf32>, tensor<16x32xi8>, tensor<4x1xf32> -> tensor<16x16xf32, #S>
  %masked = scf.if %edge -> (tensor<16x16xf32, #S>) {
    %x = sage.mask_scores %s at [%k0, %k0] of [%n, %n] : tensor<16x16xf32, #S>
    scf.yield %x : tensor<16x16xf32, #S>
  } else {
    scf.yield %s : tensor<16x16xf32, #S>
  }
  %p, %m1, %l1, %alpha = sage.online_softmax %masked, %m, %l scaled %c : vector<1xf32>
      {base2} : tensor<16x16xf32, #S>, tensor<16xf32, #R>
  return %p : tensor<16x16xf32, #S>
}
// -----

// P V with P in the registers of Q K^T's accumulators: A is the lane's own
// values in the accumulator order (keys 0, 1, 8, 9 of lane t = 0 at
// positions 0 to 3, docs/Layouts.md), a shuffle; B is V^T gathered into
// that order (column p holds key getIndexAt(p)), so each of the lane's
// registers of B is a word of a matrix row: positions 4t and 16 + 4t of
// V^T's channel g, two matrices read by the warp. Unit scales: the f32 sums are added as they are.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 1>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
//   CHECK-DAG: #[[$KEYS:.*]] = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
// CHECK-LABEL: func @probs_from_registers
//  CHECK-SAME: (%[[P_TILE:[^:]*]]: tensor<16x32xf8E4M3FN, #{{.*}}>, %[[VT:[^:]*]]: tensor<8x32xf8E4M3FN>, %[[ACC_TILE:[^:]*]]: tensor<16x8xf32, #{{.*}}>)
//   CHECK-DAG:   %[[P:.*]] = builtin.unrealized_conversion_cast %[[P_TILE]] : tensor<16x32xf8E4M3FN, #{{.*}}> to vector<16xf8E4M3FN>
//   CHECK-DAG:   %[[ACC:.*]] = builtin.unrealized_conversion_cast %[[ACC_TILE]] : tensor<16x8xf32, #{{.*}}> to vector<4xf32>
//       CHECK:   %[[LANE:.*]] = arith.remui %{{.*}}, %c32
//       CHECK:   %[[G:.*]] = arith.divui %[[LANE]], %c4
//       CHECK:   %[[T:.*]] = arith.remui %[[LANE]], %c4
//       CHECK:   %[[VK:.*]] = linalg.generic {indexing_maps = [#[[$KEYS]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[VT]] : tensor<8x32xf8E4M3FN>)
//       CHECK:   %[[A:.*]] = vector.shuffle %[[P]], %[[P]] [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15] : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   %[[B:.*]] = sage.warp_load_matrices %[[VK]][%c0{{.*}}, %c0{{.*}}] rows [0, 0] columns [0, 16] : tensor<8x32xf8E4M3FN> -> vector<8xf8E4M3FN>
//       CHECK:   %[[R:.*]] = sage.warp_mma %[[A]], %[[B]], %{{.*}} {mma = #sage.mma<{{.*}}a = f8E4M3FN{{.*}}>} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//   CHECK-NOT:   arith.mulf
//       CHECK:   %[[O:.*]] = arith.addf %[[ACC]], %[[R]] fastmath<contract> : vector<4xf32>
func.func @probs_from_registers(%p: tensor<16x32xf8E4M3FN, #S>, %vt: tensor<8x32xf8E4M3FN>,
    %acc: tensor<16x8xf32, #O>) -> tensor<16x8xf32, #O> {
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %o = sage.qmma %p scaled %one, %vt scaled %one, %acc {accumulator = f32, mma = #pv}
    : tensor<16x32xf8E4M3FN, #S>, tensor<1x1xf32>, tensor<8x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<16x8xf32, #O>
  return %o : tensor<16x8xf32, #O>
}

// -----

#fp4 = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers,
                 b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>
#S = #sage.acc_fragment<mma = #fp4, warps = 1>
func.func @negative_block_scaled(%q: tensor<16x64xf4E2M1FN>, %qs: tensor<16x4xf8E4M3FN>,
    %k: tensor<8x64xf4E2M1FN>, %ks: tensor<8x4xf8E4M3FN>, %acc: tensor<16x8xf32, #S>) -> tensor<16x8xf32, #S> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed yet: block-scaled MMAs (NVFP4) are not}}
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = f32, mma = #fp4}
    : tensor<16x64xf4E2M1FN>, tensor<16x4xf8E4M3FN>, tensor<8x64xf4E2M1FN>, tensor<8x4xf8E4M3FN> -> tensor<16x8xf32, #S>
  return %s : tensor<16x8xf32, #S>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
func.func @negative_scaled_f16(%a: tensor<16x32xf8E4M3FN>, %as: tensor<16x1xf32>,
    %b: tensor<8x32xf8E4M3FN>, %bs: tensor<8x1xf32>, %acc: tensor<16x8xf16, #O>) -> tensor<16x8xf16, #O> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: scales on an f16 result (only P V's unit scales)}}
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = f16, mma = #pv}
    : tensor<16x32xf8E4M3FN>, tensor<16x1xf32>, tensor<8x32xf8E4M3FN>, tensor<8x1xf32> -> tensor<16x8xf16, #O>
  return %s : tensor<16x8xf16, #O>
}

// -----

// The epilogue's broadcasts: each accumulator element 4j + e divides by its
// row's l (the lane's row e / 2 of #sage.row_fragment: a shuffle) and
// multiplies by its column's delta_V ((0, d1) of a CTA-wide [1, 16] tile:
// read at column 8j + 2t + e % 2). A tile that enters the encoded ops
// through a cast (an operand window) is read at the lane's coordinates.
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
#R = #sage.row_fragment<m = 16, warps = 1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#first_row = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @epilogue
//  CHECK-SAME: (%[[O_TILE:[^:]*]]: tensor<16x16xf32, #{{.*}}>, %[[L_TILE:[^:]*]]: tensor<16xf32, #{{.*}}>, %[[DV:[^:]*]]: tensor<1x16xf32>, %[[W:[^:]*]]: tensor<16x16xf32>)
//   CHECK-DAG:   %[[O:.*]] = builtin.unrealized_conversion_cast %[[O_TILE]] : tensor<16x16xf32, #{{.*}}> to vector<8xf32>
//   CHECK-DAG:   %[[L:.*]] = builtin.unrealized_conversion_cast %[[L_TILE]] : tensor<16xf32, #{{.*}}> to vector<2xf32>
//       CHECK:   %[[W0:.*]] = tensor.extract %[[W]][%[[ROW_G:.*]], %[[COL:.*]]] : tensor<16x16xf32>
//       CHECK:   %[[W_HELD:.*]] = vector.from_elements %[[W0]], {{.*}} : vector<8xf32>
//       CHECK:   %[[L_SPREAD:.*]] = vector.shuffle %[[L]], %[[L]] [0, 0, 1, 1, 0, 0, 1, 1] : vector<2xf32>, vector<2xf32>
//       CHECK:   %[[DV0:.*]] = tensor.extract %[[DV]][%[[ZERO:.*]], %{{.*}}] : tensor<1x16xf32>
//       CHECK:   %[[DV_HELD:.*]] = vector.from_elements %[[DV0]], {{.*}} : vector<8xf32>
//       CHECK:   %[[NORM:.*]] = arith.divf %[[O]], %[[L_SPREAD]] : vector<8xf32>
//       CHECK:   %[[SCALED:.*]] = arith.mulf %[[NORM]], %[[DV_HELD]] : vector<8xf32>
//       CHECK:   arith.addf %[[SCALED]], %[[W_HELD]] : vector<8xf32>
func.func @epilogue(%o: tensor<16x16xf32, #O>, %l: tensor<16xf32, #R>, %dv: tensor<1x16xf32>,
    %w: tensor<16x16xf32>) -> tensor<16x16xf32, #O> {
  %w_held = tensor.cast %w : tensor<16x16xf32> to tensor<16x16xf32, #O>
  %e = tensor.empty() : tensor<16x16xf32, #O>
  %r = linalg.generic {indexing_maps = [#id, #row, #first_row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o, %l, %dv, %w_held : tensor<16x16xf32, #O>, tensor<16xf32, #R>, tensor<1x16xf32>, tensor<16x16xf32, #O>)
      outs(%e : tensor<16x16xf32, #O>) {
  ^bb0(%x: f32, %rowSum: f32, %scale: f32, %bias: f32, %unused: f32):
    %n = arith.divf %x, %rowSum : f32
    %s = arith.mulf %n, %scale : f32
    %b = arith.addf %s, %bias : f32
    linalg.yield %b : f32
  } -> tensor<16x16xf32, #O>
  return %r : tensor<16x16xf32, #O>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @negative_broadcast_held(%o: tensor<16x16xf32, #O>, %l: tensor<16xf32, #sage.replicated>)
    -> tensor<16x16xf32, #O> {
  %e = tensor.empty() : tensor<16x16xf32, #O>
  // expected-error@+1 {{'linalg.generic' op cannot be distributed: input #1 is broadcast through affine_map<(d0, d1) -> (d0)> but held as #sage.replicated; only the rows of the accumulator output may be}}
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%o, %l : tensor<16x16xf32, #O>, tensor<16xf32, #sage.replicated>) outs(%e : tensor<16x16xf32, #O>) {
  ^bb0(%a: f32, %b: f32, %u: f32):
    %c = arith.divf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<16x16xf32, #O>
  return %r : tensor<16x16xf32, #O>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
func.func @negative_a_replicated(%p: tensor<16x32xf8E4M3FN, #sage.replicated>, %vt: tensor<8x32xf8E4M3FN>,
    %one: tensor<1x1xf32>, %acc: tensor<16x8xf32, #O>) -> tensor<16x8xf32, #O> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: A held as #sage.replicated; only as MMA accumulators (P)}}
  %o = sage.qmma %p scaled %one, %vt scaled %one, %acc {accumulator = f32, mma = #pv}
    : tensor<16x32xf8E4M3FN, #sage.replicated>, tensor<1x1xf32>, tensor<8x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<16x8xf32, #O>
  return %o : tensor<16x8xf32, #O>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 1>
func.func @negative_scales_held(%p: tensor<16x32xf8E4M3FN>, %ps: tensor<1x1xf32, #sage.replicated>,
    %vt: tensor<8x32xf8E4M3FN>, %one: tensor<1x1xf32>, %acc: tensor<16x8xf32, #O>) -> tensor<16x8xf32, #O> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: B and the scales are read from tiles the CTA shares, got one held as #sage.replicated}}
  %o = sage.qmma %p scaled %ps, %vt scaled %one, %acc {accumulator = f32, mma = #pv}
    : tensor<16x32xf8E4M3FN>, tensor<1x1xf32, #sage.replicated>, tensor<8x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<16x8xf32, #O>
  return %o : tensor<16x8xf32, #O>
}

// -----

// per_warp K scales: groups of `warp` keys, for columns as for rows (key
// 8j + 2t + i uses scale (8j + 2t + i) / 16).
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 1>
// CHECK-LABEL: func @per_warp_keys
//  CHECK-SAME: %[[KS:[^:]*]]: tensor<2x1xf32>, %{{[^:]*}}: tensor<16x32xf32, #{{.*}}>)
//       CHECK:   %[[GROUP:.*]] = arith.divui %{{.*}}, %c16{{.*}} : index
//  CHECK-NEXT:   tensor.extract %[[KS]][%[[GROUP]], %{{.*}}] : tensor<2x1xf32>
func.func @per_warp_keys(%q: tensor<16x32xi8>, %qs: tensor<1x1xf32>, %k: tensor<32x32xi8>,
    %ks: tensor<2x1xf32>, %acc: tensor<16x32xf32, #S>) -> tensor<16x32xf32, #S> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32, mma = #qk,
      b_quant = #sage.quant<i8, per_warp, warp = 16>}
    : tensor<16x32xi8>, tensor<1x1xf32>, tensor<32x32xi8>, tensor<2x1xf32> -> tensor<16x32xf32, #S>
  return %s : tensor<16x32xf32, #S>
}

// -----

// The online softmax's l, held as the lanes' partial row sums through the
// loop, into the rows' sums: each lane adds its quad's other three parts
// (shuffles xor 1, then xor 2), per row it holds.
// CHECK-LABEL: func @quad_sums
//       CHECK:   %[[PARTS:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<32xf32, #{{.*}}> to vector<2xf32>
//       CHECK:   %[[ROW0:.*]] = vector.extract %[[PARTS]][0] : f32 from vector<2xf32>
//       CHECK:   %[[ONE:.*]] = arith.constant 1 : i32
//       CHECK:   %[[WIDTH:.*]] = arith.constant 32 : i32
//       CHECK:   %[[X1:.*]], %{{.*}} = gpu.shuffle xor %[[ROW0]], %[[ONE]], %[[WIDTH]] : f32
//       CHECK:   %[[PAIR:.*]] = arith.addf %[[ROW0]], %[[X1]] : f32
//       CHECK:   %[[TWO:.*]] = arith.constant 2 : i32
//       CHECK:   %[[WIDTH2:.*]] = arith.constant 32 : i32
//       CHECK:   %[[X2:.*]], %{{.*}} = gpu.shuffle xor %[[PAIR]], %[[TWO]], %[[WIDTH2]] : f32
//       CHECK:   %[[SUM0:.*]] = arith.addf %[[PAIR]], %[[X2]] : f32
//       CHECK:   %[[ROW1:.*]] = vector.extract %[[PARTS]][1] : f32 from vector<2xf32>
//       CHECK:   %[[PAIR1:.*]] = arith.addf %[[ROW1]], %{{.*}} : f32
//       CHECK:   %[[SUM1:.*]] = arith.addf %[[PAIR1]], %{{.*}} : f32
//       CHECK:   vector.from_elements %[[SUM0]], %[[SUM1]] : vector<2xf32>
func.func @quad_sums(%l: tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>)
    -> tensor<32xf32, #sage.row_fragment<m = 16, warps = 2>> {
  %rows = tensor.cast %l : tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>
      to tensor<32xf32, #sage.row_fragment<m = 16, warps = 2>>
  return %rows : tensor<32xf32, #sage.row_fragment<m = 16, warps = 2>>
}

// -----

// Into partial row sums, a value whole in every lane is kept by the quad's
// first lane only (t = 0), so that the quad's sum is the value: a tile
// read in (cast) and a non-zero fill. Out of partial sums to a plain tile
// (a fold of the two casts canonicalize makes), the quad is summed before
// sage.from_lanes takes the rows whole.
// CHECK-LABEL: func @partial_sums_in_and_out
//  CHECK-SAME:   (%[[L:[^:]*]]: tensor<32xf32>, %[[ONE:[^:]*]]: f32)
//       CHECK:   %[[READ:.*]] = vector.from_elements %{{.*}}, %{{.*}} : vector<2xf32>
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
//       CHECK:   %[[PARTS:.*]] = arith.select %[[FIRST]], %[[READ]], %{{.*}} : vector<2xf32>
//       CHECK:   vector.extract %[[PARTS]][0]
//       CHECK:   gpu.shuffle xor
//       CHECK:   %[[SUMS:.*]] = vector.from_elements
//       CHECK:   %[[WHOLE:.*]] = sage.from_lanes %[[SUMS]] {layout = #{{.*}}} : vector<2xf32> -> tensor<32xf32>
//       CHECK:   %[[SPLAT:.*]] = vector.broadcast %[[ONE]] : f32 to vector<2xf32>
//       CHECK:   %[[FILL:.*]] = arith.select %{{.*}}, %[[SPLAT]], %{{.*}} : vector<2xf32>
//       CHECK:   builtin.unrealized_conversion_cast %[[FILL]]
func.func @partial_sums_in_and_out(%l: tensor<32xf32>, %one: f32)
    -> (tensor<32xf32>, tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>) {
  %parts = tensor.cast %l : tensor<32xf32> to tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>
  %whole = tensor.cast %parts : tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>> to tensor<32xf32>
  %e = tensor.empty() : tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>)
      -> tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>
  return %whole, %f : tensor<32xf32>, tensor<32xf32, #sage.row_fragment<m = 16, warps = 2, partial_sums = true>>
}

// -----

// Q K^T through a wgmma (sm_90a): each warpgroup of 64 rows issues it on
// descriptors of the operand tiles gathered into K-major core matrices
// ([K / 16, rows, 16] bytes, element (r, x) at [x / 16, r, x % 16]), A at
// the warpgroup's first row; the chain is fenced, committed and waited
// for, and the i32 sums are scaled as a warp MMA's: each warp holds its 16
// rows as m16n8 accumulator tiles, so the encoding is the warp MMA's.
#wqk = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                 b = i8, b_source = shared, acc = i32, scales = none>
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
//   CHECK-DAG: #[[$CORE:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
// CHECK-LABEL: func @warpgroup_scores
//  CHECK-SAME: (%[[Q:[^:]*]]: tensor<64x32xi8>, %{{[^:]*}}: tensor<32x1xf32>, %[[K:[^:]*]]: tensor<64x32xi8>,
//       CHECK:   %[[WARP:.*]] = arith.divui %{{.*}}, %c32{{.*}} : index
//       CHECK:   %[[K_CORE:.*]] = linalg.generic {indexing_maps = [#[[$CORE]], #{{.*}}], {{.*}} ins(%[[K]] : tensor<64x32xi8>) outs(%{{.*}} : tensor<2x64x16xi8>)
//       CHECK:   sage.warpgroup_fence
//       CHECK:   %[[WARPGROUP:.*]] = arith.divui %[[WARP]], %c4{{.*}} : index
//       CHECK:   %[[FIRST_ROW:.*]] = arith.muli %[[WARPGROUP]], %c64 : index
//       CHECK:   %[[Q_CORE:.*]] = linalg.generic {indexing_maps = [#[[$CORE]], #{{.*}}], {{.*}} ins(%[[Q]] : tensor<64x32xi8>) outs(%{{.*}} : tensor<2x64x16xi8>)
//       CHECK:   %[[A:.*]] = sage.tile_descriptor %[[Q_CORE]][%[[FIRST_ROW]], %c0{{.*}}] {mma = #sage.mma<scope = warpgroup{{.*}}>} : tensor<2x64x16xi8> -> i64
//       CHECK:   %[[B:.*]] = sage.tile_descriptor %[[K_CORE]][%c0{{.*}}, %c0{{.*}}] {mma = #sage.mma<scope = warpgroup{{.*}}>} : tensor<2x64x16xi8> -> i64
//       CHECK:   %[[R:.*]] = sage.warpgroup_mma %[[A]], %[[B]] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8{{.*}}>} : i64 -> vector<32xi32>
//       CHECK:   %[[GROUP:.*]] = sage.warpgroup_commit(%[[R]] : vector<32xi32>)
//       CHECK:   %[[SUMS:.*]] = sage.warpgroup_wait 0 on %[[GROUP]], %[[R]] : vector<32xi32>
//       CHECK:   %[[FLOATS:.*]] = arith.sitofp %[[SUMS]] : vector<32xi32> to vector<32xf32>
//       CHECK:   arith.mulf %[[FLOATS]], %{{.*}} : vector<32xf32>
func.func @warpgroup_scores(%q: tensor<64x32xi8>, %qs: tensor<32x1xf32>, %k: tensor<64x32xi8>,
    %ks: tensor<4x1xf32>, %acc: tensor<64x64xf32, #S>) -> tensor<64x64xf32, #S> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, mma = #wqk}
    : tensor<64x32xi8>, tensor<32x1xf32>, tensor<64x32xi8>, tensor<4x1xf32> -> tensor<64x64xf32, #S>
  return %s : tensor<64x64xf32, #S>
}

// -----

// P V through a wgmma with P from registers: the warp's A registers of a
// wgmma are the m16n8k32 fragment, so A is the same shuffle of the lane's
// accumulators as for mma.sync, passed through the fence; V^T is gathered
// into P's key order, then into core matrices, and read by descriptor. The
// wait names P's registers, which the wgmma reads until it completes.
#wpv = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers,
                 b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
#O = #sage.acc_fragment<mma = #pv, warps = 4>
//   CHECK-DAG: #[[$KEYS:.*]] = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
//   CHECK-DAG: #[[$CORE:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
// CHECK-LABEL: func @warpgroup_probs_from_registers
//  CHECK-SAME: (%[[P_TILE:[^:]*]]: tensor<64x32xf8E4M3FN, #{{.*}}>, %[[VT:[^:]*]]: tensor<64x32xf8E4M3FN>, %[[ACC_TILE:[^:]*]]: tensor<64x64xf32, #{{.*}}>)
//   CHECK-DAG:   %[[ACC:.*]] = builtin.unrealized_conversion_cast %[[ACC_TILE]] : {{.*}} to vector<32xf32>
//   CHECK-DAG:   %[[P:.*]] = builtin.unrealized_conversion_cast %[[P_TILE]] : {{.*}} to vector<16xf8E4M3FN>
//       CHECK:   %[[VK:.*]] = linalg.generic {indexing_maps = [#[[$KEYS]], #{{.*}}], {{.*}} ins(%[[VT]] : tensor<64x32xf8E4M3FN>)
//       CHECK:   %[[V_CORE:.*]] = linalg.generic {indexing_maps = [#[[$CORE]], #{{.*}}], {{.*}} ins(%[[VK]] : tensor<64x32xf8E4M3FN>) outs(%{{.*}} : tensor<2x64x16xf8E4M3FN>)
//       CHECK:   %[[A:.*]] = vector.shuffle %[[P]], %[[P]] [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15] : vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
//       CHECK:   %[[FENCED:.*]] = sage.warpgroup_fence(%[[A]] : vector<16xf8E4M3FN>)
//       CHECK:   %[[B:.*]] = sage.tile_descriptor %[[V_CORE]][%c0{{.*}}, %c0{{.*}}] {{.*}} : tensor<2x64x16xf8E4M3FN> -> i64
//       CHECK:   %[[R:.*]] = sage.warpgroup_mma %[[FENCED]], %[[B]] {{.*}} : vector<16xf8E4M3FN> -> vector<32xf32>
//       CHECK:   %[[GROUP:.*]] = sage.warpgroup_commit(%[[R]] : vector<32xf32>)
//       CHECK:   %[[DONE:.*]]:2 = sage.warpgroup_wait 0 on %[[GROUP]], %[[R]], %[[FENCED]] : vector<32xf32>, vector<16xf8E4M3FN>
//   CHECK-NOT:   arith.mulf
//       CHECK:   arith.addf %[[ACC]], %[[DONE]]#0 fastmath<contract> : vector<32xf32>
func.func @warpgroup_probs_from_registers(%p: tensor<64x32xf8E4M3FN, #S>, %vt: tensor<64x32xf8E4M3FN>,
    %acc: tensor<64x64xf32, #O>) -> tensor<64x64xf32, #O> {
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %o = sage.qmma %p scaled %one, %vt scaled %one, %acc {accumulator = f32, mma = #wpv}
    : tensor<64x32xf8E4M3FN, #S>, tensor<1x1xf32>, tensor<64x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32, #O>
  return %o : tensor<64x64xf32, #O>
}

// -----

#wqk = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                 b = i8, b_source = shared, acc = i32, scales = none>
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
func.func @negative_warpgroup_dynamic_tile(%q: tensor<64x32xi8>, %qs: tensor<32x1xf32>,
    %k: tensor<?x32xi8>, %ks: tensor<4x1xf32>, %acc: tensor<64x64xf32, #S>) -> tensor<64x64xf32, #S> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: a wgmma reads its operands from shared memory as static tiles of whole 16-byte rows, got 'tensor<?x32xi8>'}}
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, mma = #wqk}
    : tensor<64x32xi8>, tensor<32x1xf32>, tensor<?x32xi8>, tensor<4x1xf32> -> tensor<64x64xf32, #S>
  return %s : tensor<64x64xf32, #S>
}

// -----

// A wgmma row reading A from shared memory, given P held by the lanes.
#wpv = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                 b = i8, b_source = shared, acc = i32, scales = none>
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
func.func @negative_warpgroup_held_a(%p: tensor<64x32xi8, #S>, %k: tensor<64x32xi8>,
    %acc: tensor<64x64xf32, #S>) -> tensor<64x64xf32, #S> {
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: its wgmma reads A from shared, but A is held by the lanes}}
  %o = sage.qmma %p scaled %one, %k scaled %one, %acc {accumulator = i32, mma = #wpv}
    : tensor<64x32xi8, #S>, tensor<1x1xf32>, tensor<64x32xi8>, tensor<1x1xf32> -> tensor<64x64xf32, #S>
  return %o : tensor<64x64xf32, #S>
}

// -----

// A wgmma row reading A from registers, given a tile the CTA shares.
#wpv = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN, a_source = registers,
                 b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#O = #sage.acc_fragment<mma = #pv, warps = 4>
func.func @negative_warpgroup_shared_p(%p: tensor<64x32xf8E4M3FN>, %vt: tensor<64x32xf8E4M3FN>,
    %acc: tensor<64x64xf32, #O>) -> tensor<64x64xf32, #O> {
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: its wgmma reads A from registers, but A is a tile the CTA shares}}
  %o = sage.qmma %p scaled %one, %vt scaled %one, %acc {accumulator = f32, mma = #wpv}
    : tensor<64x32xf8E4M3FN>, tensor<1x1xf32>, tensor<64x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32, #O>
  return %o : tensor<64x64xf32, #O>
}

// -----

// Without causal only the padded keys are masked: a warp's 32 keys from
// K0 need it when the last, K0 + 31, is at or past Nk. Top-left causal
// compares that key with the warp's first row itself (diagonal 0).
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
// CHECK-LABEL: func @mask_padded_keys
//  CHECK-SAME: %[[Q0:[^:]*]]: i32, %[[K0:[^:]*]]: i32, %[[NQ:[^:]*]]: i32, %[[NK:[^:]*]]: i32)
//       CHECK:   %[[ROW0:.*]] = arith.addi %[[Q0]], %{{.*}} : i32
//       CHECK:   %[[LAST:.*]] = arith.addi %[[K0]], %c31_i32 : i32
//       CHECK:   %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %[[NK]] : i32
//       CHECK:   scf.if %[[PADDED]] -> (vector<16xf32>) {
//       CHECK:     sage.mask_scores %{{.*}} at [%[[ROW0]], %[[K0]]] of [%[[NQ]], %[[NK]]] {fragment =
func.func @mask_padded_keys(%s: tensor<64x32xf32, #S>, %q0: i32, %k0: i32, %nq: i32, %nk: i32) -> tensor<64x32xf32, #S> {
  %m = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] : tensor<64x32xf32, #S>, i32
  return %m : tensor<64x32xf32, #S>
}
// CHECK-LABEL: func @mask_top_left
//  CHECK-SAME: %[[Q0:[^:]*]]: i32, %[[K0:[^:]*]]: i32, %[[NQ:[^:]*]]: i32, %[[NK:[^:]*]]: i32)
//       CHECK:   %[[ROW0:.*]] = arith.addi %[[Q0]], %{{.*}} : i32
//       CHECK:   %[[LAST:.*]] = arith.addi %[[K0]], %c31_i32 : i32
//       CHECK:   %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %[[NK]] : i32
//   CHECK-NOT:   arith.subi
//       CHECK:   %[[RIGHT:.*]] = arith.cmpi sgt, %[[LAST]], %[[ROW0]] : i32
//       CHECK:   %[[ANY:.*]] = arith.ori %[[PADDED]], %[[RIGHT]] : i1
//       CHECK:   scf.if %[[ANY]] -> (vector<16xf32>) {
func.func @mask_top_left(%s: tensor<64x32xf32, #S>, %q0: i32, %k0: i32, %nq: i32, %nk: i32) -> tensor<64x32xf32, #S> {
  %m = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal, causal_alignment = #sage.causal_alignment<top_left>} : tensor<64x32xf32, #S>, i32
  return %m : tensor<64x32xf32, #S>
}

// -----

// Whole m16n8 tiles of a tile's columns are the lane's elements of those
// tiles: columns 16-31 are tiles 2 and 3, elements 8-15 of 16.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
// CHECK-LABEL: func @column_tiles
//       CHECK:   vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
func.func @column_tiles(%s: tensor<64x32xf32, #S>) -> tensor<64x16xf32, #S> {
  %m = tensor.extract_slice %s[0, 16] [64, 16] [1, 1] : tensor<64x32xf32, #S> to tensor<64x16xf32, #S>
  return %m : tensor<64x16xf32, #S>
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#S = #sage.acc_fragment<mma = #qk, warps = 4>
func.func @negative_partial_column_tile(%s: tensor<64x32xf32, #S>) -> tensor<64x8xf32, #S> {
  // expected-error@+1 {{'tensor.extract_slice' op cannot be distributed: a slice of a tile held as MMA accumulators takes every row and whole tiles of the MMA's columns, and keeps the tile's encoding}}
  %m = tensor.extract_slice %s[0, 3] [64, 8] [1, 1] : tensor<64x32xf32, #S> to tensor<64x8xf32, #S>
  return %m : tensor<64x8xf32, #S>
}
