// RUN: sage-opt %s --sage-distribute-tiles -split-input-file -verify-diagnostics | FileCheck %s

// The K/V loop with the encodings sage-assign-fragments gives it
// (docs/Levels.md, distribute): each lane's 32 scores of its warp's 16
// rows (4 x m16n8 tiles of 8 keys, 64 keys), its 2 rows of m and l, its 32
// elements of the 64 x 64 output. The softmax chain becomes the fragment
// forms (L4); the sage.qmma ops keep their tiles behind casts.
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
//       CHECK:     %[[ACC:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<32xf32> to tensor<64x64xf32, #{{.*}}>
//       CHECK:     %[[S_TILE:.*]] = sage.qmma {{.*}}, %[[ACC]] {{.*}} -> tensor<64x64xf32, #{{.*}}>
//       CHECK:     %[[S:.*]] = builtin.unrealized_conversion_cast %[[S_TILE]] : tensor<64x64xf32, #{{.*}}> to vector<32xf32>
//       CHECK:     %[[SCALES:.*]] = vector.broadcast %[[SCALE]] : f32 to vector<32xf32>
//       CHECK:     %[[SCALED:.*]] = arith.mulf %[[S]], %[[SCALES]] : vector<32xf32>
// The warp's first row: the tile's first row + 16 (thread x / 32).
//       CHECK:     %[[TID:.*]] = gpu.thread_id x
//       CHECK:     %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
//       CHECK:     %[[WARP_ROWS:.*]] = arith.muli %[[WARP]], %{{.*}} : index
//       CHECK:     %[[ROW0:.*]] = arith.addi %[[Q0]], %[[WARP_ROWS]] : index
//       CHECK:     %[[MASKED:.*]] = sage.mask_scores %[[SCALED]] at [%[[ROW0]], %[[K0]]] of [%[[N]], %[[N]]] {causal, fragment = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}>} : vector<32xf32>
//       CHECK:     %[[P:.*]], %[[M1:.*]], %[[L1:.*]], %[[ALPHA:.*]] = sage.online_softmax %[[MASKED]], %[[M]], %[[L]] {fragment = #sage.mma<{{.*}}a = i8{{.*}}>} : vector<32xf32>, vector<2xf32>
//       CHECK:     %[[PQ:.*]], %{{.*}} = sage.quantize %[[P]] {bound = 1.000000e+00 : f64, fragment = #sage.mma<{{.*}}a = i8{{.*}}>, quant = #sage.quant<f8E4M3FN, per_tensor>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
//       CHECK:     %[[PQ_TILE:.*]] = builtin.unrealized_conversion_cast %[[PQ]] : vector<32xf8E4M3FN> to tensor<64x64xf8E4M3FN, #{{.*}}>
//       CHECK:     %[[R_TILE:.*]] = sage.qmma %[[PQ_TILE]]
//       CHECK:     %[[R:.*]] = builtin.unrealized_conversion_cast %[[R_TILE]] : tensor<64x64xf32, #{{.*}}> to vector<32xf32>
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
