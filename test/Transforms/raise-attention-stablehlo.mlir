// Attention in StableHLO ops, as JAX 0.11 writes it (test/Pipelines/Inputs/jax,
// made by jax_attention.py there, in MLIR's generic op form): raised to
// sage.attention, with no StableHLO op and no private helper left behind.

// jax.nn.dot_product_attention (XLA's lowering) on BTNH f16: vmap's unit
// dim, the transposes around it and max(-inf, m) are seen through.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_plain.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=PLAIN --implicit-check-not=stablehlo
// PLAIN-LABEL: func.func public @main
//  PLAIN-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x1024x8x128xf16>, %[[K:[a-z0-9]+]]: tensor<2x1024x8x128xf16>, %[[V:[a-z0-9]+]]: tensor<2x1024x8x128xf16>)
//       PLAIN: %[[QT:.*]] = linalg.transpose ins(%[[Q]] {{.*}} permutation = [0, 2, 1, 3]
//       PLAIN: %[[KT:.*]] = linalg.transpose ins(%[[K]] {{.*}} permutation = [0, 2, 1, 3]
//       PLAIN: %[[VT:.*]] = linalg.transpose ins(%[[V]] {{.*}} permutation = [0, 2, 1, 3]
//       PLAIN: %[[O:.*]] = sage.attention %[[QT]], %[[KT]], %[[VT]] {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 0.088388346135616302 : f64}
//       PLAIN: %[[OT:.*]] = linalg.transpose ins(%[[O]] {{.*}} permutation = [0, 2, 1, 3]
//       PLAIN: return %[[OT]]

// bf16, D = 64, Nq != Nk: the scale is JAX's 1/sqrt(64).
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_bf16_d64.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=BF16 --implicit-check-not=stablehlo
//       BF16: sage.attention {{.*}} scale = 1.250000e-01 : f64} : (tensor<2x8x1000x64xbf16>, tensor<2x8x1500x64xbf16>, tensor<2x8x1500x64xbf16>) -> tensor<2x8x1000x64xbf16>

// A bias [B, H, Nq, Nk] in f16, widened to f32 and added after the scale:
// the f16 argument itself is the mask.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_bias.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=BIAS --implicit-check-not=stablehlo
// BIAS-LABEL: func.func public @main
//  BIAS-SAME: %[[BIAS:[a-z0-9]+]]: tensor<2x8x1024x1024xf16>)
//       BIAS: sage.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[BIAS]]) {layout = #sage.layout<[batch, heads, tokens, features]>

// is_causal with Nq = Nk: the iota / compare / select mask (in the private
// @tril and @_where, followed through the calls) is `causal`.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_causal.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=CAUSAL --implicit-check-not=stablehlo --implicit-check-not=func.func
// CAUSAL-LABEL: func.func public @main
//       CAUSAL: sage.attention {{.*}} {causal, layout = #sage.layout<[batch, heads, tokens, features]>
//  CAUSAL-NOT: mask(

// The same with B = H = 1: the tril mask is not broadcast, and the select
// reads it directly.
// RUN: sed 's/2x8x/1x1x/g; s/2x1024x8x/1x1024x1x/g; s/1x2x8x/1x1x1x/g' %S/../Pipelines/Inputs/jax/dpa_causal.mlir \
// RUN:   | sage-opt --sage-raise-attention | FileCheck %s --check-prefix=CAUSAL1 --implicit-check-not=stablehlo
//      CAUSAL1: sage.attention {{.*}} {causal, layout = #sage.layout<[batch, tokens, features]>

// A boolean mask [B, 1, Nq, Nk] selecting JAX's -0.7 * max(f32) for
// dropped scores: the i1 argument is the keep-mask, broadcast over heads.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_mask.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=MASK --implicit-check-not=stablehlo --implicit-check-not=func.func
// MASK-LABEL: func.func public @main
//  MASK-SAME: %[[M:[a-z0-9]+]]: tensor<2x1x1024x1024xi1>)
//       MASK: sage.attention %{{.*}}, %{{.*}}, %{{.*}} mask(%[[M]])
//  MASK-SAME: (tensor<2x8x1024x128xf16>, tensor<2x8x1024x128xf16>, tensor<2x8x1024x128xf16>, tensor<2x1x1024x1024xi1>) -> tensor<2x8x1024x128xf16>

