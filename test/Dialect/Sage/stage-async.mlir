// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// A group of stagings issued together (the next block's K tile and its
// row dots) and completed at one await (docs/Levels.md, L3).
// CHECK-LABEL: func @stage_next_block
//  CHECK-SAME: (%[[WINDOW:.*]]: memref<?x64xi8, strided<[64, 1], offset: ?>>, %[[TILE:.*]]: memref<64x64xi8, #gpu.address_space<workgroup>>, %[[RAW:.*]]: memref<64x64xf16>, %[[MEAN:.*]]: memref<64xf32>, %[[DOTS:.*]]: memref<64xf32, #gpu.address_space<workgroup>>)
//       CHECK:   %[[GROUP:.*]] = sage.stage_async {
//       CHECK:     %[[ZERO:.*]] = arith.constant 0 : i8
//       CHECK:     sage.stage_tile %[[WINDOW]] pad(%[[ZERO]] : i8) into %[[TILE]]
//       CHECK:     linalg.matvec ins(%[[RAW]], %[[MEAN]] : {{.*}}) outs(%[[DOTS]] : {{.*}})
//       CHECK:   }
//       CHECK:   memref.load %[[RAW]]
//       CHECK:   sage.stage_await %[[GROUP]]
func.func @stage_next_block(%window: memref<?x64xi8, strided<[64, 1], offset: ?>>,
                            %tile: memref<64x64xi8, #gpu.address_space<workgroup>>,
                            %raw: memref<64x64xf16>, %mean: memref<64xf32>,
                            %dots: memref<64xf32, #gpu.address_space<workgroup>>) {
  %group = sage.stage_async {
    %zero = arith.constant 0 : i8
    sage.stage_tile %window pad(%zero : i8) into %tile
        : memref<?x64xi8, strided<[64, 1], offset: ?>> into memref<64x64xi8, #gpu.address_space<workgroup>>
    linalg.matvec ins(%raw, %mean : memref<64x64xf16>, memref<64xf32>)
                  outs(%dots : memref<64xf32, #gpu.address_space<workgroup>>)
  }
  %c0 = arith.constant 0 : index
  %other = memref.load %raw[%c0, %c0] : memref<64x64xf16>
  sage.stage_await %group
  return
}

// -----

func.func @negative_reads_workgroup(%tile: memref<64x64xi8, #gpu.address_space<workgroup>>,
                                    %into: memref<64x64xi8, #gpu.address_space<workgroup>>) {
  // expected-error @below {{expected stagings into workgroup tiles of values outside workgroup memory (sage.stage_tile, linalg products on buffers) and pure ops, got linalg.copy}}
  %group = sage.stage_async {
    // expected-note @below {{here}}
    linalg.copy ins(%tile : memref<64x64xi8, #gpu.address_space<workgroup>>) outs(%into : memref<64x64xi8, #gpu.address_space<workgroup>>)
  }
  sage.stage_await %group
  return
}

// -----

func.func @negative_writes_global(%window: memref<64x64xi8>, %out: memref<64x64xi8>) {
  // expected-error @below {{expected stagings into workgroup tiles of values outside workgroup memory (sage.stage_tile, linalg products on buffers) and pure ops, got memref.copy}}
  %group = sage.stage_async {
    // expected-note @below {{here}}
    memref.copy %window, %out : memref<64x64xi8> to memref<64x64xi8>
  }
  sage.stage_await %group
  return
}

// -----

func.func @negative_empty() {
  // expected-error @below {{stages nothing}}
  %group = sage.stage_async {
    %c0 = arith.constant 0 : index
  }
  sage.stage_await %group
  return
}

// -----

func.func @negative_never_awaited(%window: memref<64x64xi8>, %tile: memref<64x64xi8, #gpu.address_space<workgroup>>) {
  // expected-error @below {{expected its group awaited by one sage.stage_await in the same block}}
  %group = sage.stage_async {
    sage.stage_tile %window into %tile : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @negative_awaited_elsewhere(%window: memref<64x64xi8>, %tile: memref<64x64xi8, #gpu.address_space<workgroup>>, %cond: i1) {
  // expected-error @below {{expected its group awaited by one sage.stage_await in the same block}}
  %group = sage.stage_async {
    sage.stage_tile %window into %tile : memref<64x64xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
  }
  scf.if %cond {
    sage.stage_await %group
  }
  return
}

// -----

func.func @negative_await_argument(%group: !sage.stage_group) {
  // expected-error @below {{expected the group of a sage.stage_async in the same block}}
  sage.stage_await %group
  return
}
