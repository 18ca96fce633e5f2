// RUN: sage-opt %s | sage-opt | FileCheck %s
// RUN: sage-opt %s --mlir-print-op-generic | sage-opt | FileCheck %s

// CHECK-LABEL: func @attention_bhnd_gqa_causal
//  CHECK-SAME: (%[[Q:.*]]: tensor<2x32x?x128xf16>, %[[K:.*]]: tensor<2x8x?x128xf16>, %[[V:.*]]: tensor<2x8x?x128xf16>)
//       CHECK: sage.attention %[[Q]], %[[K]], %[[V]]
//  CHECK-SAME: causal
//  CHECK-SAME: layout = #sage.layout<[batch, heads, tokens, features]>
//  CHECK-SAME: recipe = #sage.recipe<"int8-fp8">
//  CHECK-SAME: scale = 8.838000e-02 : f64
//  CHECK-SAME: -> tensor<2x32x?x128xf16>
func.func @attention_bhnd_gqa_causal(%q: tensor<2x32x?x128xf16>,
    %k: tensor<2x8x?x128xf16>, %v: tensor<2x8x?x128xf16>)
    -> tensor<2x32x?x128xf16> {
  %o = sage.attention %q, %k, %v {
      layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, scale = 0.08838 : f64, causal}
    : (tensor<2x32x?x128xf16>, tensor<2x8x?x128xf16>, tensor<2x8x?x128xf16>)
      -> tensor<2x32x?x128xf16>
  return %o : tensor<2x32x?x128xf16>
}

