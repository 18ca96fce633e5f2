// RUN: sage-opt %s --convert-sage-to-nvvm --canonicalize | FileCheck %s

// convert-sage-to-nvvm (L5): sage.matrix_descriptor becomes its 64 bits:
// (address & 0x3ffff) >> 4 | leading / 16 << 16 | stride / 16 << 32, and
// for tcgen05 the fixed bit 46 (docs/Mma.md).

// wgmma, leading 1024, stride 128: (64 << 16) | (8 << 32) = 34363932672.
// tcgen05, leading 2048, stride 128: (128 << 16) | (8 << 32) | (1 << 46)
// = 70403112304640.
// CHECK-LABEL: func @descriptors
//  CHECK-SAME: (%[[ADDRESS:.*]]: i64)
//   CHECK-DAG:   %[[LOW:.*]] = arith.constant 262143 : i64
//   CHECK-DAG:   %[[FOUR:.*]] = arith.constant 4 : i64
//   CHECK-DAG:   %[[WGMMA:.*]] = arith.constant 34363932672 : i64
//   CHECK-DAG:   %[[TCGEN05:.*]] = arith.constant 70403112304640 : i64
//       CHECK:   %[[MASKED:.*]] = arith.andi %[[ADDRESS]], %[[LOW]] : i64
//  CHECK-NEXT:   %[[START:.*]] = arith.shrui %[[MASKED]], %[[FOUR]] : i64
//  CHECK-NEXT:   %[[D0:.*]] = arith.ori %[[START]], %[[WGMMA]] : i64
//  CHECK-NEXT:   %[[MASKED1:.*]] = arith.andi %[[ADDRESS]], %[[LOW]] : i64
//  CHECK-NEXT:   %[[START1:.*]] = arith.shrui %[[MASKED1]], %[[FOUR]] : i64
//  CHECK-NEXT:   %[[D1:.*]] = arith.ori %[[START1]], %[[TCGEN05]] : i64
//  CHECK-NEXT:   return %[[D0]], %[[D1]]
func.func @descriptors(%address: i64) -> (i64, i64) {
  %d0 = sage.matrix_descriptor %address {leading = 1024 : i64, mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>, stride = 128 : i64}
  %d1 = sage.matrix_descriptor %address {leading = 2048 : i64, mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>, stride = 128 : i64}
  return %d0, %d1 : i64, i64
}

// A sage.tile_descriptor of a workgroup tile of core matrices
// ([4, 64, 16] bytes) is the descriptor of the address of element (row,
// column): 16-byte column column / 16 (1024 bytes apart: the leading
// offset), row row (16 bytes apart; 8 rows the stride).
// CHECK-LABEL: func @tile
//  CHECK-SAME: (%[[TILE:.*]]: memref<4x64x16xi8, #gpu.address_space<workgroup>>, %[[ROW:.*]]: index, %[[COLUMN:.*]]: index)
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C1024:.*]] = arith.constant 1024 : index
//   CHECK-DAG:   %[[WGMMA:.*]] = arith.constant 34363932672 : i64
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
//       CHECK:   %[[CHUNK:.*]] = arith.divui %[[COLUMN]], %[[C16]] : index
//       CHECK:   %[[CHUNK_START:.*]] = arith.muli %[[CHUNK]], %[[C1024]] : index
//       CHECK:   %[[ROW_START:.*]] = arith.muli %[[ROW]], %[[C16]] : index
//       CHECK:   %[[OFFSET:.*]] = arith.addi %[[CHUNK_START]], %[[ROW_START]] : index
//       CHECK:   %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[OFFSET]] : index
//       CHECK:   %[[ADDRESS64:.*]] = arith.index_castui %[[ADDRESS]] : index to i64
//       CHECK:   %[[MASKED:.*]] = arith.andi %[[ADDRESS64]], %{{.*}} : i64
//       CHECK:   %[[START:.*]] = arith.shrui %[[MASKED]], %{{.*}} : i64
//       CHECK:   %[[D:.*]] = arith.ori %[[START]], %[[WGMMA]] : i64
//       CHECK:   return %[[D]]
func.func @tile(%tile: memref<4x64x16xi8, #gpu.address_space<workgroup>>, %row: index,
                %column: index) -> i64 {
  %d = sage.tile_descriptor %tile[%row, %column] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
      : memref<4x64x16xi8, #gpu.address_space<workgroup>> -> i64
  return %d : i64
}

// A stage of a multi-buffered tile is a view at a dynamic offset: the
// view's offset is added to the allocation's address (column 32: the
// third 16-byte column, 2048 bytes in).
// CHECK-LABEL: func @stage
//  CHECK-SAME: (%[[STAGE:.*]]: memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>, %[[ROW:.*]]: index)
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C2048:.*]] = arith.constant 2048 : index
//       CHECK:   %{{.*}}, %[[OFFSET:.*]], %{{.*}}:3, %{{.*}}:3 = memref.extract_strided_metadata %[[STAGE]]
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[STAGE]]
//       CHECK:   %[[ROW_START:.*]] = arith.muli %[[ROW]], %[[C16]] : index
//       CHECK:   %[[COLUMN_START:.*]] = arith.addi %[[OFFSET]], %[[C2048]] : index
//       CHECK:   %[[ELEMENT:.*]] = arith.addi %[[COLUMN_START]], %[[ROW_START]] : index
//       CHECK:   arith.addi %[[BASE]], %[[ELEMENT]] : index
func.func @stage(%stage: memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>,
                 %row: index) -> i64 {
  %c32 = arith.constant 32 : index
  %d = sage.tile_descriptor %stage[%row, %c32] {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>}
      : memref<4x64x16xi8, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>> -> i64
  return %d : i64
}
