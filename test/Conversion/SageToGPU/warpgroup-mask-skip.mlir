// RUN: sage-opt %s -split-input-file --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s
// RUN: sage-opt %s -split-input-file --sage-decompose-attention --canonicalize --convert-sage-to-gpu="chip=sm_90" | FileCheck %s --check-prefix=MMA-SYNC

// The wgmma kernel masks a K/V block only if it holds keys past Nk or,
// causal, keys right of the diagonal of the warp's first row r0 (the row
// that sees the fewest): last = start + block-k - 1 >= Nk, or
// last > r0 + diagonal (Nk - Nq aligned bottom-right, 0 top-left). Other
// blocks skip sage.mask_scores (a warp-uniform scf.if).

// CHECK-LABEL: gpu.func @sage_attention(
//       CHECK: %[[SCORES:.*]] = vector.from_elements {{.*}} : vector<32xf32>
//  CHECK-NEXT: %[[C63:.*]] = arith.constant 63 : i32
//  CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[START:.*]], %[[C63]] : i32
//  CHECK-NEXT: %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %[[NK:.*]] : i32
//  CHECK-NEXT: %[[DIAGONAL:.*]] = arith.subi %[[NK]], %[[NQ:.*]] : i32
//  CHECK-NEXT: %[[LIMIT:.*]] = arith.addi %[[FIRST_ROW:.*]], %[[DIAGONAL]] : i32
//  CHECK-NEXT: %[[RIGHT:.*]] = arith.cmpi sgt, %[[LAST]], %[[LIMIT]] : i32
//  CHECK-NEXT: %[[MASKED:.*]] = arith.ori %[[PADDED]], %[[RIGHT]] : i1
//  CHECK-NEXT: scf.if %[[MASKED]] -> (vector<32xf32>) {
//  CHECK-NEXT: sage.mask_scores %[[SCORES]] at [%[[FIRST_ROW]], %[[START]]] of [%[[NQ]], %[[NK]]] {causal,
// MMA-SYNC-LABEL: gpu.func @sage_attention(
//   MMA-SYNC-NOT: scf.if %{{.*}} -> (vector<32xf32>)
//       MMA-SYNC: sage.mask_scores
func.func @bottom_right(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// -----

// Top-left: the limit is the first row itself (diagonal 0).
// CHECK-LABEL: gpu.func @sage_attention(
//       CHECK: %[[SCORES:.*]] = vector.from_elements {{.*}} : vector<32xf32>
//  CHECK-NEXT: %[[C63:.*]] = arith.constant 63 : i32
//  CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[START:.*]], %[[C63]] : i32
//  CHECK-NEXT: %[[PADDED:.*]] = arith.cmpi sge, %[[LAST]], %{{.*}} : i32
//  CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
//  CHECK-NEXT: %[[LIMIT:.*]] = arith.addi %[[FIRST_ROW:.*]], %[[ZERO]] : i32
//  CHECK-NEXT: %[[RIGHT:.*]] = arith.cmpi sgt, %[[LAST]], %[[LIMIT]] : i32
//  CHECK-NEXT: %[[MASKED:.*]] = arith.ori %[[PADDED]], %[[RIGHT]] : i1
//  CHECK-NEXT: scf.if %[[MASKED]] -> (vector<32xf32>) {
//  CHECK-NEXT: sage.mask_scores %[[SCORES]] at [%[[FIRST_ROW]], %[[START]]] of {{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>,
// MMA-SYNC-LABEL: gpu.func @sage_attention(
//   MMA-SYNC-NOT: scf.if %{{.*}} -> (vector<32xf32>)
//       MMA-SYNC: sage.mask_scores
func.func @top_left(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal, causal_alignment = #sage.causal_alignment<top_left>}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}
