// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// The promote level's copy of an operand window into a CTA-wide tile
// (docs/Levels.md, L3): on tensors it yields the tile, on buffers it
// writes workgroup memory; a whole window needs no padding.
// CHECK-LABEL: func @stage
//  CHECK-SAME: (%[[WINDOW:.*]]: tensor<?x64xi8>, %[[WHOLE:.*]]: tensor<16x32xf16>, %[[VIEW:.*]]: memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>>, %[[SHARED:.*]]: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>)
//       CHECK:   %[[ZERO:.*]] = arith.constant 0 : i8
//       CHECK:   %[[BUFFER:.*]] = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
//       CHECK:   %[[TILE:.*]] = sage.stage_tile %[[WINDOW]] pad(%[[ZERO]] : i8) into %[[BUFFER]] : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
//       CHECK:   sage.stage_tile %[[WHOLE]] into %{{.*}} : tensor<16x32xf16> into tensor<16x32xf16> -> tensor<16x32xf16>
//       CHECK:   sage.stage_tile %[[VIEW]] pad(%{{.*}} : f8E4M3FN) into %[[SHARED]] : memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
//   CHECK-NOT:   #gpu.address_space<workgroup>> ->
func.func @stage(%window: tensor<?x64xi8>, %whole: tensor<16x32xf16>,
                 %view: memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>>,
                 %shared: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>)
    -> (tensor<64x64xi8>, tensor<16x32xf16>) {
  %zero = arith.constant 0 : i8
  %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
  %tile = sage.stage_tile %window pad(%zero : i8) into %buffer
      : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  %empty = tensor.empty() : tensor<16x32xf16>
  %copy = sage.stage_tile %whole into %empty
      : tensor<16x32xf16> into tensor<16x32xf16> -> tensor<16x32xf16>
  %fzero = arith.constant 0.0 : f8E4M3FN
  sage.stage_tile %view pad(%fzero : f8E4M3FN) into %shared
      : memref<?x64xf8E4M3FN, strided<[64, 1], offset: ?>> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
  return %tile, %copy : tensor<64x64xi8>, tensor<16x32xf16>
}

// -----

