// RUN: sage-opt %s --sage-tile-attention -split-input-file -verify-diagnostics | FileCheck %s

// The default recipe (Q and K smoothed, per-thread INT8, E4M3 P and V),
// causal, GQA (4 query heads over 2 K/V heads), lengths that are not
// multiples of the 64-token tiles.
//   CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
//   CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
//   CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
//   CHECK-DAG: #[[FIRST_ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @default_recipe
//  CHECK-SAME: (%[[QV:[^:]*]]: tensor<1x4x100x64xi8>, %[[QS:[^:]*]]: tensor<1x4x64x1xf32>, %[[KV:[^:]*]]: tensor<1x2x70x64xi8>, %[[KS:[^:]*]]: tensor<1x2x8x1xf32>, %[[VV:[^:]*]]: tensor<1x2x70x64xf8E4M3FN>, %[[VS:[^:]*]]: tensor<1x2x1x64xf32>, %[[QM:[^:]*]]: tensor<1x4x2x64xf32>, %[[K:[^:]*]]: tensor<1x2x70x64xf16>
//   CHECK-DAG: %[[PR:.*]] = arith.constant 4.480000e+02 : f32
// The scores in log2 units: scale * log2 e = 0.125 * 1.4427.
//   CHECK-DAG: %[[SCALE:.*]] = arith.constant dense<0.180336878> : vector<1xf32>
//   CHECK-DAG: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
//   CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//   CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG: %[[NK_MINUS_NQ:.*]] = arith.constant -30 : index
//   CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
//   CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
//   CHECK-DAG: %[[ZERO_I8:.*]] = arith.constant 0 : i8
//   CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
//   CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
//   CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
//   CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
//   CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
//   CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
//       CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x4x100x64xf16>
//       CHECK: %[[GRID:.*]] = scf.forall (%[[B:.*]], %[[H:.*]], %[[I:.*]]) in (%[[C1]], %[[C4]], %[[C2]]) shared_outs(%[[OUT:.*]] = %[[EMPTY]])
//       CHECK:   %[[HKV:.*]] = arith.divui %[[H]], %[[C2]] : index
//       CHECK:   %[[Q0:.*]] = arith.muli %[[I]], %[[C64]] : index
//       CHECK:   %[[QLEFT:.*]] = arith.subi %[[C100]], %[[Q0]] : index
//       CHECK:   %[[QROWS:.*]] = arith.minsi %[[QLEFT]], %[[C64]] : index
//       CHECK:   %[[QSLICE:.*]] = tensor.extract_slice %[[QV]][%[[B]], %[[H]], %[[Q0]], 0] [1, 1, %[[QROWS]], 64] [1, 1, 1, 1] : tensor<1x4x100x64xi8> to tensor<?x64xi8>
//       CHECK:   %[[QPAD:.*]] = arith.subi %[[C64]], %[[QROWS]] : index
//       CHECK:   %[[QTILE:.*]] = tensor.pad %[[QSLICE]] low[0, 0] high[%[[QPAD]], 0]
//       CHECK:     tensor.yield %[[ZERO_I8]] : i8
//       CHECK:   } : tensor<?x64xi8> to tensor<64x64xi8>
//       CHECK:   %[[QGROUP:.*]] = arith.muli %[[I]], %[[C32]] : index
//       CHECK:   %[[QSTILE:.*]] = tensor.extract_slice %[[QS]][%[[B]], %[[H]], %[[QGROUP]], 0] [1, 1, 32, 1] [1, 1, 1, 1] : tensor<1x4x64x1xf32> to tensor<32x1xf32>
//       CHECK:   %[[QMSLICE:.*]] = tensor.extract_slice %[[QM]][%[[B]], %[[H]], %[[I]], 0] [1, 1, 1, 64]
//       CHECK:   %[[QBAR:.*]] = tensor.collapse_shape %[[QMSLICE]] {{\[\[}}0, 1]] : tensor<1x64xf32> into tensor<64xf32>
// Causal: the loop ends at the last K/V block the Q block sees,
// ceil(clamp(64 i + 64 + Nk - Nq, 0, Nk) / 64).
//       CHECK:   %[[END_ROW:.*]] = arith.addi %[[Q0]], %[[C64]] : index
//       CHECK:   %[[LAST_KEY:.*]] = arith.addi %[[END_ROW]], %[[NK_MINUS_NQ]] : index
//       CHECK:   %[[CLAMPED:.*]] = arith.maxsi %[[LAST_KEY]], %[[C0]] : index
//       CHECK:   %[[VISIBLE:.*]] = arith.minsi %[[CLAMPED]], %[[C70]] : index
//       CHECK:   %[[KEND:.*]] = arith.ceildivui %[[VISIBLE]], %[[C64]] : index
//       CHECK:   %[[O_INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<64x64xf32>)
//       CHECK:   %[[M_INIT:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<64xf32>)
//       CHECK:   %[[L_INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<64xf32>)
//       CHECK:   %[[LOOP:.*]]:3 = scf.for %[[J:.*]] = %[[C0]] to %[[KEND]] step %[[C1]] iter_args(%[[O:.*]] = %[[O_INIT]], %[[M:.*]] = %[[M_INIT]], %[[L:.*]] = %[[L_INIT]]) -> (tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>)
//       CHECK:     %[[K0:.*]] = arith.muli %[[J]], %[[C64]] : index
//       CHECK:     tensor.extract_slice %[[KV]][%[[B]], %[[HKV]], %[[K0]], 0]
//       CHECK:     %[[KTILE:.*]] = tensor.pad
//       CHECK:     } : tensor<?x64xi8> to tensor<64x64xi8>
//       CHECK:     %[[KGROUP:.*]] = arith.muli %[[J]], %[[C4]] : index
//       CHECK:     %[[KSTILE:.*]] = tensor.extract_slice %[[KS]][%[[B]], %[[HKV]], %[[KGROUP]], 0] [1, 1, 4, 1] {{.*}} to tensor<4x1xf32>
// dS is the product's initial value: one FMA a score after distribution.
//       CHECK:     tensor.extract_slice %[[K]][%[[B]], %[[HKV]], %[[K0]], 0]
//       CHECK:     %[[RAWK:.*]] = tensor.pad
//       CHECK:     %[[DS:.*]] = linalg.matvec ins(%[[RAWK]], %[[QBAR]] : tensor<64x64xf16>, tensor<64xf32>)
//       CHECK:     %[[DS_ROWS:.*]] = linalg.generic {indexing_maps = [#[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[DS]] : tensor<64xf32>)
//       CHECK:     %[[S:.*]] = sage.qmma %[[QTILE]] scaled %[[QSTILE]], %[[KTILE]] scaled %[[KSTILE]], %[[DS_ROWS]] {a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, accumulator = i32, b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<64x64xi8>, tensor<32x1xf32>, tensor<64x64xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
// The mask on the unscaled scores; the softmax scales them (scale * log2
// e as its score_scale: one fma a score with the max's subtraction).
//   CHECK-NOT:     arith.mulf
//       CHECK:     %[[MASKED:.*]] = sage.mask_scores %[[S]] at [%[[Q0]], %[[K0]]] of [%[[C100]], %[[C70]]] {causal} : tensor<64x64xf32>
// Base 2, P_r folded into the exponent: P comes out as P_r P~, in the
// range the quantizer takes as is.
//       CHECK:     %[[P:.*]], %[[M1:.*]], %[[L1:.*]], %[[ALPHA:.*]] = sage.online_softmax %[[MASKED]], %[[M]], %[[L]] scaled %[[SCALE]] : vector<1xf32> {base2, prob_scale = 4.480000e+02 : f64} : tensor<64x64xf32>, tensor<64xf32>
//       CHECK:     %[[PV:.*]], %{{.*}} = sage.quantize %[[P]] {bound = 4.480000e+02 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>} : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
//       CHECK:     tensor.extract_slice %[[VV]][%[[B]], %[[HKV]], %[[K0]], 0]
//       CHECK:     %[[VTILE:.*]] = tensor.pad
//       CHECK:     %[[VCOLS:.*]] = linalg.transpose ins(%[[VTILE]] : tensor<64x64xf8E4M3FN>) outs(%{{.*}} : tensor<64x64xf8E4M3FN>) permutation = [1, 0]
//       CHECK:     %[[R:.*]] = sage.qmma %[[PV]] scaled %[[ONE]], %[[VCOLS]] scaled %[[ONE]], %{{.*}} {accumulator = f32} : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32>
//       CHECK:     %[[O1:.*]] = sage.accumulate %[[R]] into %[[O]] rescale %[[ALPHA]] {scheme = #sage.accum<f32>}
//       CHECK:     scf.yield %[[O1]], %[[M1]], %[[L1]]
// Epilogue: O / l * delta_V / P_r, 0 where l = 0.
//       CHECK:   %[[VSTILE:.*]] = tensor.extract_slice %[[VS]][%[[B]], %[[HKV]], 0, 0] [1, 1, 1, 64] {{.*}} to tensor<1x64xf32>
//       CHECK:   %[[NORM:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[FIRST_ROW]], #[[ID]]], {{.*}}} ins(%[[LOOP]]#0, %[[LOOP]]#2, %[[VSTILE]] : tensor<64x64xf32>, tensor<64xf32>, tensor<1x64xf32>)
//       CHECK:   ^bb0(%[[O_IN:.*]]: f32, %[[L_IN:.*]]: f32, %[[DV_IN:.*]]: f32, %{{.*}}: f16):
//       CHECK:     %[[RATIO:.*]] = arith.divf %[[O_IN]], %[[L_IN]] : f32
//       CHECK:     %[[DELTA:.*]] = arith.divf %[[DV_IN]], %[[PR]] : f32
//       CHECK:     %[[VAL:.*]] = arith.mulf %[[RATIO]], %[[DELTA]] : f32
//       CHECK:     %[[EMPTY_ROW:.*]] = arith.cmpf oeq, %[[L_IN]], %[[ZERO]] : f32
//       CHECK:     %[[SEL:.*]] = arith.select %[[EMPTY_ROW]], %[[ZERO]], %[[VAL]] : f32
//       CHECK:     %[[HALF:.*]] = arith.truncf %[[SEL]] : f32 to f16
//       CHECK:     linalg.yield %[[HALF]]
//       CHECK:   %[[ROWS:.*]] = tensor.extract_slice %[[NORM]][0, 0] [%[[QROWS]], 64] [1, 1] : tensor<64x64xf16> to tensor<?x64xf16>
//       CHECK:   scf.forall.in_parallel
//       CHECK:     tensor.parallel_insert_slice %[[ROWS]] into %[[OUT]][%[[B]], %[[H]], %[[Q0]], 0] [1, 1, %[[QROWS]], 64] [1, 1, 1, 1]
//       CHECK: } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
//       CHECK: return %[[GRID]]
func.func @default_recipe(%qv: tensor<1x4x100x64xi8>, %qs: tensor<1x4x64x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x8x1xf32>,
    %vv: tensor<1x2x70x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>,
    %qm: tensor<1x4x2x64xf32>, %k: tensor<1x2x70x64xf16>, %km: tensor<1x2x1x64xf32>)
    -> tensor<1x4x100x64xf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs)
      q_smooth(%qm, %k) k_smooth(%km) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64, causal}
    : (tensor<1x4x100x64xi8>, tensor<1x4x64x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x8x1xf32>,
       tensor<1x2x70x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x4x2x64xf32>,
       tensor<1x2x70x64xf16>, tensor<1x2x1x64xf32>) -> tensor<1x4x100x64xf16>
  return %o : tensor<1x4x100x64xf16>
}

