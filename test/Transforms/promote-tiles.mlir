// RUN: sage-opt %s --sage-promote-tiles -split-input-file -verify-diagnostics | FileCheck %s

// A grid after sage-distribute-tiles (docs/Levels.md, L3): the lanes read
// Q's padded window before the K/V loop, and in it K's window, V^T (a
// transpose of V's window) and dS (a matvec of the raw K window). The
// windows are staged in workgroup memory, dS is computed there over the
// window's rows, all gathered at K's copy so that they are waited for
// together; the reads of the staged Q (and what only they feed) leave the
// loop.
// CHECK-LABEL: func @grid
//  CHECK-SAME: (%[[Q:[^:]*]]: tensor<?x64xi8>, %[[K:[^:]*]]: tensor<?x64xi8>, %[[V:[^:]*]]: tensor<?x64xf8E4M3FN>, %[[KRAW:[^:]*]]: tensor<?x64xf16>, %[[MEAN:[^:]*]]: tensor<64xf32>
//       CHECK: scf.forall
//       CHECK:   %[[QBUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
//       CHECK:   %[[QTILE:.*]] = sage.stage_tile %[[Q]] pad(%{{.*}} : i8) into %[[QBUF]] : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
//       CHECK:   %[[QREAD:.*]] = vector.transfer_read %[[QTILE]]
//       CHECK:   %[[QSUM:.*]] = arith.addi %[[QREAD]], %[[QREAD]]
//       CHECK:   scf.for
//       CHECK:     %[[KBUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
//       CHECK:     %[[KTILE:.*]] = sage.stage_tile %[[K]] pad(%{{.*}} : i8) into %[[KBUF]]
//  CHECK-NEXT:     %[[VBUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xf8E4M3FN>
//  CHECK-NEXT:     %[[VTILE:.*]] = sage.stage_tile %[[V]] pad(%{{.*}} : f8E4M3FN) into %[[VBUF]] : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN>
//  CHECK-NEXT:     %[[SBUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64xf32>
//  CHECK-NEXT:     %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[SBUF]] : tensor<64xf32>)
//  CHECK-NEXT:     %[[PART:.*]] = tensor.extract_slice %[[INIT]][0] [%[[ROWS:.*]]] [1] : tensor<64xf32> to tensor<?xf32>
//  CHECK-NEXT:     %[[PRODUCT:.*]] = linalg.matvec ins(%[[KRAW]], %[[MEAN]] : tensor<?x64xf16>, tensor<64xf32>) outs(%[[PART]] : tensor<?xf32>)
//  CHECK-NEXT:     %[[DS:.*]] = tensor.insert_slice %[[PRODUCT]] into %[[INIT]][0] [%[[ROWS]]] [1]
//  CHECK-SAME:       tensor<?xf32> into tensor<64xf32>
//       CHECK:     vector.transfer_read %[[KTILE]]
//       CHECK:     tensor.extract %[[DS]]
//       CHECK:     %[[VT:.*]] = linalg.transpose ins(%[[VTILE]] : tensor<64x64xf8E4M3FN>)
//       CHECK:     tensor.extract %[[VT]]
//       CHECK:     arith.addi %[[QSUM]], %{{.*}}
//   CHECK-NOT: tensor.pad
func.func @grid(%q: tensor<?x64xi8>, %k: tensor<?x64xi8>, %v: tensor<?x64xf8E4M3FN>,
                %kraw: tensor<?x64xf16>, %mean: tensor<64xf32>, %rows: index,
                %blocks: index, %lane: index, %out: tensor<4xi8>) -> tensor<4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i8
  %f0 = arith.constant 0.0 : f8E4M3FN
  %z = arith.constant 0.0 : f32
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<4xi8>) {
    %qp = tensor.pad %q low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %i0 : i8
    } : tensor<?x64xi8> to tensor<64x64xi8>
    %acc = scf.for %it = %c0 to %blocks step %c1 iter_args(%a = %o) -> (tensor<4xi8>) {
      %kp = tensor.pad %k low[0, 0] high[%rows, 0] {
      ^bb0(%i: index, %j: index):
        tensor.yield %i0 : i8
      } : tensor<?x64xi8> to tensor<64x64xi8>
      %kr = vector.transfer_read %kp[%lane, %c0], %i0 {in_bounds = [true]} : tensor<64x64xi8>, vector<4xi8>
      %krp = tensor.pad %kraw low[0, 0] high[%rows, 0] {
      ^bb0(%i: index, %j: index):
        %h0 = arith.constant 0.0 : f16
        tensor.yield %h0 : f16
      } : tensor<?x64xf16> to tensor<64x64xf16>
      %e = tensor.empty() : tensor<64xf32>
      %init = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
      %ds = linalg.matvec ins(%krp, %mean : tensor<64x64xf16>, tensor<64xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
      %d = tensor.extract %ds[%lane] : tensor<64xf32>
      %vp = tensor.pad %v low[0, 0] high[%rows, 0] {
      ^bb0(%i: index, %j: index):
        tensor.yield %f0 : f8E4M3FN
      } : tensor<?x64xf8E4M3FN> to tensor<64x64xf8E4M3FN>
      %te = tensor.empty() : tensor<64x64xf8E4M3FN>
      %vt = linalg.transpose ins(%vp : tensor<64x64xf8E4M3FN>) outs(%te : tensor<64x64xf8E4M3FN>) permutation = [1, 0]
      %ve = tensor.extract %vt[%lane, %c0] : tensor<64x64xf8E4M3FN>
      %qr = vector.transfer_read %qp[%lane, %c0], %i0 {in_bounds = [true]} : tensor<64x64xi8>, vector<4xi8>
      %sum = arith.addi %qr, %qr : vector<4xi8>
      %use = arith.addi %sum, %kr : vector<4xi8>
      %w = vector.transfer_write %use, %a[%c0] {in_bounds = [true]} : vector<4xi8>, tensor<4xi8>
      %df = arith.fptosi %d : f32 to i8
      %vf = arith.bitcast %ve : f8E4M3FN to i8
      %w2 = tensor.insert %df into %w[%c1] : tensor<4xi8>
      %w3 = tensor.insert %vf into %w2[%c1] : tensor<4xi8>
      scf.yield %w3 : tensor<4xi8>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %acc into %o[0] [4] [1] : tensor<4xi8> into tensor<4xi8>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xi8>
}

// -----

// V^T gathered into P's key order (sage-distribute-tiles' B of P V) and
// read by the lanes: staged rearranged, one copy along the composed map
// (tile element (d, p) is window element (key(p), d)), so the lanes read
// the staged tile itself. A transpose that other ops than lanes' reads
// use, or a gather read by other ops, is not rearranged.
//   CHECK-DAG: #[[$KEYS:.*]] = affine_map<(d0, d1) -> ((d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2, d0)>
// CHECK-LABEL: func @rearranged
//  CHECK-SAME: (%[[V:[^:]*]]: tensor<?x64xf8E4M3FN>
//       CHECK:   %[[BUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[TILE:.*]] = sage.stage_tile %[[V]] pad(%{{.*}} : f8E4M3FN) into %[[BUF]] {indexing_map = #[[$KEYS]]} : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
//   CHECK-NOT:   linalg.generic
//   CHECK-NOT:   linalg.transpose
//       CHECK:   vector.transfer_read %[[TILE]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<64x64xf8E4M3FN>, vector<4xf8E4M3FN>
#keys = affine_map<(d0, d1) -> (d0, d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @rearranged(%v: tensor<?x64xf8E4M3FN>, %rows: index, %blocks: index,
                      %lane: index, %out: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f8E4M3FN
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<4xf8E4M3FN>) {
    %vp = tensor.pad %v low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %f0 : f8E4M3FN
    } : tensor<?x64xf8E4M3FN> to tensor<64x64xf8E4M3FN>
    %te = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vt = linalg.transpose ins(%vp : tensor<64x64xf8E4M3FN>) outs(%te : tensor<64x64xf8E4M3FN>) permutation = [1, 0]
    %ge = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vk = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vt : tensor<64x64xf8E4M3FN>) outs(%ge : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    %read = vector.transfer_read %vk[%lane, %c0], %f0 {in_bounds = [true]} : tensor<64x64xf8E4M3FN>, vector<4xf8E4M3FN>
    %w = vector.transfer_write %read, %o[%c0] {in_bounds = [true]} : vector<4xf8E4M3FN>, tensor<4xf8E4M3FN>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [4] [1] : tensor<4xf8E4M3FN> into tensor<4xf8E4M3FN>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf8E4M3FN>
}

