// RUN: sage-opt %s --sage-assign-fragments -split-input-file -verify-diagnostics | FileCheck %s

// The K/V loop of the tile level (docs/Levels.md, L2) after sage-select-mma:
// Q K^T's accumulator anchors the scores, P V's the output buffer; the
// encodings follow the chain through the softmax into the loop's carried
// values. The zero tile CSE made one is split between Q K^T and P V; the
// operand tiles and the scales keep their types.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
//   CHECK-DAG: #[[QK:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}, acc = i32, scales = none>, warps = 4>
//   CHECK-DAG: #[[PV:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, {{.*}}, acc = f32, scales = none>, warps = 4>
//   CHECK-DAG: #[[ROWS:.*]] = #sage.row_fragment<m = 16, warps = 4>
//   CHECK-DAG: #[[SUMS:.*]] = #sage.row_fragment<m = 16, warps = 4, partial_sums = true>
// CHECK-LABEL: func @loop
//       CHECK:   %[[ZERO_QK:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x64xf32, #[[QK]]>) -> tensor<64x64xf32, #[[QK]]>
//       CHECK:   %[[ZERO_PV:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x64xf32, #[[PV]]>) -> tensor<64x64xf32, #[[PV]]>
//       CHECK:   %[[M0:.*]] = linalg.fill {{.*}} -> tensor<64xf32, #[[ROWS]]>
//       CHECK:   %[[L0:.*]] = linalg.fill {{.*}} -> tensor<64xf32, #[[SUMS]]>
//       CHECK:   %[[LOOP:.*]]:3 = scf.for {{.*}} iter_args(%[[O:.*]] = %[[ZERO_PV]], %[[M:.*]] = %[[M0]], %[[L:.*]] = %[[L0]]) -> (tensor<64x64xf32, #[[PV]]>, tensor<64xf32, #[[ROWS]]>, tensor<64xf32, #[[SUMS]]>)
//       CHECK:     %[[S:.*]] = sage.qmma %{{.*}} scaled %{{.*}}, %{{.*}} scaled %{{.*}}, %[[ZERO_QK]] {{.*}} : tensor<64x64xi8>, tensor<32x1xf32>, tensor<64x64xi8>, tensor<4x1xf32> -> tensor<64x64xf32, #[[QK]]>
//       CHECK:     %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<64x64xf32, #[[QK]]>) outs(%{{.*}} : tensor<64x64xf32, #[[QK]]>)
//       CHECK:     %[[MASKED:.*]] = sage.mask_scores %[[SCALED]] {{.*}} : tensor<64x64xf32, #[[QK]]>
//       CHECK:     %[[P:.*]], %[[M1:.*]], %[[L1:.*]], %[[ALPHA:.*]] = sage.online_softmax %[[MASKED]], %[[M]], %[[L]] : tensor<64x64xf32, #[[QK]]>, tensor<64xf32, #[[ROWS]]>, tensor<64xf32, #[[SUMS]]>
//       CHECK:     %[[PQ:.*]], %{{.*}} = sage.quantize %[[P]] {{.*}} -> tensor<64x64xf8E4M3FN, #[[QK]]>, tensor<1x1xf32, #sage.replicated>
//       CHECK:     %[[R:.*]] = sage.qmma %[[PQ]] scaled %{{.*}}, %{{.*}} scaled %{{.*}}, %{{.*}} {{.*}} : tensor<64x64xf8E4M3FN, #[[QK]]>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32, #[[PV]]>
//       CHECK:     %[[O1:.*]] = sage.accumulate %[[R]] into %[[O]] rescale %[[ALPHA]] {{.*}} : tensor<64x64xf32, #[[PV]]>, tensor<64xf32, #[[ROWS]]> -> tensor<64x64xf32, #[[PV]]>
//       CHECK:     scf.yield %[[O1]], %[[M1]], %[[L1]]
// The return pins its operands' types: it reads them through casts. The
// lanes' partial row sums are first reduced to the rows' sums, which is
// how a generic reads them too (the LSE, m ln 2 + ln l): it ties the max
// and the reduced sums, not the partial ones.
//   CHECK-DAG:   %[[L_ROWS:.*]] = tensor.cast %[[LOOP]]#2 : tensor<64xf32, #[[SUMS]]> to tensor<64xf32, #[[ROWS]]>
//   CHECK-DAG:   %[[L_PLAIN:.*]] = tensor.cast %[[L_ROWS]] : tensor<64xf32, #[[ROWS]]> to tensor<64xf32>
//   CHECK-DAG:   %[[O_PLAIN:.*]] = tensor.cast %[[LOOP]]#0 : tensor<64x64xf32, #[[PV]]> to tensor<64x64xf32>
//       CHECK:   %[[LSE:.*]] = linalg.generic {{.*}} ins(%[[LOOP]]#1, %[[L_ROWS]] : tensor<64xf32, #[[ROWS]]>, tensor<64xf32, #[[ROWS]]>) outs(%{{.*}} : tensor<64xf32, #[[ROWS]]>)
//       CHECK:   %[[LSE_PLAIN:.*]] = tensor.cast %[[LSE]] : tensor<64xf32, #[[ROWS]]> to tensor<64xf32>
//       CHECK:   return %[[O_PLAIN]], %[[L_PLAIN]], %[[LSE_PLAIN]] : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0) -> (d0)>
func.func @loop(%q: tensor<64x64xi8>, %qs: tensor<32x1xf32>, %k: tensor<64x64xi8>,
                %ks: tensor<4x1xf32>, %vt: tensor<64x64xf8E4M3FN>, %one: tensor<1x1xf32>,
                %blocks: index, %q0: index, %n: index)
    -> (tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %er = tensor.empty() : tensor<64xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%er : tensor<64xf32>) -> tensor<64xf32>
  %r:3 = scf.for %j = %c0 to %blocks step %c1 iter_args(%o = %z, %m = %m0, %l = %l0)
      -> (tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>) {
    %k0 = arith.muli %j, %c64 : index
    %s = sage.qmma %q scaled %qs, %k scaled %ks, %z {accumulator = i32,
        a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>, mma = #qk}
      : tensor<64x64xi8>, tensor<32x1xf32>, tensor<64x64xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
    %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
    ^bb0(%x: f32, %unused: f32):
      %y = arith.mulf %x, %scale : f32
      linalg.yield %y : f32
    } -> tensor<64x64xf32>
    %masked = sage.mask_scores %scaled at [%q0, %k0] of [%n, %n] {causal} : tensor<64x64xf32>
    %p, %m1, %l1, %alpha = sage.online_softmax %masked, %m, %l : tensor<64x64xf32>, tensor<64xf32>
    %pq, %ps = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
      : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
    %pv = sage.qmma %pq scaled %one, %vt scaled %one, %z {accumulator = f32, mma = #pv}
      : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32>
    %o1 = sage.accumulate %pv into %o rescale %alpha {scheme = #sage.accum<f32>}
      : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
    scf.yield %o1, %m1, %l1 : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>
  }
  %lse = linalg.generic {indexing_maps = [#row, #row, #row], iterator_types = ["parallel"]}
      ins(%r#1, %r#2 : tensor<64xf32>, tensor<64xf32>) outs(%er : tensor<64xf32>) {
  ^bb0(%max: f32, %sum: f32, %unused: f32):
    %log = math.log %sum : f32
    %y = arith.addf %max, %log : f32
    linalg.yield %y : f32
  } -> tensor<64xf32>
  return %r#0, %r#2, %lse : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

func.func @negative_no_instruction(%a: tensor<64x64xi8>, %as: tensor<32x1xf32>,
    %b: tensor<64x64xi8>, %bs: tensor<4x1xf32>, %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'sage.qmma' op has no instruction yet: run sage-select-mma before sage-assign-fragments}}
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<64x64xi8>, tensor<32x1xf32>, tensor<64x64xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

// A valid tile, but 1024 rows of m16 MMAs would take 64 warps, twice a CTA's.
func.func @negative_too_many_warps(%a: tensor<1024x64xi8>, %as: tensor<1024x1xf32>,
    %b: tensor<64x64xi8>, %bs: tensor<64x1xf32>, %acc: tensor<1024x64xf32>) -> tensor<1024x64xf32> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: its 1024 rows need 64 warps of 16 rows: expected 1 to 32 warps (a CTA's), got 64}}
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = i32,
      mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                      b = i8, b_source = registers, acc = i32, scales = none>}
    : tensor<1024x64xi8>, tensor<1024x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<1024x64xf32>
  return %s : tensor<1024x64xf32>
}

// -----

// A wgmma's warps each hold 16 of its 64 rows as m16n8 accumulator tiles:
// the encoding names the warp MMA of the same formats, a warp each 16 rows.
//       CHECK: #[[WARPS:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>, warps = 8>
// CHECK-LABEL: func @warpgroup
//       CHECK:   sage.qmma {{.*}}mma = #sage.mma<scope = warpgroup{{.*}} -> tensor<128x64xf32, #[[WARPS]]>
func.func @warpgroup(%a: tensor<128x64xi8>, %as: tensor<128x1xf32>,
    %b: tensor<64x64xi8>, %bs: tensor<64x1xf32>, %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = i32,
      mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                      b = i8, b_source = shared, acc = i32, scales = none>}
    : tensor<128x64xi8>, tensor<128x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

func.func @negative_tcgen05(%a: tensor<128x64xi8>, %as: tensor<128x1xf32>,
    %b: tensor<64x64xi8>, %bs: tensor<64x1xf32>, %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed yet: its accumulator lives in tensor memory (scope tcgen05), not in the lanes}}
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = i32,
      mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared,
                      b = i8, b_source = shared, acc = i32, scales = none>}
    : tensor<128x64xi8>, tensor<128x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