// -----

// The same aligned top-left: row r sees keys <= r, so the loop ends at
// ceil(clamp(64 i + 64, 0, Nk) / 64), with no Nk - Nq shift, and the
// masking op keeps the alignment.
// CHECK-LABEL: func @top_left_causal
//   CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
//   CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
//       CHECK: scf.forall (%{{.*}}, %{{.*}}, %[[I:.*]]) in
//       CHECK:   %[[Q0:.*]] = arith.muli %[[I]], %[[C64]] : index
//       CHECK:   %[[END_ROW:.*]] = arith.addi %[[Q0]], %[[C64]] : index
//   CHECK-NOT:   arith.addi %[[END_ROW]]
//       CHECK:   %[[CLAMPED:.*]] = arith.maxsi %[[END_ROW]], %[[C0]] : index
//       CHECK:   %[[VISIBLE:.*]] = arith.minsi %[[CLAMPED]], %[[C70]] : index
//       CHECK:   %[[KEND:.*]] = arith.ceildivui %[[VISIBLE]], %[[C64]] : index
//       CHECK:   scf.for %{{.*}} = %[[C0]] to %[[KEND]]
//       CHECK:     sage.mask_scores %{{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>} : tensor<64x64xf32>
func.func @top_left_causal(%qv: tensor<1x4x100x64xi8>, %qs: tensor<1x4x64x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x8x1xf32>,
    %vv: tensor<1x2x70x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>,
    %qm: tensor<1x4x2x64xf32>, %k: tensor<1x2x70x64xf16>, %km: tensor<1x2x1x64xf32>)
    -> tensor<1x4x100x64xf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs)
      q_smooth(%qm, %k) k_smooth(%km) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64, causal,
        causal_alignment = #sage.causal_alignment<top_left>}
    : (tensor<1x4x100x64xi8>, tensor<1x4x64x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x8x1xf32>,
       tensor<1x2x70x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x4x2x64xf32>,
       tensor<1x2x70x64xf16>, tensor<1x2x1x64xf32>) -> tensor<1x4x100x64xf16>
  return %o : tensor<1x4x100x64xf16>
}

