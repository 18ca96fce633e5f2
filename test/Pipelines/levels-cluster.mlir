// --sage-levels with cluster-ctas=2 (docs/Levels.md, "Clusters") on the
// K-smoothing recipe at D = 128 (the schedule's 64 x 128 tiles): the host
// launches the attention kernel in clusters of two CTAs along x over a
// whole number of clusters of Q blocks; the kernel's PTX requires that
// cluster shape, waits on a cluster barrier before each K/V block and
// multicasts its half of the K and V tiles (8192 of 16384 bytes each) to
// both CTAs, while Q's tile stays each CTA's own copy. ptxas assembles it
// for sm_90a. Causal attention is refused by name. With clusters on sm_89
// (no bulk copies, no clusters) the attach pass refuses the launch.
// RUN: sage-opt %s --sage-levels="chip=sm_90a cluster-ctas=2" -o %t.mlir
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir
// RUN: sage-translate %t.mlir --sage-export-ptx --sage-kernel-module=k_only_kernel -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: sed 's/smooth = \[k\]>}/smooth = [k]>, causal}/' %s | not sage-opt --sage-levels="chip=sm_90a cluster-ctas=2" 2>&1 | FileCheck %s --check-prefix=CAUSAL
// RUN: not sage-opt %s --sage-levels="chip=sm_89 cluster-ctas=2" 2>&1 | FileCheck %s --check-prefix=SM89

//      HOST: %[[QUERIES:.*]] = arith.ceildivui %{{.*}}, %c64 : index
//      HOST: %[[CLUSTERS:.*]] = arith.ceildivui %[[QUERIES]], %c2 : index
//      HOST: %[[BLOCKS:.*]] = arith.muli %[[CLUSTERS]], %c2 : index
//      HOST: gpu.launch_func @k_only_kernel::@k_only_kernel clusters in (%c2{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}) blocks in (%[[BLOCKS]],

//      PTX: .explicitcluster
// PTX-NEXT: .reqnctapercluster 2, 1, 1
// Q's tile (8192 bytes), this CTA's own:
//      PTX: mbarrier.arrive.expect_tx.shared.b64
//      PTX: mov.b32 %[[Q_BYTES:r[0-9]+]], 8192;
// PTX-NEXT: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], %[[Q_BYTES]], [{{.*}}];
// Block 0 of K and V, this CTA's halves at 8192 x its rank:
//      PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
//      PTX: mov.u32 %[[RANK:r[0-9]+]], %cluster_ctarank;
// PTX-NEXT: mul.wide.u32 %{{rd[0-9]+}}, %[[RANK]], 8192;
//      PTX: mov.b32 %[[HALF:r[0-9]+]], 8192;
// PTX-NEXT: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], %[[HALF]], [{{.*}}], %rs{{[0-9]+}};
//      PTX: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{{.*}}], [{{.*}}], %[[HALF]], [{{.*}}], %rs{{[0-9]+}};
// The loop's next block: the cluster barrier split, an arrival before
// the loop and at the end of each iteration, the wait once block j's score
// wgmmas are committed, before the copies, and once after the loop.
//      PTX: barrier.cluster.arrive.aligned;
//  PTX-NOT: barrier.cluster.wait.aligned;
//      PTX: barrier.cluster.arrive.aligned;
//      PTX: wgmma.commit_group.sync.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
//      PTX: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
//      PTX: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
//      PTX: wgmma.wait_group.sync.aligned 0;
//      PTX: barrier.cluster.wait.aligned;

// CAUSAL: error: 'sage.quantized_attention' op cannot be tiled: a cluster of 2 CTAs shares each K/V block, but causal Q blocks see different K/V blocks; use cluster-ctas = 1
// SM89: error: 'gpu.launch_func' op launches clusters, which need sm_90 or newer; the kernels are compiled for sm_89
func.func @k_only(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>,
                  %v: tensor<?x?x?x128xf16>, %out: memref<?x?x?x128xf16>) {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  bufferization.materialize_in_destination %o in restrict writable %out
      : (tensor<?x?x?x128xf16>, memref<?x?x?x128xf16>) -> ()
  return
}