// Q K^T's scores and P V's product are held alike by m16n8 MMAs, but the
// encodings name the MMA: adding them is refused, not guessed.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @negative_two_ways(%q: tensor<64x64xi8>, %qs: tensor<64x1xf32>, %k: tensor<64x64xi8>,
    %ks: tensor<64x1xf32>, %p: tensor<64x64xf8E4M3FN>, %vt: tensor<64x64xf8E4M3FN>,
    %one: tensor<1x1xf32>, %zs: tensor<64x64xf32>, %zo: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %zs {accumulator = i32, mma = #qk}
    : tensor<64x64xi8>, tensor<64x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<64x64xf32>
  %o = sage.qmma %p scaled %one, %vt scaled %one, %zo {accumulator = f32, mma = #pv}
    : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-error@+1 {{'linalg.generic' op cannot distribute a tile held two ways: #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN}}
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %o : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %unused: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<64x64xf32>
  return %sum : tensor<64x64xf32>
}

// -----

// A linalg.transpose between Q K^T and the softmax is not distributed:
// the scores lose their encoding while the rows the output buffer
// rescales keep theirs.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_broken_chain(%q: tensor<64x64xi8>, %qs: tensor<64x1xf32>, %k: tensor<64x64xi8>,
    %ks: tensor<64x1xf32>, %vt: tensor<64x64xf8E4M3FN>,
    %one: tensor<1x1xf32>, %zs: tensor<64x64xf32>, %o: tensor<64x64xf32>,
    %m: tensor<64xf32>, %l: tensor<64xf32>) -> tensor<64x64xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %zs {accumulator = i32, mma = #qk}
    : tensor<64x64xi8>, tensor<64x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %st = linalg.transpose ins(%s : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  // expected-error@+1 {{'sage.online_softmax' op cannot be distributed: its scores are not held as MMA accumulators; they come through 'linalg.transpose', which the distribute level does not take yet}}
  %p, %m1, %l1, %alpha = sage.online_softmax %st, %m, %l : tensor<64x64xf32>, tensor<64xf32>
  %pq, %ps = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
    : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %pv = sage.qmma %pq scaled %one, %vt scaled %one, %o {accumulator = f32, mma = #pv}
    : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32>
  %o1 = sage.accumulate %pv into %o rescale %alpha {scheme = #sage.accum<f32>}
    : tensor<64x64xf32>, tensor<64xf32> -> tensor<64x64xf32>
  return %o1 : tensor<64x64xf32>
}

// -----

func.func @negative_batched(%a: tensor<2x64x64xi8>, %as: tensor<2x64x1xf32>,
    %b: tensor<2x64x64xi8>, %bs: tensor<2x64x1xf32>, %acc: tensor<2x64x64xf32>) -> tensor<2x64x64xf32> {
  // expected-error@+1 {{'sage.qmma' op cannot be distributed: expected a [rows, columns] tile, got rank 3}}
  %s = sage.qmma %a scaled %as, %b scaled %bs, %acc {accumulator = i32,
      mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>}
    : tensor<2x64x64xi8>, tensor<2x64x1xf32>, tensor<2x64x64xi8>, tensor<2x64x1xf32> -> tensor<2x64x64xf32>
  return %s : tensor<2x64x64xf32>
}

// -----

// Q smoothing's dS (one value a key, (d1)) and an additive mask window
// (read in place, from a tensor.pad that keeps its type): the generic is
// distributed; the window is read through a cast that adds the encoding,
// dS stays CTA-wide. The output buffer's zero comes from an argument, also
// through a cast.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
//   CHECK-DAG: #[[QK:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}>, warps = 4>
// CHECK-LABEL: func @broadcasts
//  CHECK-SAME: %[[DS:[^:]*]]: tensor<64xf32>, %[[MASK:[^:]*]]: tensor<64x64xf16>, %[[Z:[^:]*]]: tensor<64x64xf32>)
//   CHECK-DAG:   %[[Z_HELD:.*]] = tensor.cast %[[Z]] : tensor<64x64xf32> to tensor<64x64xf32, #[[QK]]>
//   CHECK-DAG:   %[[MASK_HELD:.*]] = tensor.cast %[[MASK]] : tensor<64x64xf16> to tensor<64x64xf16, #[[QK]]>
//       CHECK:   %[[S:.*]] = sage.qmma {{.*}}, %[[Z_HELD]] {{.*}} -> tensor<64x64xf32, #[[QK]]>
//       CHECK:   linalg.generic {{.*}} ins(%[[S]], %[[DS]], %[[MASK_HELD]] : tensor<64x64xf32, #[[QK]]>, tensor<64xf32>, tensor<64x64xf16, #[[QK]]>) outs(%{{.*}} : tensor<64x64xf32, #[[QK]]>)
func.func @broadcasts(%q: tensor<64x64xi8>, %qs: tensor<64x1xf32>, %k: tensor<64x64xi8>,
    %ks: tensor<64x1xf32>, %ds: tensor<64xf32>, %mask: tensor<64x64xf16>, %z: tensor<64x64xf32>)
    -> tensor<64x64xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %z {accumulator = i32, mma = #qk}
    : tensor<64x64xi8>, tensor<64x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %ds, %mask : tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf16>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %d: f32, %b: f16, %unused: f32):
    %y = arith.addf %x, %d : f32
    %w = arith.extf %b : f16 to f32
    %z2 = arith.addf %y, %w : f32
    linalg.yield %z2 : f32
  } -> tensor<64x64xf32>
  return %biased : tensor<64x64xf32>
}

// -----

// P's scale (#sage.replicated) used as the scale of P V: the qmma reads its
// scales from CTA-wide tiles, so it gets them through a cast that drops the
// encoding. An accumulator from an argument enters through a cast that
// adds it (the pass loads the tensor dialect for these casts).
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
// CHECK-LABEL: func @scales_of_p
//  CHECK-SAME: %[[S0:[^:]*]]: tensor<16x32xf32>, %[[O0:[^:]*]]: tensor<16x8xf32>)
//       CHECK:   %[[PQ:.*]], %[[PS:.*]] = sage.quantize {{.*}} -> tensor<16x32xf8E4M3FN, #{{.*}}>, tensor<1x1xf32, #sage.replicated>
//       CHECK:   %[[PS_TILE:.*]] = tensor.cast %[[PS]] : tensor<1x1xf32, #sage.replicated> to tensor<1x1xf32>
//       CHECK:   sage.qmma %[[PQ]] scaled %[[PS_TILE]]
func.func @scales_of_p(%q: tensor<16x32xi8>, %qs: tensor<1x1xf32>, %k: tensor<32x32xi8>,
    %ks: tensor<1x1xf32>, %vt: tensor<8x32xf8E4M3FN>, %one: tensor<1x1xf32>,
    %s0: tensor<16x32xf32>, %o0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %s0 {accumulator = i32, mma = #qk}
    : tensor<16x32xi8>, tensor<1x1xf32>, tensor<32x32xi8>, tensor<1x1xf32> -> tensor<16x32xf32>
  %pq, %ps = sage.quantize %s {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
      : tensor<16x32xf32> -> tensor<16x32xf8E4M3FN>, tensor<1x1xf32>
  %pv = sage.qmma %pq scaled %ps, %vt scaled %one, %o0 {accumulator = f32, mma = #pv}
    : tensor<16x32xf8E4M3FN>, tensor<1x1xf32>, tensor<8x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<16x8xf32>
  return %pv : tensor<16x8xf32>
}
