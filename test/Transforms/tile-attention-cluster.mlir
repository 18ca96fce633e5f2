// RUN: sage-opt %s --sage-tile-attention=cluster-ctas=2 -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not sage-opt %s --sage-tile-attention=cluster-ctas=9 2>&1 | FileCheck %s --check-prefix=BAD

// Q blocks launched in clusters of two (docs/Levels.md, "Clusters"): the
// grid's x extent is a whole number of clusters, ceil(ceil(Nq / 64) / 2)
// * 2, and carries sage.cluster_ctas. A spare point past the last Q block
// reads that block (the index clamped to it) and stores no rows: its
// first stored row is min(64 x, Nq), its count min(64, Nq - first) = 0.
// CHECK-LABEL: func @cluster
//       CHECK:   %[[NQ:.*]] = tensor.dim %{{.*}}, %c2 : tensor<1x1x?x64xi8>
//       CHECK:   %[[BLOCKS:.*]] = arith.ceildivui %[[NQ]], %c64
//       CHECK:   %[[CLUSTERS:.*]] = arith.ceildivui %[[BLOCKS]], %c2
//       CHECK:   %[[GRID:.*]] = arith.muli %[[CLUSTERS]], %c2
//       CHECK:   scf.forall (%{{.*}}, %{{.*}}, %[[X:.*]]) in (%c1, %c1, %[[GRID]])
//       CHECK:     %[[LAST:.*]] = arith.subi %[[BLOCKS]], %c1
//       CHECK:     %[[BLOCK:.*]] = arith.minsi %[[X]], %[[LAST]]
//       CHECK:     %[[FIRST:.*]] = arith.muli %[[BLOCK]], %c64
//       CHECK:     %[[AT:.*]] = arith.muli %[[X]], %c64
//       CHECK:     %[[STORED:.*]] = arith.minsi %[[AT]], %[[NQ]]
//       CHECK:     %[[LEFT:.*]] = arith.subi %[[NQ]], %[[STORED]]
//       CHECK:     %[[COUNT:.*]] = arith.minsi %[[LEFT]], %c64
//       CHECK:     tensor.extract_slice %{{.*}}[%{{.*}}, %{{.*}}, %[[FIRST]], 0]
//       CHECK:     tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}, %[[STORED]], 0] [1, 1, %[[COUNT]], 64]
//       CHECK:   } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>], sage.cluster_ctas = 2 : i64}
// BAD: error: expected cluster-ctas from 1 to 8 (the CTAs of a portable cluster), got 9
func.func @cluster(%qv: tensor<1x1x?x64xi8>, %qs: tensor<1x1x?x1xf32>,
    %kv: tensor<1x1x?x64xi8>, %ks: tensor<1x1x?x1xf32>,
    %vv: tensor<1x1x?x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>,
       tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf32>
  return %o : tensor<1x1x?x64xf32>
}

// -----

// Causal Q blocks see different K/V blocks, which a cluster shares.
func.func @negative_causal(%qv: tensor<1x1x?x64xi8>, %qs: tensor<1x1x?x1xf32>,
    %kv: tensor<1x1x?x64xi8>, %ks: tensor<1x1x?x1xf32>,
    %vv: tensor<1x1x?x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: a cluster of 2 CTAs shares each K/V block, but causal Q blocks see different K/V blocks; use cluster-ctas = 1}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64, causal}
    : (tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>, tensor<1x1x?x64xi8>, tensor<1x1x?x1xf32>,
       tensor<1x1x?x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x?x64xf32>
  return %o : tensor<1x1x?x64xf32>
}