// -----

// V^T stored in P's key order (v_layout): the tile level reads each key at
// its position, sage-distribute-tiles gathers the positions back into P's
// key order. The composed map sends every element to itself, so the
// window is staged by a plain copy, with no indexing_map.
// CHECK-LABEL: func @stored_in_key_order
//  CHECK-SAME: (%[[V:[^:]*]]: tensor<64x?xf8E4M3FN>
//       CHECK:   %[[BUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xf8E4M3FN>
//       CHECK:   %[[TILE:.*]] = sage.stage_tile %[[V]] pad(%{{.*}} : f8E4M3FN) into %[[BUF]] : tensor<64x?xf8E4M3FN> into tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
//   CHECK-NOT:   linalg.generic
//       CHECK:   sage.warp_load_matrices %[[TILE]]
#positions = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 8) floordiv 2) * 4 + ((d1 mod 16) floordiv 8) * 2 + d1 mod 2)>
#keys = affine_map<(d0, d1) -> (d0, d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @stored_in_key_order(%v: tensor<64x?xf8E4M3FN>, %high: index, %blocks: index,
                               %row: index, %out: tensor<16xf8E4M3FN>) -> tensor<16xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f8E4M3FN
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<16xf8E4M3FN>) {
    %vp = tensor.pad %v low[0, 0] high[0, %high] {
    ^bb0(%i: index, %j: index):
      tensor.yield %f0 : f8E4M3FN
    } : tensor<64x?xf8E4M3FN> to tensor<64x64xf8E4M3FN>
    %pe = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vt = linalg.generic {indexing_maps = [#positions, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vp : tensor<64x64xf8E4M3FN>) outs(%pe : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    %ge = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vk = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vt : tensor<64x64xf8E4M3FN>) outs(%ge : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    %read = sage.warp_load_matrices %vk[%row, %c0] rows [0, 0, 0, 0] columns [0, 16, 32, 48] : tensor<64x64xf8E4M3FN> -> vector<16xf8E4M3FN>
    %w = vector.transfer_write %read, %o[%c0] {in_bounds = [true]} : vector<16xf8E4M3FN>, tensor<16xf8E4M3FN>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [16] [1] : tensor<16xf8E4M3FN> into tensor<16xf8E4M3FN>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<16xf8E4M3FN>
}

// -----

// The same V^T read by a wgmma (sm_90a) through descriptors of its core
// matrices ([positions / 16, D, 16]): the chain up to P's key order undoes
// itself and is dropped, so the window is staged along the core-matrix
// gather alone, and the descriptors read the staged tile. (Composed
// whole, the map would keep the two permutations, which the kernel
// cannot copy by rows.)
//       CHECK: #[[$CORE_MAP:.*]] = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
// CHECK-LABEL: func @stored_in_core_matrices
//  CHECK-SAME: (%[[V:[^:]*]]: tensor<64x?xf8E4M3FN>
//       CHECK:   %[[BUF:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<4x64x16xf8E4M3FN>
//       CHECK:   %[[TILE:.*]] = sage.stage_tile %[[V]] pad(%{{.*}} : f8E4M3FN) into %[[BUF]] {indexing_map = #[[$CORE_MAP]]} : tensor<64x?xf8E4M3FN> into tensor<4x64x16xf8E4M3FN> -> tensor<4x64x16xf8E4M3FN>
//   CHECK-NOT:   linalg.generic
//       CHECK:   sage.tile_descriptor %[[TILE]]
#positions = affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 8) floordiv 2) * 4 + ((d1 mod 16) floordiv 8) * 2 + d1 mod 2)>
#keys = affine_map<(d0, d1) -> (d0, d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
#core = affine_map<(d0, d1, d2) -> (d1, d0 * 16 + d2)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @stored_in_core_matrices(%v: tensor<64x?xf8E4M3FN>, %high: index, %blocks: index,
                                   %out: tensor<1xi64>) -> tensor<1xi64> {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant 0.0 : f8E4M3FN
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<1xi64>) {
    %vp = tensor.pad %v low[0, 0] high[0, %high] {
    ^bb0(%i: index, %j: index):
      tensor.yield %f0 : f8E4M3FN
    } : tensor<64x?xf8E4M3FN> to tensor<64x64xf8E4M3FN>
    %pe = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vt = linalg.generic {indexing_maps = [#positions, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vp : tensor<64x64xf8E4M3FN>) outs(%pe : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    %ge = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vk = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vt : tensor<64x64xf8E4M3FN>) outs(%ge : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    %ce = tensor.empty() : tensor<4x64x16xf8E4M3FN>
    %vc = linalg.generic {indexing_maps = [#core, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%vk : tensor<64x64xf8E4M3FN>) outs(%ce : tensor<4x64x16xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<4x64x16xf8E4M3FN>
    %d = sage.tile_descriptor %vc[%c0, %c0] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32,
        a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>}
        : tensor<4x64x16xf8E4M3FN> -> i64
    %w = tensor.insert %d into %o[%c0] : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [1] [1] : tensor<1xi64> into tensor<1xi64>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<1xi64>
}

// -----

// A gather something other than a lane's read uses stays; its window is
// not staged.
// CHECK-LABEL: func @negative_gather_stored
//   CHECK-NOT:   sage.stage_tile
//       CHECK:   linalg.generic
#keys = affine_map<(d0, d1) -> (d0, d1 floordiv 32 * 32 + ((d1 mod 32) floordiv 16) * 16 + ((d1 mod 4) floordiv 2) * 8 + ((d1 mod 16) floordiv 4) * 2 + d1 mod 2)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @negative_gather_stored(%v: tensor<?x64xf8E4M3FN>, %rows: index, %blocks: index,
                                  %out: tensor<64x64xf8E4M3FN>) -> tensor<64x64xf8E4M3FN> {
  %f0 = arith.constant 0.0 : f8E4M3FN
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<64x64xf8E4M3FN>) {
    %vp = tensor.pad %v low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %f0 : f8E4M3FN
    } : tensor<?x64xf8E4M3FN> to tensor<64x64xf8E4M3FN>
    %ge = tensor.empty() : tensor<64x64xf8E4M3FN>
    %vk = linalg.generic {indexing_maps = [#keys, #id], iterator_types = ["parallel", "parallel"]}
        ins(%vp : tensor<64x64xf8E4M3FN>) outs(%ge : tensor<64x64xf8E4M3FN>) {
    ^bb0(%x: f8E4M3FN, %unused: f8E4M3FN):
      linalg.yield %x : f8E4M3FN
    } -> tensor<64x64xf8E4M3FN>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %vk into %o[0, 0] [64, 64] [1, 1] : tensor<64x64xf8E4M3FN> into tensor<64x64xf8E4M3FN>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<64x64xf8E4M3FN>
}

// -----

// Left alone: a pad outside a grid, a pad something other than a lane's
// read uses, a padding value that is not a constant, and a product whose
// initial value is not a fill.
// CHECK-LABEL: func @left_alone
//   CHECK-NOT: sage.stage_tile
//   CHECK-NOT: alloc_tensor
//       CHECK: return
func.func @left_alone(%q: tensor<?x64xi8>, %rows: index, %blocks: index, %lane: index, %p: i8,
                      %m: tensor<64x64xf32>, %x: tensor<64xf32>, %init: tensor<64xf32>,
                      %out: tensor<64x64xi8>) -> (tensor<64x64xi8>, tensor<64x64xi8>) {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i8
  %outside = tensor.pad %q low[0, 0] high[%rows, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %i0 : i8
  } : tensor<?x64xi8> to tensor<64x64xi8>
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<64x64xi8>) {
    %stored = tensor.pad %q low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %i0 : i8
    } : tensor<?x64xi8> to tensor<64x64xi8>
    %variable = tensor.pad %q low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      %s = arith.addi %p, %p : i8
      tensor.yield %s : i8
    } : tensor<?x64xi8> to tensor<64x64xi8>
    %e = vector.transfer_read %variable[%lane, %c0], %i0 {in_bounds = [true]} : tensor<64x64xi8>, vector<4xi8>
    %ds = linalg.matvec ins(%m, %x : tensor<64x64xf32>, tensor<64xf32>) outs(%init : tensor<64xf32>) -> tensor<64xf32>
    %d = tensor.extract %ds[%lane] : tensor<64xf32>
    %w = vector.transfer_write %e, %stored[%c0, %c0] {in_bounds = [true]} : vector<4xi8>, tensor<64x64xi8>
    %df = arith.fptosi %d : f32 to i8
    %w2 = tensor.insert %df into %w[%c0, %c0] : tensor<64x64xi8>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w2 into %o[0, 0] [64, 64] [1, 1] : tensor<64x64xi8> into tensor<64x64xi8>
    }
  } {mapping = [#gpu.block<x>]}
  return %r, %outside : tensor<64x64xi8>, tensor<64x64xi8>
}

// -----

// The op right after the first staged tile (%s0, the scales' first row)
// starts the next window's index chain, whose other ops follow it: the
// chain moves up behind the first tile in its own order, so every value
// is defined before it is used.
// CHECK-LABEL: func @chain_after_first_tile
//       CHECK:   %[[KT:.*]] = sage.stage_tile
//       CHECK:   %[[S0:.*]] = arith.muli %{{.*}}, %c8
//       CHECK:   %[[N:.*]] = tensor.dim %{{.*}}, %c0
//       CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[S0]]
//       CHECK:   %[[COUNT:.*]] = arith.minsi %[[LEFT]], %c8
//       CHECK:   %[[SLICE:.*]] = tensor.extract_slice %{{.*}}[%[[S0]], 0] [%[[COUNT]], 1]
//       CHECK:   sage.stage_tile %[[SLICE]]
func.func @chain_after_first_tile(%k: tensor<?x64xi8>, %s: tensor<?x1xf32>, %rows: index,
                                  %blocks: index, %lane: index, %out: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i8
  %z = arith.constant 0.0 : f32
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<4xf32>) {
    %kp = tensor.pad %k low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %i0 : i8
    } : tensor<?x64xi8> to tensor<64x64xi8>
    %s0 = arith.muli %b, %c8 : index
    %kr = vector.transfer_read %kp[%lane, %c0], %i0 {in_bounds = [true]} : tensor<64x64xi8>, vector<4xi8>
    %n = tensor.dim %s, %c0 : tensor<?x1xf32>
    %left = arith.subi %n, %s0 : index
    %count = arith.minsi %left, %c8 : index
    %slice = tensor.extract_slice %s[%s0, 0] [%count, 1] [1, 1] : tensor<?x1xf32> to tensor<?x1xf32>
    %high = arith.subi %c8, %count : index
    %sp = tensor.pad %slice low[0, 0] high[%high, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : f32
    } : tensor<?x1xf32> to tensor<8x1xf32>
    %sv = tensor.extract %sp[%lane, %c0] : tensor<8x1xf32>
    %kf = vector.extract %kr[0] : i8 from vector<4xi8>
    %kv = arith.sitofp %kf : i8 to f32
    %sum = arith.addf %sv, %kv : f32
    %w = tensor.insert %sum into %o[%c0] : tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [4] [1] : tensor<4xf32> into tensor<4xf32>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xf32>
}

// -----

// A window of INT4 keys not yet packed by sage-pack-int4: stored two to a
// byte, which the copies and reads below this level (a byte an element)
// would misread.
func.func @negative_packed_int4(%k: tensor<?x64xi4>, %rows: index, %blocks: index,
                                %lane: index, %out: tensor<4xi4>) -> tensor<4xi4> {
  %c0 = arith.constant 0 : index
  %i0 = arith.constant 0 : i4
  %r = scf.forall (%b) in (%blocks) shared_outs(%o = %out) -> (tensor<4xi4>) {
    // expected-error @below {{'tensor.pad' op pads a window of 'i4' values, which are stored packed; the levels address whole bytes (sage-pack-int4 stores i4 tiles as their bytes first)}}
    %kp = tensor.pad %k low[0, 0] high[%rows, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %i0 : i4
    } : tensor<?x64xi4> to tensor<64x64xi4>
    %kr = vector.transfer_read %kp[%lane, %c0], %i0 {in_bounds = [true]} : tensor<64x64xi4>, vector<4xi4>
    %w = vector.transfer_write %kr, %o[%c0] {in_bounds = [true]} : vector<4xi4>, tensor<4xi4>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [4] [1] : tensor<4xi4> into tensor<4xi4>
    }
  } {mapping = [#gpu.block<x>]}
  return %r : tensor<4xi4>
}
