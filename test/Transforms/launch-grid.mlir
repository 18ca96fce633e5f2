// RUN: sage-opt %s --sage-launch-grid -split-input-file -verify-diagnostics | FileCheck %s

// A grid after sage-distribute-tiles, sage-fold-lane-reads and
// bufferization (docs/Levels.md, "From lanes to a kernel"): each block of
// 64 queries holds its output tile in the accumulators of 4 warps and
// copies its rows (fewer in the last block) into the output. The copy
// becomes each lane's stores of its runs of two columns, which may overrun
// the output's rows; the grid a launch of 128 threads a block.
#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
// CHECK-LABEL: func @grid
//  CHECK-SAME:   (%[[OUT:[^:]*]]: memref<?x32xf16>, %[[O:[^:]*]]: vector<16xf16>, %[[BLOCKS:[^:]*]]: index, %[[HEADS:[^:]*]]: index, %[[N:[^:]*]]: index)
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[THREADS:.*]] = arith.constant 128 : index
// A grid of no points launches nothing.
//       CHECK:   %[[SOME_BLOCKS:.*]] = arith.cmpi sgt, %[[BLOCKS]], %{{.*}} : index
//       CHECK:   %[[SOME_HEADS:.*]] = arith.cmpi sgt, %[[HEADS]], %{{.*}} : index
//       CHECK:   %[[SOME:.*]] = arith.andi %[[SOME_BLOCKS]], %[[SOME_HEADS]] : i1
//       CHECK:   scf.if %[[SOME]] {
//       CHECK:   gpu.launch blocks(%[[BX:[a-z0-9]+]], %{{[a-z0-9]+}}, %{{[a-z0-9]+}}) in (%{{[a-z0-9]+}} = %[[BLOCKS]], %{{[a-z0-9]+}} = %[[HEADS]], %{{[a-z0-9]+}} = %[[ONE]])
//  CHECK-SAME:     threads(%{{[a-z0-9, %]+}}) in (%{{[a-z0-9]+}} = %[[THREADS]], %{{[a-z0-9]+}} = %[[ONE]], %{{[a-z0-9]+}} = %[[ONE]])
//       CHECK:     %[[FIRST:.*]] = arith.muli %[[BX]], %{{.*}} : index
//       CHECK:     %[[DEST:.*]] = memref.subview %[[OUT]][%[[FIRST]], 0]
//       CHECK:     %[[THREAD:.*]] = gpu.thread_id x
// The lane's rows g and g + 8 of its warp's 16, and its first column 2 t.
//       CHECK:     %[[LANE:.*]] = arith.remui %[[THREAD]], %{{.*}} : index
//       CHECK:     %[[WARP:.*]] = arith.divui %[[THREAD]], %{{.*}} : index
//       CHECK:     %[[GROUP:.*]] = arith.divui %[[LANE]], %{{.*}} : index
//       CHECK:     %[[QUAD:.*]] = arith.remui %[[LANE]], %{{.*}} : index
//       CHECK:     %[[WARP_ROW:.*]] = arith.muli %[[WARP]], %{{.*}} : index
//       CHECK:     %[[G:.*]] = arith.addi %[[WARP_ROW]], %[[GROUP]] : index
//       CHECK:     %[[GROUP8:.*]] = arith.addi %[[GROUP]], %{{.*}} : index
//       CHECK:     %[[G8:.*]] = arith.addi %[[WARP_ROW]], %[[GROUP8]] : index
//       CHECK:     %[[T2:.*]] = arith.muli %[[QUAD]], %{{.*}} : index
//       CHECK:     %[[RUN0:.*]] = vector.extract_strided_slice %[[O]] {offsets = [0], sizes = [2], strides = [1]} : vector<16xf16> to vector<2xf16>
//       CHECK:     %[[ROW0:.*]] = vector.shape_cast %[[RUN0]] : vector<2xf16> to vector<1x2xf16>
//       CHECK:     vector.transfer_write %[[ROW0]], %[[DEST]][%[[G]], %[[T2]]] : vector<1x2xf16>, memref<?x32xf16, strided<[32, 1], offset: ?>>
//       CHECK:     %[[RUN1:.*]] = vector.extract_strided_slice %[[O]] {offsets = [2], sizes = [2], strides = [1]}
//       CHECK:     %[[ROW1:.*]] = vector.shape_cast %[[RUN1]]
//       CHECK:     vector.transfer_write %[[ROW1]], %[[DEST]][%[[G8]], %{{[a-z0-9]+}}]
// CHECK-COUNT-6:   vector.transfer_write
//   CHECK-NOT:     vector.transfer_write
//   CHECK-NOT:     sage.from_lanes
//   CHECK-NOT:     memref.copy
//       CHECK:     gpu.terminator
//   CHECK-NOT:   scf.forall
func.func @grid(%out: memref<?x32xf16>, %o: vector<16xf16>, %blocks: index, %heads: index, %n: index) {
  %c64 = arith.constant 64 : index
  scf.forall (%block, %head) in (%blocks, %heads) {
    %first = arith.muli %block, %c64 : index
    %left = arith.subi %n, %first : index
    %rows = arith.minsi %left, %c64 : index
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    %buffer = bufferization.to_buffer %tile : tensor<64x32xf16> to memref<64x32xf16, strided<[?, ?], offset: ?>>
    %rowsOfTile = memref.subview %buffer[0, 0] [%rows, 32] [1, 1] : memref<64x32xf16, strided<[?, ?], offset: ?>> to memref<?x32xf16, strided<[?, ?], offset: ?>>
    %dest = memref.subview %out[%first, 0] [%rows, 32] [1, 1] : memref<?x32xf16> to memref<?x32xf16, strided<[32, 1], offset: ?>>
    memref.copy %rowsOfTile, %dest : memref<?x32xf16, strided<[?, ?], offset: ?>> to memref<?x32xf16, strided<[32, 1], offset: ?>>
  } {mapping = [#gpu.block<x>, #gpu.block<y>]}
  return
}

// -----

// A forall without a mapping is no grid: left alone.
// CHECK-LABEL: func @unmapped
//       CHECK:   scf.forall
func.func @unmapped(%out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    memref.store %zero, %out[%i] : memref<4xf32>
  }
  return
}

// -----

func.func @negative_no_lanes(%out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{'scf.forall' op has no output tile held by the lanes of warps (sage.from_lanes), so nothing says how many threads a block has; run sage-distribute-tiles first}}
  scf.forall (%i) in (4) {
    memref.store %zero, %out[%i] : memref<4xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                 b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_two_warp_counts(%o: vector<16xf16>, %p: vector<16xf16>) {
  scf.forall (%i) in (4) {
    %a = sage.from_lanes %o {layout = #sage.acc_fragment<mma = #mma, warps = 4>} : vector<16xf16> -> tensor<64x32xf16>
    // expected-error @below {{'sage.from_lanes' op is held by 2 warps, but another tile of its grid by 4}}
    %b = sage.from_lanes %p {layout = #sage.acc_fragment<mma = #mma, warps = 2>} : vector<16xf16> -> tensor<32x32xf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_other_use(%o: vector<16xf16>, %out: memref<4xf16>) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (4) {
    // expected-error @below {{'sage.from_lanes' op is used by 'tensor.extract'; the lanes can store a tile they hold only where the grid copies it into its output}}
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    %e = tensor.extract %tile[%c0, %c0] : tensor<64x32xf16>
    memref.store %e, %out[%i] : memref<4xf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_tensors(%o: vector<16xf16>, %init: tensor<256x32xf16>) -> tensor<256x32xf16> {
  %c64 = arith.constant 64 : index
  // expected-error @below {{'scf.forall' op still returns tensors; bufferize the grid before launching it}}
  %r = scf.forall (%i) in (4) shared_outs(%s = %init) -> tensor<256x32xf16> {
    %first = arith.muli %i, %c64 : index
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %s[%first, 0] [64, 32] [1, 1] : tensor<64x32xf16> into tensor<256x32xf16>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<256x32xf16>
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_thread_mapping(%o: vector<16xf16>) {
  // expected-error @below {{'scf.forall' op maps a dimension to #gpu.thread<x>; a grid is launched with #gpu.block<x>, <y> or <z>}}
  scf.forall (%i) in (4) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_offset_grid(%o: vector<16xf16>) {
  // expected-error @below {{'scf.forall' op has lower bounds other than 0 or steps other than 1}}
  scf.forall (%i) = (1) to (4) step (1) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_rank(%o: vector<16xf16>, %out: memref<32xf16>) {
  scf.forall (%i) in (4) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    %buffer = bufferization.to_buffer %tile : tensor<64x32xf16> to memref<64x32xf16>
    %row = memref.subview %buffer[0, 0] [1, 32] [1, 1] : memref<64x32xf16> to memref<32xf16, strided<[1]>>
    // expected-error @below {{'memref.copy' op copies a tile the lanes hold ('tensor<64x32xf16>') into a destination of rank 1; the lanes can store it only at its own rank}}
    memref.copy %row, %out : memref<32xf16, strided<[1]>> to memref<32xf16>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_linear_mapping(%o: vector<16xf16>) {
  // expected-error @below {{'scf.forall' op maps a dimension to #gpu.block<linear_dim_0>; a grid is launched with #gpu.block<x>, <y> or <z>}}
  scf.forall (%i) in (4) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.block<linear_dim_0>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_repeated_mapping(%o: vector<16xf16>) {
  // expected-error @below {{'scf.forall' op maps two dimensions to #gpu.block<x>}}
  scf.forall (%i, %j) in (4, 2) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.block<x>, #gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_nested(%o: vector<16xf16>) {
  scf.forall (%i) in (4) {
    // expected-error @below {{'scf.forall' op is nested in another grid ('scf.forall'); a launch's grid is its outermost}}
    scf.forall (%j) in (2) {
      %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    } {mapping = [#gpu.block<y>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_rank_zero(%o: vector<16xf16>, %s: vector<1xf32>, %out: memref<f32>) {
  scf.forall (%i) in (4) {
    %output = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    %tile = sage.from_lanes %s {layout = #sage.replicated} : vector<1xf32> -> tensor<f32>
    %buffer = bufferization.to_buffer %tile : tensor<f32> to memref<f32>
    // expected-error @below {{'memref.copy' op copies a rank-0 tile the lanes hold; they store tiles of rank 1 or more}}
    memref.copy %buffer, %out : memref<f32> to memref<f32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_buffer_per_thread(%o: vector<16xf16>) {
  scf.forall (%i) in (4) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
    // expected-error @below {{'memref.alloc' op would run in every thread of the launched grid; only the lanes' stores of their fragments may}}
    %scratch = memref.alloc() : memref<64xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A grid of clusters (sage-tile-attention's cluster-ctas) launches them
// along x, the cluster's shape on the launch.
#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
// CHECK-LABEL: func @clusters
//  CHECK-SAME:   (%{{[^:]*}}: vector<16xf16>, %[[BLOCKS:[^:]*]]: index)
//   CHECK-DAG:   %[[ONE:.*]] = arith.constant 1 : index
//   CHECK-DAG:   %[[TWO:.*]] = arith.constant 2 : index
//       CHECK:   gpu.launch clusters(%{{[a-z0-9, %]+}}) in (%{{[a-z0-9]+}} = %[[TWO]], %{{[a-z0-9]+}} = %[[ONE]], %{{[a-z0-9]+}} = %[[ONE]])
//  CHECK-SAME:     blocks(%{{[a-z0-9, %]+}}) in (%{{[a-z0-9]+}} = %[[BLOCKS]], %{{[a-z0-9]+}} = %[[ONE]], %{{[a-z0-9]+}} = %[[ONE]])
func.func @clusters(%o: vector<16xf16>, %blocks: index) {
  scf.forall (%i) in (%blocks) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.block<x>], sage.cluster_ctas = 2 : i64}
  return
}

// -----

#acc = #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                                          b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4>
func.func @negative_clusters_off_x(%o: vector<16xf16>) {
  // expected-error @below {{'scf.forall' op asks for clusters of 2 CTAs along #gpu.block<x>; a grid mapped to x launches clusters of 1 to 8}}
  scf.forall (%i) in (4) {
    %tile = sage.from_lanes %o {layout = #acc} : vector<16xf16> -> tensor<64x32xf16>
  } {mapping = [#gpu.block<y>], sage.cluster_ctas = 2 : i64}
  return
}