// -----

// Dynamic batch and lengths, per-warp Q/K scales (partial groups at the
// tail are padded), V smoothed, the f16 accumulator of SageAttention2++;
// not causal, so every K/V block is visited and no dS is added.
// CHECK-LABEL: func @dynamic_per_warp_f16acc
//  CHECK-SAME: %[[QS:[^:]*]]: tensor<?x8x?x1xf32>
//  CHECK-SAME: %[[KS:[^:]*]]: tensor<?x8x?x1xf32>
//  CHECK-SAME: %[[VS:[^:]*]]: tensor<?x8x1x128xf32>, %[[VM:[^:]*]]: tensor<?x8x1x128xf32>)
//   CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
//       CHECK: %[[BATCH:.*]] = tensor.dim %{{.*}}, %[[C0]] : tensor<?x8x?x128xi8>
//       CHECK: %[[NQ:.*]] = tensor.dim %{{.*}}, %[[C2]] : tensor<?x8x?x128xi8>
//       CHECK: %[[NK:.*]] = tensor.dim %{{.*}}, %[[C2]] : tensor<?x8x?x128xi8>
//       CHECK: %[[KBLOCKS:.*]] = arith.ceildivui %[[NK]], %{{.*}} : index
//       CHECK: %[[EMPTY:.*]] = tensor.empty(%[[BATCH]], %[[NQ]]) : tensor<?x8x?x128xbf16>
//       CHECK: scf.forall
//       CHECK:   %[[QSDIM:.*]] = tensor.dim %[[QS]], %[[C2]]
//       CHECK:   %[[QSCOUNT:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
//       CHECK:   tensor.extract_slice %[[QS]][{{.*}}] [1, 1, %[[QSCOUNT]], 1] {{.*}} to tensor<?x1xf32>
//       CHECK:   tensor.pad
//       CHECK:   } : tensor<?x1xf32> to tensor<4x1xf32>
//   CHECK-NOT:   arith.ceildivui
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %[[KBLOCKS]] step
//       CHECK:     } : tensor<?x1xf32> to tensor<8x1xf32>
//       CHECK:     sage.qmma {{.*}} {a_quant = #sage.quant<i8, per_warp, warp = 16>, accumulator = i32, b_quant = #sage.quant<i8, per_warp, warp = 8>} : tensor<64x128xi8>, tensor<4x1xf32>, tensor<64x128xi8>, tensor<8x1xf32> -> tensor<64x64xf32>
//   CHECK-NOT:     linalg.matvec
//       CHECK:     sage.mask_scores %{{.*}} at [%{{.*}}, %{{.*}}] of [%[[NQ]], %[[NK]]] : tensor<64x64xf32>
//       CHECK:     sage.online_softmax {{.*}} {base2, prob_scale = 2.240000e+02 : f64}
//       CHECK:     sage.quantize %{{.*}} {bound = 2.240000e+02 : f64, quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>}
//       CHECK:     %[[R:.*]] = sage.qmma {{.*}} {accumulator = f16} : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x128xf16>
//       CHECK:     sage.accumulate %[[R]] into %{{.*}} rescale %{{.*}} {scheme = #sage.accum<f16, every = 2>} : tensor<64x128xf16>, tensor<64xf32> -> tensor<64x128xf32>
//       CHECK:   %[[VSTILE:.*]] = tensor.extract_slice %[[VS]][%{{.*}}, %{{.*}}, 0, 0] [1, 1, 1, 128]
//       CHECK:   %[[VMTILE:.*]] = tensor.extract_slice %[[VM]][%{{.*}}, %{{.*}}, 0, 0] [1, 1, 1, 128]
//       CHECK:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[VSTILE]], %[[VMTILE]] : tensor<64x128xf32>, tensor<64xf32>, tensor<1x128xf32>, tensor<1x128xf32>)
//       CHECK:   ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[MEAN_IN:.*]]: f32, %{{.*}}: bf16):
//       CHECK:     %[[SCALED:.*]] = arith.mulf
//       CHECK:     arith.addf %[[SCALED]], %[[MEAN_IN]] : f32
//       CHECK:     arith.truncf %{{.*}} : f32 to bf16
func.func @dynamic_per_warp_f16acc(%qv: tensor<?x8x?x128xi8>, %qs: tensor<?x8x?x1xf32>,
    %kv: tensor<?x8x?x128xi8>, %ks: tensor<?x8x?x1xf32>,
    %vv: tensor<?x8x?x128xf8E4M3FN>, %vs: tensor<?x8x1x128xf32>,
    %vm: tensor<?x8x1x128xf32>) -> tensor<?x8x?x128xbf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) v_smooth(%vm) {
        q_quant = #sage.quant<i8, per_warp, warp = 16>,
        k_quant = #sage.quant<i8, per_warp, warp = 8>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
        v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>,
        pv_accum = #sage.accum<f16, every = 2>, scale = 0.088 : f64}
    : (tensor<?x8x?x128xi8>, tensor<?x8x?x1xf32>, tensor<?x8x?x128xi8>, tensor<?x8x?x1xf32>,
       tensor<?x8x?x128xf8E4M3FN>, tensor<?x8x1x128xf32>, tensor<?x8x1x128xf32>) -> tensor<?x8x?x128xbf16>
  return %o : tensor<?x8x?x128xbf16>
}