// CHECK-LABEL: func @attention_top_left_causal
//       CHECK: sage.attention
//  CHECK-SAME: {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
func.func @attention_top_left_causal(%q: tensor<2x8x100x64xf16>,
    %k: tensor<2x8x300x64xf16>, %v: tensor<2x8x300x64xf16>)
    -> tensor<2x8x100x64xf16> {
  %o = sage.attention %q, %k, %v {
      layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8">, causal,
      causal_alignment = #sage.causal_alignment<top_left>}
    : (tensor<2x8x100x64xf16>, tensor<2x8x300x64xf16>, tensor<2x8x300x64xf16>)
      -> tensor<2x8x100x64xf16>
  return %o : tensor<2x8x100x64xf16>
}

// CHECK-LABEL: func @attention_bnhd_mask_lse
//       CHECK: %{{.*}}, %[[LSE:.*]] = sage.attention %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} mask(%{{[a-z0-9_]+}})
//  CHECK-SAME: layout = #sage.layout<[batch, tokens, heads, features]>
//  CHECK-SAME: recipe = #sage.recipe<"int4-fp8", qk = per_warp, smooth = [k, v]>
//  CHECK-SAME: (tensor<1x100x4x64xbf16>, tensor<1x70x4x64xbf16>, tensor<1x70x4x64xbf16>, tensor<1x100x1x70xi1>) -> (tensor<1x100x4x64xbf16>, tensor<1x100x4xf32>)
func.func @attention_bnhd_mask_lse(%q: tensor<1x100x4x64xbf16>,
    %k: tensor<1x70x4x64xbf16>, %v: tensor<1x70x4x64xbf16>,
    %mask: tensor<1x100x1x70xi1>) -> tensor<1x100x4xf32> {
  %o, %lse = sage.attention %q, %k, %v mask(%mask) {
      layout = #sage.layout<[batch, tokens, heads, features]>,
      recipe = #sage.recipe<"int4-fp8", qk = per_warp, smooth = [k, v]>}
    : (tensor<1x100x4x64xbf16>, tensor<1x70x4x64xbf16>, tensor<1x70x4x64xbf16>,
       tensor<1x100x1x70xi1>) -> (tensor<1x100x4x64xbf16>, tensor<1x100x4xf32>)
  return %lse : tensor<1x100x4xf32>
}

// CHECK-LABEL: func @attention_rank3_additive_mask_f32_result
//       CHECK: sage.attention {{.*}} mask(%{{[a-z0-9_]+}})
//  CHECK-SAME: recipe = #sage.recipe<nvfp4>
//  CHECK-SAME: (tensor<?x?x128xf16>, tensor<?x?x128xf16>, tensor<?x?x64xf16>, tensor<?x?x?xf16>) -> tensor<?x?x64xf32>
func.func @attention_rank3_additive_mask_f32_result(%q: tensor<?x?x128xf16>,
    %k: tensor<?x?x128xf16>, %v: tensor<?x?x64xf16>, %mask: tensor<?x?x?xf16>)
    -> tensor<?x?x64xf32> {
  %o = sage.attention %q, %k, %v mask(%mask) {
      layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"nvfp4">}
    : (tensor<?x?x128xf16>, tensor<?x?x128xf16>, tensor<?x?x64xf16>,
       tensor<?x?x?xf16>) -> tensor<?x?x64xf32>
  return %o : tensor<?x?x64xf32>
}

// Every recipe keyword, and the defaults elided when printed.
// CHECK-LABEL: func @recipes
//       CHECK: recipe = #sage.recipe<"int8-fp8-f16acc">
//       CHECK: recipe = #sage.recipe<"int4-fp8-f16acc", qk = per_block, smooth = [], p_range = 448.0, v_range = 2.25>
//       CHECK: recipe = #sage.recipe<"int8-fp8", qk = per_token, smooth = [q, k, v]>
//       CHECK: recipe = #sage.recipe<"int8-fp8", qk = per_tensor, smooth = [k]>
//       CHECK: recipe = #sage.recipe<"int8-fp8">
func.func @recipes(%x: tensor<1x16x64xf16>) {
  %0 = sage.attention %x, %x, %x {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8-f16acc", p_range = 224.0, v_range = 4.5>}
    : (tensor<1x16x64xf16>, tensor<1x16x64xf16>, tensor<1x16x64xf16>) -> tensor<1x16x64xf16>
  %1 = sage.attention %x, %x, %x {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int4-fp8-f16acc", qk = per_block, smooth = [],
                            p_range = 448.0, v_range = 2.25>}
    : (tensor<1x16x64xf16>, tensor<1x16x64xf16>, tensor<1x16x64xf16>) -> tensor<1x16x64xf16>
  %2 = sage.attention %x, %x, %x {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_token, smooth = [v, q, k]>}
    : (tensor<1x16x64xf16>, tensor<1x16x64xf16>, tensor<1x16x64xf16>) -> tensor<1x16x64xf16>
  %3 = sage.attention %x, %x, %x {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_tensor, smooth = [k]>}
    : (tensor<1x16x64xf16>, tensor<1x16x64xf16>, tensor<1x16x64xf16>) -> tensor<1x16x64xf16>
  %4 = sage.attention %x, %x, %x {layout = #sage.layout<[batch, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_thread, smooth = [q, k]>}
    : (tensor<1x16x64xf16>, tensor<1x16x64xf16>, tensor<1x16x64xf16>) -> tensor<1x16x64xf16>
  return
}

// CHECK-LABEL: func @smooth
//  CHECK-SAME: (%[[X:.*]]: tensor<2x32x1000x128xf16>)
//       CHECK: sage.smooth %[[X]] {block = 128 : i64} : tensor<2x32x1000x128xf16> -> tensor<2x32x8x128xf32>
//       CHECK: sage.smooth %[[X]] : tensor<2x32x1000x128xf16> -> tensor<2x32x1x128xf32>
func.func @smooth(%x: tensor<2x32x1000x128xf16>) {
  %s, %m = sage.smooth %x {block = 128} : tensor<2x32x1000x128xf16> -> tensor<2x32x8x128xf32>
  %g, %gm = sage.smooth %x : tensor<2x32x1000x128xf16> -> tensor<2x32x1x128xf32>
  return
}

// One quantize per granularity, with the scale shape each implies.
// CHECK-LABEL: func @quantize
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x256x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x64x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i4, per_warp, warp = 32>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi4>, tensor<2x32x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_block, block = 64>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x16x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_token>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x1000x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_tensor>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x1x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E4M3FN>, tensor<2x1x128xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<f8E5M2, per_tensor>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E5M2>, tensor<2x1x1xf32>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xf4E2M1FN>, tensor<2x1000x8xf8E4M3FN>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<f8E4M3FN, microscale, block = 32, scale = f8E8M0FNU>} : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E4M3FN>, tensor<2x1000x4xf8E8M0FNU>
//       CHECK: sage.quantize {{.*}} {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>} : tensor<?x?x128xbf16> -> tensor<?x?x128xi8>, tensor<?x?x1xf32>
func.func @quantize(%x: tensor<2x1000x128xf16>, %d: tensor<?x?x128xbf16>) {
  %0:2 = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x256x1xf32>
  %1:2 = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x64x1xf32>
  %2:2 = sage.quantize %x {quant = #sage.quant<i4, per_warp, warp = 32>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi4>, tensor<2x32x1xf32>
  %3:2 = sage.quantize %x {quant = #sage.quant<i8, per_block, block = 64>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x16x1xf32>
  %4:2 = sage.quantize %x {quant = #sage.quant<i8, per_token, range = 127.0>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x1000x1xf32>
  %5:2 = sage.quantize %x {quant = #sage.quant<i8, per_tensor>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xi8>, tensor<2x1x1xf32>
  %6:2 = sage.quantize %x {quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E4M3FN>, tensor<2x1x128xf32>
  %7:2 = sage.quantize %x {quant = #sage.quant<f8E5M2, per_tensor, scale = f32>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E5M2>, tensor<2x1x1xf32>
  %8:2 = sage.quantize %x {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xf4E2M1FN>, tensor<2x1000x8xf8E4M3FN>
  %9:2 = sage.quantize %x {quant = #sage.quant<f8E4M3FN, microscale, block = 32, scale = f8E8M0FNU>}
    : tensor<2x1000x128xf16> -> tensor<2x1000x128xf8E4M3FN>, tensor<2x1000x4xf8E8M0FNU>
  %10:2 = sage.quantize %d {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>}
    : tensor<?x?x128xbf16> -> tensor<?x?x128xi8>, tensor<?x?x1xf32>
  return
}

// CHECK-LABEL: func @dequantize
//       CHECK: sage.dequantize %{{.*}}, %{{.*}} {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<1024x128xf8E4M3FN>, tensor<1x128xf32> -> tensor<1024x128xf32>
func.func @dequantize(%v: tensor<1024x128xf8E4M3FN>, %s: tensor<1x128xf32>) -> tensor<1024x128xf32> {
  %0 = sage.dequantize %v, %s {quant = #sage.quant<f8E4M3FN, per_channel>}
    : tensor<1024x128xf8E4M3FN>, tensor<1x128xf32> -> tensor<1024x128xf32>
  return %0 : tensor<1024x128xf32>
}

// CHECK-LABEL: func @qmma
//       CHECK: sage.qmma %{{.*}} scaled %{{.*}}, %{{.*}} scaled %{{.*}}, %{{.*}} {accumulator = i32} : tensor<128x128xi8>, tensor<128x1xf32>, tensor<64x128xi8>, tensor<1x1xf32> -> tensor<128x64xf32>
//       CHECK: sage.qmma {{.*}} {accumulator = f16} : tensor<128x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<128x1xf32> -> tensor<128x128xf16>
//       CHECK: sage.qmma {{.*}} {accumulator = f32} : tensor<4x16x128xf4E2M1FN>, tensor<4x16x8xf8E4M3FN>, tensor<4x8x128xf4E2M1FN>, tensor<4x8x8xf8E4M3FN> -> tensor<4x16x8xf32>
func.func @qmma(%a: tensor<128x128xi8>, %sa: tensor<128x1xf32>, %b: tensor<64x128xi8>,
                %sb: tensor<1x1xf32>, %acc: tensor<128x64xf32>,
                %p: tensor<128x64xf8E4M3FN>, %vt: tensor<128x64xf8E4M3FN>,
                %sv: tensor<128x1xf32>, %acc16: tensor<128x128xf16>,
                %fa: tensor<4x16x128xf4E2M1FN>, %fsa: tensor<4x16x8xf8E4M3FN>,
                %fb: tensor<4x8x128xf4E2M1FN>, %fsb: tensor<4x8x8xf8E4M3FN>,
                %facc: tensor<4x16x8xf32>) {
  %0 = sage.qmma %a scaled %sa, %b scaled %sb, %acc {accumulator = i32}
    : tensor<128x128xi8>, tensor<128x1xf32>, tensor<64x128xi8>, tensor<1x1xf32> -> tensor<128x64xf32>
  %1 = sage.qmma %p scaled %sb, %vt scaled %sv, %acc16 {accumulator = f16}
    : tensor<128x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<128x1xf32> -> tensor<128x128xf16>
  %2 = sage.qmma %fa scaled %fsa, %fb scaled %fsb, %facc {accumulator = f32}
    : tensor<4x16x128xf4E2M1FN>, tensor<4x16x8xf8E4M3FN>, tensor<4x8x128xf4E2M1FN>, tensor<4x8x8xf8E4M3FN> -> tensor<4x16x8xf32>
  return
}

// CHECK-LABEL: func @online_softmax_and_accumulate
//       CHECK: %[[P:.*]], %{{.*}}, %{{.*}}, %[[ALPHA:.*]] = sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xf32>, tensor<128xf32>
//       CHECK: sage.accumulate %{{.*}} into %{{.*}} rescale %[[ALPHA]] {scheme = #sage.accum<f32>} : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
//       CHECK: sage.accumulate %{{.*}} into %{{.*}} rescale %[[ALPHA]] {scheme = #sage.accum<f16, every = 2>} : tensor<128x128xf16>, tensor<128xf32> -> tensor<128x128xf32>
func.func @online_softmax_and_accumulate(%s: tensor<128x64xf32>, %m: tensor<128xf32>,
    %l: tensor<128xf32>, %r: tensor<128x128xf32>, %r16: tensor<128x128xf16>,
    %o: tensor<128x128xf32>) {
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %m, %l : tensor<128x64xf32>, tensor<128xf32>
  %o1 = sage.accumulate %r into %o rescale %alpha {scheme = #sage.accum<f32>}
    : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
  %o2 = sage.accumulate %r16 into %o1 rescale %alpha {scheme = #sage.accum<f16, every = 2>}
    : tensor<128x128xf16>, tensor<128xf32> -> tensor<128x128xf32>
  return
}

// A factor every score of the tile shares (the softmax scale in log2 units).
// CHECK-LABEL: func @online_softmax_scaled_tile
//       CHECK: sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} scaled %{{.*}} : vector<1xf32> {base2} : tensor<64x64xf32>, tensor<64xf32>
func.func @online_softmax_scaled_tile(%s: tensor<64x64xf32>, %m: tensor<64xf32>) {
  %f = arith.constant dense<0.180336878> : vector<1xf32>
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m scaled %f : vector<1xf32> {base2} : tensor<64x64xf32>, tensor<64xf32>
  return
}

// The tile level's forms: scales grouped by a quant attribute, a static P
// scale, masked scores.
// CHECK-LABEL: func @tile_forms
//  CHECK-SAME: (%[[S:[^:]*]]: tensor<64x64xf32>, %[[Q0:[^:]*]]: index, %[[K0:[^:]*]]: index, %[[NQ:[^:]*]]: index, %[[NK:[^:]*]]: index
//       CHECK: sage.mask_scores %[[S]] at [%[[Q0]], %[[K0]]] of [%[[NQ]], %[[NK]]] {causal} : tensor<64x64xf32>
//       CHECK: sage.mask_scores %[[S]] at [%[[Q0]], %[[K0]]] of [%[[NQ]], %[[NK]]] : tensor<64x64xf32>
//       CHECK: sage.mask_scores %[[S]] at [%[[Q0]], %[[K0]]] of [%[[NQ]], %[[NK]]] {causal, causal_alignment = #sage.causal_alignment<top_left>} : tensor<64x64xf32>
//       CHECK: sage.quantize %[[S]] {bound = 1.000000e+00 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>} : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
//       CHECK: sage.qmma {{.*}} {a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>, accumulator = i32, b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<64x128xi8>, tensor<32x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
func.func @tile_forms(%s: tensor<64x64xf32>, %q0: index, %k0: index, %nq: index,
    %nk: index, %a: tensor<64x128xi8>, %sa: tensor<32x1xf32>, %b: tensor<64x128xi8>,
    %sb: tensor<4x1xf32>) {
  %0 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal} : tensor<64x64xf32>
  %1 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] : tensor<64x64xf32>
  %tl = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal, causal_alignment = #sage.causal_alignment<top_left>} : tensor<64x64xf32>
  %p, %ps = sage.quantize %s {quant = #sage.quant<f8E4M3FN, per_tensor>, bound = 1.0 : f64}
    : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %2 = sage.qmma %a scaled %sa, %b scaled %sb, %s {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<64x128xi8>, tensor<32x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return
}

// CHECK-LABEL: func @qmma_with_instruction
//       CHECK: sage.qmma {{.*}} {accumulator = i32, mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
func.func @qmma_with_instruction(%a: tensor<64x128xi8>, %s: tensor<1x1xf32>,
    %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = sage.qmma %a scaled %s, %a scaled %s, %c {accumulator = i32,
      mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
                      b = i8, b_source = shared, acc = i32, scales = none>}
    : tensor<64x128xi8>, tensor<1x1xf32>, tensor<64x128xi8>, tensor<1x1xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
