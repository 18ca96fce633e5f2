// RUN: sage-opt %s --sage-store-stage-order --cse --split-input-file | FileCheck %s

// K's window, block j of 64 keys, staged as the core matrices a wgmma reads
// ([4, 64, 16]: element (c, r, x) is window element (r, 16 c + x)): K is
// stored once before the grid as [batch, heads, blocks, 4, 64, 16], each
// block its stage's bytes in order, zeros past the last key, and the
// staging copies block j of it as it is. The tile's rows and columns never
// leave the block's 64 rows and K's 64 channels: only the key is checked
// against K's end, and a thread's 16 bytes read one contiguous run.
//   CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1, d2) -> (d1)>
//   CHECK-DAG: #[[$COLUMN:.*]] = affine_map<(d0, d1, d2) -> (d0 * 16 + d2)>
// CHECK-LABEL: func @keys
//  CHECK-SAME: (%[[K:[^:]*]]: tensor<?x?x?x64xi8>
//       CHECK:   %[[KEYS:.*]] = tensor.dim %[[K]], %c2
//       CHECK:   %[[BLOCKS:.*]] = arith.ceildivui %[[KEYS]], %c64
//       CHECK:   %[[EMPTY:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %[[BLOCKS]]) : tensor<?x?x?x4x64x16xi8>
//       CHECK:   %[[STORED:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x?x?x4x64x16xi8>)
//       CHECK:     %[[C:.*]] = linalg.index 3
//       CHECK:     %[[R:.*]] = linalg.index 4
//       CHECK:     %[[X:.*]] = linalg.index 5
//       CHECK:     %[[WROW:.*]] = affine.apply #[[$ROW]](%[[C]], %[[R]], %[[X]])
//       CHECK:     %[[WCOL:.*]] = affine.apply #[[$COLUMN]](%[[C]], %[[R]], %[[X]])
//       CHECK:     %[[BATCH:.*]] = linalg.index 0
//       CHECK:     %[[HEAD:.*]] = linalg.index 1
//       CHECK:     %[[J:.*]] = linalg.index 2
//       CHECK:     %[[FIRST:.*]] = arith.muli %[[J]], %{{.*}}
//       CHECK:     %[[KEY:.*]] = arith.addi %[[FIRST]], %[[WROW]]
//       CHECK:     %[[INSIDE:.*]] = arith.cmpi ult, %[[KEY]], %[[KEYS]]
//   CHECK-NOT:     arith.andi
//       CHECK:     %[[READ_KEY:.*]] = arith.select %[[INSIDE]], %[[KEY]], %c0
//   CHECK-NOT:     arith.select
//       CHECK:     %[[VALUE:.*]] = tensor.extract %[[K]][%[[BATCH]], %[[HEAD]], %[[READ_KEY]], %[[WCOL]]]
//       CHECK:     %[[OUT:.*]] = arith.select %[[INSIDE]], %[[VALUE]], %c0_i8
//       CHECK:     linalg.yield %[[OUT]]
//       CHECK:   scf.forall (%[[B:.*]], %[[H:.*]]) in
//       CHECK:     scf.for %[[BLOCK:.*]] = %c0
//   CHECK-NOT:       tensor.extract_slice %[[K]]
//       CHECK:       %[[TILE:.*]] = tensor.extract_slice %[[STORED]][%[[B]], %[[H]], %[[BLOCK]], 0, 0, 0] [1, 1, 1, 4, 64, 16] [1, 1, 1, 1, 1, 1] : tensor<?x?x?x4x64x16xi8> to tensor<4x64x16xi8>
//       CHECK:       sage.stage_tile %[[TILE]] pad(%c0_i8 : i8) into %{{.*}} : tensor<4x64x16xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
func.func @keys(%k: tensor<?x?x?x64xi8>, %batches: index, %heads: index,
                %out: tensor<?x?x4x64x16xi8>) -> tensor<?x?x4x64x16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i8
  %keys = tensor.dim %k, %c2 : tensor<?x?x?x64xi8>
  %blocks = arith.ceildivui %keys, %c64 : index
  %r = scf.forall (%b, %h) in (%batches, %heads) shared_outs(%o = %out) -> (tensor<?x?x4x64x16xi8>) {
    %init = tensor.empty() : tensor<4x64x16xi8>
    %last = scf.for %j = %c0 to %blocks step %c1 iter_args(%acc = %init) -> (tensor<4x64x16xi8>) {
      %first = arith.muli %j, %c64 : index
      %left = arith.subi %keys, %first : index
      %count = arith.minsi %left, %c64 : index
      %window = tensor.extract_slice %k[%b, %h, %first, 0] [1, 1, %count, 64] [1, 1, 1, 1]
          : tensor<?x?x?x64xi8> to tensor<?x64xi8>
      %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %tile = sage.stage_tile %window pad(%zero : i8) into %buffer {indexing_map = #core}
          : tensor<?x64xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      scf.yield %tile : tensor<4x64x16xi8>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %last into %o[%b, %h, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1]
          : tensor<4x64x16xi8> into tensor<?x?x4x64x16xi8>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %r : tensor<?x?x4x64x16xi8>
}

// -----

// K of 48 channels in a tile of 64 columns: columns 48 to 63 lie past K's
// channels, so the column is checked too and clamped where it does.
//   CHECK-DAG: #[[$COLUMN:.*]] = affine_map<(d0, d1, d2) -> (d0 * 16 + d2)>
// CHECK-LABEL: func @keys_narrower_than_tile
//  CHECK-SAME: (%[[K:[^:]*]]: tensor<?x?x?x48xi8>
//       CHECK:   linalg.generic
//       CHECK:     %[[WCOL:.*]] = affine.apply #[[$COLUMN]]
//       CHECK:     %[[KEY:.*]] = arith.addi
//       CHECK:     %[[IN_K:.*]] = arith.cmpi ult, %[[KEY]], %{{.*}}
//       CHECK:     %[[IN_CHANNELS:.*]] = arith.cmpi ult, %[[WCOL]], %c48
//       CHECK:     %[[INSIDE:.*]] = arith.andi %[[IN_K]], %[[IN_CHANNELS]]
//       CHECK:     %[[READ_KEY:.*]] = arith.select %[[INSIDE]], %[[KEY]], %c0
//       CHECK:     %[[READ_COL:.*]] = arith.select %[[INSIDE]], %[[WCOL]], %c0
//       CHECK:     tensor.extract %[[K]][%{{.*}}, %{{.*}}, %[[READ_KEY]], %[[READ_COL]]]
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
func.func @keys_narrower_than_tile(%k: tensor<?x?x?x48xi8>, %batches: index, %heads: index,
                %out: tensor<?x?x4x64x16xi8>) -> tensor<?x?x4x64x16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i8
  %keys = tensor.dim %k, %c2 : tensor<?x?x?x48xi8>
  %blocks = arith.ceildivui %keys, %c64 : index
  %r = scf.forall (%b, %h) in (%batches, %heads) shared_outs(%o = %out) -> (tensor<?x?x4x64x16xi8>) {
    %init = tensor.empty() : tensor<4x64x16xi8>
    %last = scf.for %j = %c0 to %blocks step %c1 iter_args(%acc = %init) -> (tensor<4x64x16xi8>) {
      %first = arith.muli %j, %c64 : index
      %left = arith.subi %keys, %first : index
      %count = arith.minsi %left, %c64 : index
      %window = tensor.extract_slice %k[%b, %h, %first, 0] [1, 1, %count, 48] [1, 1, 1, 1]
          : tensor<?x?x?x48xi8> to tensor<?x48xi8>
      %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %tile = sage.stage_tile %window pad(%zero : i8) into %buffer {indexing_map = #core}
          : tensor<?x48xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      scf.yield %tile : tensor<4x64x16xi8>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %last into %o[%b, %h, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1]
          : tensor<4x64x16xi8> into tensor<?x?x4x64x16xi8>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %r : tensor<?x?x4x64x16xi8>
}

// -----

// V stored for the P V MMA ([batch, heads, channels, groups, 32]), a block
// two groups (64 key positions) of every channel, collapsed into V^T's
// [channels, positions] window: a position splits into its group and its
// place in it, and the groups past the last are zeros.
// CHECK-LABEL: func @values
//  CHECK-SAME: (%[[V:[^:]*]]: tensor<?x?x64x?x32xf8E4M3FN>
//       CHECK:   %[[GROUPS:.*]] = tensor.dim %[[V]], %c3
//       CHECK:   %[[BLOCKS:.*]] = arith.ceildivui %[[GROUPS]], %c2
//       CHECK:   %[[EMPTY:.*]] = tensor.empty(%{{.*}}, %{{.*}}, %[[BLOCKS]]) : tensor<?x?x?x4x64x16xf8E4M3FN>
//       CHECK:   %[[STORED:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<?x?x?x4x64x16xf8E4M3FN>)
//       CHECK:     affine.apply
//       CHECK:     %[[POSITION:.*]] = affine.apply
//       CHECK:     %[[IN_GROUP:.*]] = arith.remui %[[POSITION]], %c32
//       CHECK:     %[[GROUP:.*]] = arith.divui %[[POSITION]], %c32
//       CHECK:     %[[J:.*]] = linalg.index 2
//       CHECK:     %[[FIRST:.*]] = arith.muli %[[J]], %c2
//       CHECK:     %[[STORED_GROUP:.*]] = arith.addi %[[FIRST]], %[[GROUP]]
//       CHECK:     arith.cmpi ult, %[[STORED_GROUP]], %[[GROUPS]]
//       CHECK:     tensor.extract %[[V]]
//       CHECK:   scf.forall
//       CHECK:     %[[TILE:.*]] = tensor.extract_slice %[[STORED]][%{{.*}}, %{{.*}}, %{{.*}}, 0, 0, 0] [1, 1, 1, 4, 64, 16]
//   CHECK-NOT:     tensor.collapse_shape
//       CHECK:     sage.stage_tile %[[TILE]] pad(%{{.*}} : f8E4M3FN) into %{{.*}} : tensor<4x64x16xf8E4M3FN> into
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
func.func @values(%v: tensor<?x?x64x?x32xf8E4M3FN>, %batches: index, %heads: index,
                  %out: tensor<?x?x4x64x16xf8E4M3FN>) -> tensor<?x?x4x64x16xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f8E4M3FN
  %groups = tensor.dim %v, %c3 : tensor<?x?x64x?x32xf8E4M3FN>
  %blocks = arith.ceildivui %groups, %c2 : index
  %r = scf.forall (%b, %h) in (%batches, %heads) shared_outs(%o = %out) -> (tensor<?x?x4x64x16xf8E4M3FN>) {
    %init = tensor.empty() : tensor<4x64x16xf8E4M3FN>
    %last = scf.for %j = %c0 to %blocks step %c1 iter_args(%acc = %init) -> (tensor<4x64x16xf8E4M3FN>) {
      %first = arith.muli %j, %c2 : index
      %left = arith.subi %groups, %first : index
      %count = arith.minsi %left, %c2 : index
      %slice = tensor.extract_slice %v[%b, %h, 0, %first, 0] [1, 1, 64, %count, 32] [1, 1, 1, 1, 1]
          : tensor<?x?x64x?x32xf8E4M3FN> to tensor<64x?x32xf8E4M3FN>
      %window = tensor.collapse_shape %slice [[0], [1, 2]] : tensor<64x?x32xf8E4M3FN> into tensor<64x?xf8E4M3FN>
      %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xf8E4M3FN>
      %tile = sage.stage_tile %window pad(%zero : f8E4M3FN) into %buffer {indexing_map = #core}
          : tensor<64x?xf8E4M3FN> into tensor<4x64x16xf8E4M3FN> -> tensor<4x64x16xf8E4M3FN>
      scf.yield %tile : tensor<4x64x16xf8E4M3FN>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %last into %o[%b, %h, 0, 0, 0] [1, 1, 4, 64, 16] [1, 1, 1, 1, 1]
          : tensor<4x64x16xf8E4M3FN> into tensor<?x?x4x64x16xf8E4M3FN>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %r : tensor<?x?x4x64x16xf8E4M3FN>
}

// -----

// Left alone: a window that starts off a block boundary (64 j + 8), one
// whose keys are counted by another operand, one of an operand computed
// in the grid, one padded with a value computed in the grid, one of a
// dynamic feature dimension (a padded element would read its index 0), and
// a plain copy.
// CHECK-LABEL: func @negative_windows
//   CHECK-NOT:   linalg.generic
//       CHECK:   sage.stage_tile {{.*}} {indexing_map = #{{.*}}}
//       CHECK:   sage.stage_tile {{.*}} {indexing_map = #{{.*}}}
//       CHECK:   sage.stage_tile {{.*}} {indexing_map = #{{.*}}}
//       CHECK:   sage.stage_tile {{.*}} {indexing_map = #{{.*}}}
//       CHECK:   sage.stage_tile {{.*}} {indexing_map = #{{.*}}}
//       CHECK:   sage.stage_tile %{{.*}} pad(%{{.*}} : i8) into %{{.*}} : tensor<?x64xi8> into tensor<64x64xi8>
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
func.func private @use(tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<64x64xi8>)
func.func @negative_windows(%k: tensor<?x?x?x64xi8>, %other: tensor<?x64xi8>, %batches: index,
                            %blocks: index, %wide: tensor<?x?x?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0 : i8
  %keys = tensor.dim %k, %c2 : tensor<?x?x?x64xi8>
  %others = tensor.dim %other, %c0 : tensor<?x64xi8>
  scf.forall (%b) in (%batches) {
    scf.for %j = %c0 to %blocks step %c1 {
      %block = arith.muli %j, %c64 : index
      %first = arith.addi %block, %c8 : index
      %left = arith.subi %keys, %first : index
      %count = arith.minsi %left, %c64 : index
      %shifted = tensor.extract_slice %k[%b, 0, %first, 0] [1, 1, %count, 64] [1, 1, 1, 1]
          : tensor<?x?x?x64xi8> to tensor<?x64xi8>
      %b0 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %t0 = sage.stage_tile %shifted pad(%zero : i8) into %b0 {indexing_map = #core}
          : tensor<?x64xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      %left_other = arith.subi %others, %block : index
      %count_other = arith.minsi %left_other, %c64 : index
      %miscounted = tensor.extract_slice %k[%b, 0, %block, 0] [1, 1, %count_other, 64] [1, 1, 1, 1]
          : tensor<?x?x?x64xi8> to tensor<?x64xi8>
      %b1 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %t1 = sage.stage_tile %miscounted pad(%zero : i8) into %b1 {indexing_map = #core}
          : tensor<?x64xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      %computed = tensor.empty(%keys) : tensor<?x64xi8>
      %left_computed = arith.subi %keys, %block : index
      %count_computed = arith.minsi %left_computed, %c64 : index
      %inner = tensor.extract_slice %computed[%block, 0] [%count_computed, 64] [1, 1]
          : tensor<?x64xi8> to tensor<?x64xi8>
      %b2 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %t2 = sage.stage_tile %inner pad(%zero : i8) into %b2 {indexing_map = #core}
          : tensor<?x64xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      %block_pad = arith.index_cast %j : index to i8
      %window = tensor.extract_slice %k[%b, 0, %block, 0] [1, 1, %count, 64] [1, 1, 1, 1]
          : tensor<?x?x?x64xi8> to tensor<?x64xi8>
      %b4 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %t4 = sage.stage_tile %window pad(%block_pad : i8) into %b4 {indexing_map = #core}
          : tensor<?x64xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      %wide_keys = tensor.dim %wide, %c2 : tensor<?x?x?x?xi8>
      %wide_left = arith.subi %wide_keys, %block : index
      %wide_count = arith.minsi %wide_left, %c64 : index
      %c3 = arith.constant 3 : index
      %wide_features = tensor.dim %wide, %c3 : tensor<?x?x?x?xi8>
      %wide_window = tensor.extract_slice %wide[%b, 0, %block, 0] [1, 1, %wide_count, %wide_features] [1, 1, 1, 1]
          : tensor<?x?x?x?xi8> to tensor<?x?xi8>
      %b5 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xi8>
      %t5 = sage.stage_tile %wide_window pad(%zero : i8) into %b5 {indexing_map = #core}
          : tensor<?x?xi8> into tensor<4x64x16xi8> -> tensor<4x64x16xi8>
      %plain = tensor.extract_slice %k[%b, 0, %block, 0] [1, 1, %count, 64] [1, 1, 1, 1]
          : tensor<?x?x?x64xi8> to tensor<?x64xi8>
      %b3 = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
      %t3 = sage.stage_tile %plain pad(%zero : i8) into %b3
          : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
      func.call @use(%t0, %t1, %t2, %t4, %t5, %t3) : (tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<4x64x16xi8>, tensor<64x64xi8>) -> ()
    }
  } {mapping = [#gpu.block<x>]}
  return
}