// -----

// The op is rewritten in place: the rest of the function stays.
// CHECK-LABEL: func @among_other_ops
//       CHECK: %[[SUM:.*]] = arith.addf
//       CHECK: %[[GRID:.*]] = scf.forall
//   CHECK-NOT: sage.quantized_attention
//       CHECK: return %[[SUM]], %[[GRID]]
func.func @among_other_ops(%x: f32, %qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x32x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x4x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> (f32, tensor<1x1x64x64xf32>) {
  %sum = arith.addf %x, %x : f32
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x4x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %sum, %o : f32, tensor<1x1x64x64xf32>
}

// -----

func.func @negative_dynamic_features(%qv: tensor<1x1x64x?xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x?xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: tiles need static feature dimensions}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x?xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x?xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// With block-k 0 (the default) the K/V block is the tokens of K's groups:
// 128 here.
// CHECK-LABEL: func @key_groups_block
//       CHECK:   sage.qmma {{.*}} -> tensor<64x128xf32>
func.func @key_groups_block(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x32x1xf32>,
    %kv: tensor<1x1x128x64xi8>, %ks: tensor<1x1x4x1xf32>,
    %vv: tensor<1x1x128x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 128>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x128x64xi8>, tensor<1x1x4x1xf32>,
       tensor<1x1x128x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_key_groups_block(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x32x1xf32>,
    %kv: tensor<1x1x96x64xi8>, %ks: tensor<1x1x8x1xf32>,
    %vv: tensor<1x1x96x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: block-k = 48 (the K block of K's scales) is not a multiple of 32, the K of the FP8 P V MMA}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 48>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x32x1xf32>, tensor<1x1x96x64xi8>, tensor<1x1x8x1xf32>,
       tensor<1x1x96x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// An f16 accumulator flushed every MMA of 32 keys: a K/V block of 64 keys
// is two flushes, each a qmma of its keys' columns of P and V^T into a
// zero f16 tile, the first accumulated with the softmax's rescale, the
// second with ones.
// CHECK-LABEL: func @f16_flushes
//       CHECK:   %[[P:.*]], %{{.*}} = sage.quantize %{{.*}} -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
//       CHECK:   %[[VT:.*]] = linalg.transpose
//       CHECK:   %[[P0:.*]] = tensor.extract_slice %[[P]][0, 0] [64, 32] [1, 1]
//       CHECK:   %[[V0:.*]] = tensor.extract_slice %[[VT]][0, 0] [64, 32] [1, 1]
//       CHECK:   %[[R0:.*]] = sage.qmma %[[P0]] scaled %{{.*}}, %[[V0]] scaled {{.*}} -> tensor<64x64xf16>
//       CHECK:   %[[O0:.*]] = sage.accumulate %[[R0]] into %{{.*}} rescale %[[ALPHA:[^ ]*]] {scheme = #sage.accum<f16, every = 1>}
//       CHECK:   %[[P1:.*]] = tensor.extract_slice %[[P]][0, 32] [64, 32] [1, 1]
//       CHECK:   %[[V1:.*]] = tensor.extract_slice %[[VT]][0, 32] [64, 32] [1, 1]
//       CHECK:   %[[R1:.*]] = sage.qmma %[[P1]] scaled %{{.*}}, %[[V1]] scaled {{.*}} -> tensor<64x64xf16>
//       CHECK:   %[[ONES:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64xf32>)
//       CHECK:   %[[O1:.*]] = sage.accumulate %[[R1]] into %[[O0]] rescale %[[ONES]]
//       CHECK:   scf.yield %[[O1]]
func.func @f16_flushes(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
        v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>,
        pv_accum = #sage.accum<f16, every = 1>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_f16_flush(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: an f16 accumulator flushed every 3 MMAs of 32 keys needs block-k a multiple of 96, got 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
        v_quant = #sage.quant<f8E4M3FN, per_channel, range = 2.0>,
        pv_accum = #sage.accum<f16, every = 3>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// V stored in MMA order ([B, H, D, groups, 32]): its tile is a gather the
// promote level stages whole, not in slices, so one flush a block.
func.func @negative_stored_values_flushes(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x2x32xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: V stored in MMA order is read one f16 flush (32 keys) at a time only with block-k = 32, got 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
        v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>,
        v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>,
        pv_accum = #sage.accum<f16, every = 1>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x2x32xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_per_warp_groups(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x2x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: Q groups of 48 tokens (warp) do not tile block-q = 64}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_warp, warp = 48>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x2x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_per_channel_keys(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x64xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: K scales per_channel are not tiled yet}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_channel>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x64xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

func.func @negative_int8_probabilities(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: P in i8 is not tiled yet; the tile level implements f8E4M3FN and f16 P}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<i8, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}

// -----

// Masks: an i1 keep-mask broadcast over heads ([B, 1, Nq, Nk]) and an
// additive f16 mask per head. The window of the Q block's rows and the
// K/V block's keys is read (the heads index 0 where it broadcasts),
// padded to the tile, and applied to the scaled scores before
// sage.mask_scores: -inf where the i1 mask drops a key, the f16 value
// widened, brought to log2 units (times log2 e) and added otherwise.
// CHECK-LABEL: func @masks
//  CHECK-SAME: %[[KEEP:[^:]*]]: tensor<2x1x100x70xi1>, %[[BIAS:[^:]*]]: tensor<2x4x100x70xf16>)
//   CHECK-DAG: %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
//   CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
//       CHECK: scf.forall (%[[B:.*]], %[[H:.*]], %[[I:.*]]) in
//       CHECK:   scf.for
//       CHECK:     %[[KWIN:.*]] = tensor.extract_slice %[[KEEP]][%[[B]], %[[C0]], %[[Q0:.*]], %[[K0:.*]]] [1, 1, %[[QN:.*]], %[[KN:.*]]] [1, 1, 1, 1] : tensor<2x1x100x70xi1> to tensor<?x?xi1>
//       CHECK:     %[[KTILE:.*]] = tensor.pad %[[KWIN]]
//       CHECK:     } : tensor<?x?xi1> to tensor<64x64xi1>
//       CHECK:     %[[KEPT:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KTILE]] : tensor<64x64xf32>, tensor<64x64xi1>)
//       CHECK:       arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
//       CHECK:     sage.mask_scores %[[KEPT]] at [%[[Q0]], %[[K0]]] of [%{{.*}}, %{{.*}}] : tensor<64x64xf32>
//       CHECK:   scf.for
//       CHECK:     %[[BWIN:.*]] = tensor.extract_slice %[[BIAS]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] [1, 1, %{{.*}}, %{{.*}}] [1, 1, 1, 1] : tensor<2x4x100x70xf16> to tensor<?x?xf16>
//       CHECK:     %[[BTILE:.*]] = tensor.pad %[[BWIN]]
//       CHECK:     %[[BIASED:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[BTILE]] : tensor<64x64xf32>, tensor<64x64xf16>)
//       CHECK:       %[[WIDE:.*]] = arith.extf %{{.*}} : f16 to f32
//       CHECK:       %[[BIAS2:.*]] = arith.mulf %[[WIDE]], %[[LOG2E]] : f32
//       CHECK:       arith.addf %{{.*}}, %[[BIAS2]] : f32
//       CHECK:     sage.mask_scores %[[BIASED]]
func.func @masks(%qv: tensor<2x4x100x64xi8>, %qs: tensor<2x4x64x1xf32>,
    %kv: tensor<2x4x70x64xi8>, %ks: tensor<2x4x8x1xf32>,
    %vv: tensor<2x4x70x64xf8E4M3FN>, %vs: tensor<2x4x1x64xf32>,
    %keep: tensor<2x1x100x70xi1>, %bias: tensor<2x4x100x70xf16>)
    -> (tensor<2x4x100x64xf16>, tensor<2x4x100x64xf16>) {
  %o1 = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) mask(%keep) {
      q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<2x4x100x64xi8>, tensor<2x4x64x1xf32>, tensor<2x4x70x64xi8>, tensor<2x4x8x1xf32>,
       tensor<2x4x70x64xf8E4M3FN>, tensor<2x4x1x64xf32>, tensor<2x1x100x70xi1>) -> tensor<2x4x100x64xf16>
  %o2 = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) mask(%bias) {
      q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<2x4x100x64xi8>, tensor<2x4x64x1xf32>, tensor<2x4x70x64xi8>, tensor<2x4x8x1xf32>,
       tensor<2x4x70x64xf8E4M3FN>, tensor<2x4x1x64xf32>, tensor<2x4x100x70xf16>) -> tensor<2x4x100x64xf16>
  return %o1, %o2 : tensor<2x4x100x64xf16>, tensor<2x4x100x64xf16>
}

// -----

// The LSE: each row's m ln 2 + ln l from the loop (m in log2 units), -inf
// for a row that saw no key, plus the shift K smoothing leaves in its
// scores, scale * (q - qbar) . mean K, from the unquantized query, as
// two products of windows (q . mean K a row, qbar . mean K once); the Q
// block's rows are inserted into the [B, H, Nq] result beside the
// output's.
// CHECK-LABEL: func @lse
//  CHECK-SAME: %[[QM:[^:]*]]: tensor<1x4x2x64xf32>, %[[K:[^:]*]]: tensor<1x2x70x64xf16>, %[[KM:[^:]*]]: tensor<1x2x1x64xf32>, %[[Q:[^:]*]]: tensor<1x4x100x64xf16>)
//   CHECK-DAG: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
//   CHECK-DAG: %[[LN2:.*]] = arith.constant 0.693147182 : f32
//   CHECK-DAG: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
//       CHECK: %[[O_EMPTY:.*]] = tensor.empty() : tensor<1x4x100x64xf16>
//       CHECK: %[[LSE_EMPTY:.*]] = tensor.empty() : tensor<1x4x100xf32>
//       CHECK: %[[GRID:.*]]:2 = scf.forall (%[[B:.*]], %[[H:.*]], %[[I:.*]]) in ({{.*}}) shared_outs(%[[O_OUT:.*]] = %[[O_EMPTY]], %[[LSE_OUT:.*]] = %[[LSE_EMPTY]])
//       CHECK:   %[[LOOP:.*]]:3 = scf.for
//       CHECK:   tensor.extract_slice %[[Q]][%[[B]], %[[H]], %[[Q0:.*]], 0]
//       CHECK:   %[[QW:.*]] = tensor.pad
//       CHECK:   tensor.extract_slice %[[KM]][%[[B]], %[[HKV:.*]], 0, 0] [1, 1, 1, 64]
//       CHECK:   %[[MEAN_K:.*]] = tensor.collapse_shape
//       CHECK:   %[[SHIFT:.*]] = linalg.matvec ins(%[[QW]], %[[MEAN_K]] : tensor<64x64xf16>, tensor<64xf32>)
//       CHECK:   %[[MEAN_SHIFT:.*]] = linalg.matvec ins(%{{.*}}, %[[MEAN_K]] : tensor<1x64xf32>, tensor<64xf32>) outs(%{{.*}} : tensor<1xf32>)
//       CHECK:   %[[ROWS:.*]] = linalg.generic {{.*}} ins(%[[LOOP]]#1, %[[LOOP]]#2, %[[SHIFT]], %[[MEAN_SHIFT]] : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<1xf32>)
//       CHECK:   ^bb0(%[[M:.*]]: f32, %[[L:.*]]: f32, %[[S:.*]]: f32, %[[S0:.*]]: f32, %{{.*}}: f32):
// m is in log2 units: m ln 2 + ln l.
//       CHECK:     %[[LOG:.*]] = math.log %[[L]] : f32
//       CHECK:     %[[M_NAT:.*]] = arith.mulf %[[M]], %[[LN2]] : f32
//       CHECK:     %[[MLOG:.*]] = arith.addf %[[M_NAT]], %[[LOG]] : f32
//       CHECK:     %[[CENTERED:.*]] = arith.subf %[[S]], %[[S0]] : f32
//       CHECK:     %[[SCALED:.*]] = arith.mulf %[[CENTERED]], %[[SCALE]] : f32
//       CHECK:     %[[SUM:.*]] = arith.addf %[[MLOG]], %[[SCALED]] : f32
//       CHECK:     %[[EMPTY_ROW:.*]] = arith.cmpf oeq, %[[L]]
//       CHECK:     arith.select %[[EMPTY_ROW]], %[[NEG_INF]], %[[SUM]] : f32
//       CHECK:   %[[LSE_ROWS:.*]] = tensor.extract_slice %[[ROWS]][0] [%[[COUNT:.*]]] [1] : tensor<64xf32> to tensor<?xf32>
//       CHECK:   scf.forall.in_parallel
//       CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[O_OUT]][%[[B]], %[[H]], %[[Q0]], 0]
//       CHECK:     tensor.parallel_insert_slice %[[LSE_ROWS]] into %[[LSE_OUT]][%[[B]], %[[H]], %[[Q0]]] [1, 1, %[[COUNT]]] [1, 1, 1] : tensor<?xf32> into tensor<1x4x100xf32>
//       CHECK: return %[[GRID]]#0, %[[GRID]]#1
func.func @lse(%qv: tensor<1x4x100x64xi8>, %qs: tensor<1x4x64x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x8x1xf32>,
    %vv: tensor<1x2x70x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>,
    %qm: tensor<1x4x2x64xf32>, %k: tensor<1x2x70x64xf16>, %km: tensor<1x2x1x64xf32>,
    %q: tensor<1x4x100x64xf16>)
    -> (tensor<1x4x100x64xf16>, tensor<1x4x100xf32>) {
  %o, %lse = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs)
      q_smooth(%qm, %k) k_smooth(%km) lse_query(%q) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64, causal}
    : (tensor<1x4x100x64xi8>, tensor<1x4x64x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x8x1xf32>,
       tensor<1x2x70x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x4x2x64xf32>,
       tensor<1x2x70x64xf16>, tensor<1x2x1x64xf32>, tensor<1x4x100x64xf16>)
      -> (tensor<1x4x100x64xf16>, tensor<1x4x100xf32>)
  return %o, %lse : tensor<1x4x100x64xf16>, tensor<1x4x100xf32>
}

// -----

// V stored for the P V MMA (v_layout): K/V block j reads key groups 2j and
// 2j + 1 of each channel (one at the tail: 70 keys are 3 groups), pads
// them to 64 positions and reads key c at its position: V^T's tile, with
// no transpose.
//   CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
//   CHECK-DAG: #[[POSITION:.*]] = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 8) floordiv 2) * 4 + ((d1 mod 16) floordiv 8) * 2 + d1 mod 2)>
// CHECK-LABEL: func @stored_values
//  CHECK-SAME: %[[VV:[^:]*]]: tensor<1x2x64x3x32xf8E4M3FN>
//       CHECK: scf.forall (%[[B:.*]], %[[H:.*]], %{{.*}}) in
//       CHECK:   scf.for %[[J:[^ ]*]] =
//       CHECK:     %[[P:.*]], %{{.*}} = sage.quantize
//       CHECK:     %[[G0:.*]] = arith.muli %[[J]], %[[C2:.*]] : index
//       CHECK:     %[[LEFT:.*]] = arith.subi %[[C3:.*]], %[[G0]] : index
//       CHECK:     %[[GROUPS:.*]] = arith.minsi %[[LEFT]], %[[C2]] : index
//       CHECK:     %[[SLICE:.*]] = tensor.extract_slice %[[VV]][%[[B]], %[[H]], 0, %[[G0]], 0] [1, 1, 64, %[[GROUPS]], 32] [1, 1, 1, 1, 1] : tensor<1x2x64x3x32xf8E4M3FN> to tensor<64x?x32xf8E4M3FN>
//       CHECK:     %[[WINDOW:.*]] = tensor.collapse_shape %[[SLICE]] {{\[\[}}0], [1, 2]] : tensor<64x?x32xf8E4M3FN> into tensor<64x?xf8E4M3FN>
//       CHECK:     %[[FILLED:.*]] = arith.muli %[[GROUPS]], %{{.*}} : index
//       CHECK:     %[[HIGH:.*]] = arith.subi %{{.*}}, %[[FILLED]] : index
//       CHECK:     %[[TILE:.*]] = tensor.pad %[[WINDOW]] low[0, 0] high[0, %[[HIGH]]]
//       CHECK:     } : tensor<64x?xf8E4M3FN> to tensor<64x64xf8E4M3FN>
//       CHECK:     %[[VT:.*]] = linalg.generic {indexing_maps = [#[[POSITION]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[TILE]] : tensor<64x64xf8E4M3FN>)
//       CHECK:     sage.qmma %[[P]] scaled %{{.*}}, %[[VT]] scaled
func.func @stored_values(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x3x32xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x3x32xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}