// V^T in P's key order: tile element (d, p) is window element (key(p), d).
// CHECK-LABEL: func @stage_rearranged
//  CHECK-SAME: (%[[WINDOW:.*]]: tensor<?x64xf8E4M3FN>, %[[VIEW:.*]]: memref<?x64xf8E4M3FN>, %[[SHARED:.*]]: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>, %[[ZERO:.*]]: f8E4M3FN)
//       CHECK:   sage.stage_tile %[[WINDOW]] pad(%[[ZERO]] : f8E4M3FN) into %{{.*}} {indexing_map = #[[$KEYS:.*]]} : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
//       CHECK:   sage.stage_tile %[[VIEW]] pad(%[[ZERO]] : f8E4M3FN) into %[[SHARED]] {indexing_map = #[[$KEYS]]} : memref<?x64xf8E4M3FN> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
#keys = affine_map<(d, p) -> (p floordiv 32 * 32 + ((p mod 32) floordiv 16) * 16 + ((p mod 4) floordiv 2) * 8 + ((p mod 16) floordiv 4) * 2 + p mod 2, d)>
func.func @stage_rearranged(%window: tensor<?x64xf8E4M3FN>, %view: memref<?x64xf8E4M3FN>,
                            %shared: memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>,
                            %zero: f8E4M3FN) -> tensor<64x64xf8E4M3FN> {
  %buffer = bufferization.alloc_tensor() {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xf8E4M3FN>
  %tile = sage.stage_tile %window pad(%zero : f8E4M3FN) into %buffer {indexing_map = #keys}
      : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN> -> tensor<64x64xf8E4M3FN>
  sage.stage_tile %view pad(%zero : f8E4M3FN) into %shared {indexing_map = #keys}
      : memref<?x64xf8E4M3FN> into memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
  return %tile : tensor<64x64xf8E4M3FN>
}

// -----

func.func @negative_map_arity(%window: tensor<?x64xi8>, %tile: tensor<64x64xi8>, %zero: i8) {
  // expected-error @below {{expected an indexing_map from the tile's 2 indices to the window's 2, got affine_map<(d0, d1) -> (d1)>}}
  %r = sage.stage_tile %window pad(%zero : i8) into %tile {indexing_map = affine_map<(d0, d1) -> (d1)>} : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_map_without_padding(%window: tensor<64x64xi8>, %tile: tensor<64x64xi8>) {
  // expected-error @below {{needs a padding value with an indexing_map}}
  %r = sage.stage_tile %window into %tile {indexing_map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<64x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_rank(%window: tensor<?xi8>, %tile: tensor<64x64xi8>, %zero: i8) {
  // expected-error @below {{expected source and dest of one rank, got 'tensor<?xi8>' and 'tensor<64x64xi8>'}}
  %r = sage.stage_tile %window pad(%zero : i8) into %tile : tensor<?xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_mixed(%window: tensor<?x64xi8>, %shared: memref<64x64xi8, #gpu.address_space<workgroup>>, %zero: i8) {
  // expected-error @below {{expected source and dest both tensors or both buffers, got 'tensor<?x64xi8>' and 'memref<64x64xi8, #gpu.address_space<workgroup>>'}}
  sage.stage_tile %window pad(%zero : i8) into %shared : tensor<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @negative_no_result(%window: tensor<?x64xi8>, %tile: tensor<64x64xi8>, %zero: i8) {
  // expected-error @below {{on tensors yields the tile, of dest's type 'tensor<64x64xi8>'}}
  sage.stage_tile %window pad(%zero : i8) into %tile : tensor<?x64xi8> into tensor<64x64xi8>
  return
}

// -----

func.func @negative_result_on_buffers(%view: memref<?x64xi8>, %shared: memref<64x64xi8, #gpu.address_space<workgroup>>, %zero: i8) {
  // expected-error @below {{on buffers yields nothing}}
  %r = sage.stage_tile %view pad(%zero : i8) into %shared : memref<?x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_global_dest(%view: memref<?x64xi8>, %global: memref<64x64xi8>, %zero: i8) {
  // expected-error @below {{stages into workgroup memory (#gpu.address_space<workgroup>), got dest of type 'memref<64x64xi8>'}}
  sage.stage_tile %view pad(%zero : i8) into %global : memref<?x64xi8> into memref<64x64xi8>
  return
}

// -----

func.func @negative_element_type(%window: tensor<?x64xi8>, %tile: tensor<64x64xf16>, %zero: i8) {
  // expected-error @below {{expected source and dest of one element type, got 'tensor<?x64xi8>' and 'tensor<64x64xf16>'}}
  %r = sage.stage_tile %window pad(%zero : i8) into %tile : tensor<?x64xi8> into tensor<64x64xf16> -> tensor<64x64xf16>
  return
}

// -----

func.func @negative_dynamic_tile(%window: tensor<?x64xi8>, %tile: tensor<?x64xi8>, %zero: i8) {
  // expected-error @below {{expected a tile of static shape, got 'tensor<?x64xi8>'}}
  %r = sage.stage_tile %window pad(%zero : i8) into %tile : tensor<?x64xi8> into tensor<?x64xi8> -> tensor<?x64xi8>
  return
}

// -----

func.func @negative_larger_window(%window: tensor<?x128xi8>, %tile: tensor<64x64xi8>, %zero: i8) {
  // expected-error @below {{expected a window no larger than the tile 'tensor<64x64xi8>', got 'tensor<?x128xi8>'}}
  %r = sage.stage_tile %window pad(%zero : i8) into %tile : tensor<?x128xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_padding_type(%window: tensor<?x64xi8>, %tile: tensor<64x64xi8>, %zero: f16) {
  // expected-error @below {{expected padding of the element type 'i8', got 'f16'}}
  %r = sage.stage_tile %window pad(%zero : f16) into %tile : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}

// -----

func.func @negative_no_padding(%window: tensor<?x64xi8>, %tile: tensor<64x64xi8>) {
  // expected-error @below {{needs a padding value: the window 'tensor<?x64xi8>' may not fill the tile 'tensor<64x64xi8>'}}
  %r = sage.stage_tile %window into %tile : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
  return
}