// softmax(einsum) on BNTH with the scale folded into Q: read in place.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/einsum_bnth.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=EINSUM --implicit-check-not=stablehlo
// EINSUM-LABEL: func.func public @main
//  EINSUM-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x8x1024x64xf16>, %[[K:[a-z0-9]+]]: tensor<2x8x1024x64xf16>, %[[V:[a-z0-9]+]]: tensor<2x8x1024x64xf16>)
//  EINSUM-NEXT: %[[O:.*]] = sage.attention %[[Q]], %[[K]], %[[V]] {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 1.250000e-01 : f64}
//  EINSUM-NEXT: return %[[O]]

// Two attentions in a row (Inputs/stablehlo_stacked.mlir): the second's Q
// is the first's output; each is raised, neither is rebuilt into the
// other.
// RUN: sage-opt %S/Inputs/stablehlo_stacked.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=STACKED --implicit-check-not=stablehlo
// STACKED-LABEL: func.func public @main
//  STACKED-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x8x1024x64xf16>, %[[K:[a-z0-9]+]]: tensor<2x8x1024x64xf16>, %[[V:[a-z0-9]+]]: tensor<2x8x1024x64xf16>)
//  STACKED-NEXT: %[[O1:.*]] = sage.attention %[[Q]], %[[K]], %[[V]]
//  STACKED-NEXT: %[[O2:.*]] = sage.attention %[[O1]], %[[K]], %[[V]]
//  STACKED-NEXT: return %[[O2]]

// The softmax spelled out in f32 on BTNH, scale as a division.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/einsum_btnh_spelled.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=SPELLED --implicit-check-not=stablehlo
//       SPELLED: sage.attention {{.*}} scale = 0.088388349161020605 : f64}

// is_causal with Nq != Nk: JAX's tril is aligned top-left, and so is the
// raised `causal`.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_causal_nq_lt_nk.mlir --sage-raise-attention=explain=true \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=TOPLEFT \
// RUN:   --implicit-check-not=stablehlo --implicit-check-not=remark --implicit-check-not=func.func
// TOPLEFT-LABEL: func.func public @main
//       TOPLEFT: sage.attention {{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
//   TOPLEFT-NOT: mask(
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_causal_nq_gt_nk.mlir --sage-raise-attention \
// RUN:   | FileCheck %s --check-prefix=TOPLEFT2 --implicit-check-not=stablehlo --implicit-check-not=func.func
// TOPLEFT2-LABEL: func.func public @main
//       TOPLEFT2: sage.attention {{.*}} {causal, causal_alignment = #sage.causal_alignment<top_left>, layout
//  TOPLEFT2-SAME: (tensor<2x8x1024x128xf16>, tensor<2x8x512x128xf16>, tensor<2x8x512x128xf16>) -> tensor<2x8x1024x128xf16>

// GQA as JAX spells it: Q's 8 heads reshaped to [2 K/V heads, group of 4]
// make the group a second free dim of both products, and the max is taken
// before vmap's transposes move it. Raised with Q's heads whole (K/V head
// h / 4 for query head h, as JAX's split) and K, V with their 2 heads.
// RUN: sage-opt %S/../Pipelines/Inputs/jax/dpa_gqa.mlir --sage-raise-attention=explain=true \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GQA \
// RUN:   --implicit-check-not=stablehlo --implicit-check-not=remark --implicit-check-not=func.func
// GQA-LABEL: func.func public @main
//  GQA-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x1024x8x128xf16>, %[[K:[a-z0-9]+]]: tensor<2x1024x2x128xf16>, %[[V:[a-z0-9]+]]: tensor<2x1024x2x128xf16>)
//       GQA: %[[QT:.*]] = linalg.transpose ins(%[[Q]] {{.*}} permutation = [0, 2, 1, 3]
//       GQA: %[[KT:.*]] = linalg.transpose ins(%[[K]] {{.*}} permutation = [0, 2, 1, 3]
//       GQA: %[[VT:.*]] = linalg.transpose ins(%[[V]] {{.*}} permutation = [0, 2, 1, 3]
//       GQA: sage.attention %[[QT]], %[[KT]], %[[VT]] {layout = #sage.layout<[batch, heads, tokens, features]>
//  GQA-SAME: (tensor<2x8x1024x128xf16>, tensor<2x2x1024x128xf16>, tensor<2x2x1024x128xf16>) -> tensor<2x8x1024x128xf16>
