// RUN: sage-opt %s --sage-lower-staging -split-input-file | FileCheck %s

// A warp's B registers of an 8-key tile of K (four 8 x 16-byte matrices)
// from the kernel's workgroup tile, rows padded to 80 bytes: one ldmatrix
// x4 (docs/Levels.md, L3). Lane 8 q + i gives the address of row i of
// matrix q: row 8 + i, column 16 q of the padded tile; the four words come
// back as the lane's 16 E4M3 values.
// CHECK-LABEL: gpu.func @key_tile
//  CHECK-SAME: workgroup(%[[ROWS:.*]] : memref<64x80xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
//       CHECK:   %[[TILE:.*]] = memref.subview %[[ROWS]][0, 0] [64, 64] [1, 1]
//       CHECK:   %[[TID:.*]] = gpu.thread_id x
//       CHECK:   %[[LANE:.*]] = arith.remui %[[TID]], %c32
//       CHECK:   %[[EIGHTS:.*]] = arith.divui %[[LANE]], %c8
//       CHECK:   %[[Q:.*]] = arith.remui %[[EIGHTS]], %c4
//       CHECK:   %[[I:.*]] = arith.remui %[[LANE]], %c8
//       CHECK:   %[[Q_ROW:.*]] = arith.muli %[[Q]], %c0
//       CHECK:   %[[ROW_OFFSET:.*]] = arith.addi %[[Q_ROW]], %c0
//       CHECK:   %[[IN_MATRIX:.*]] = arith.addi %[[ROW_OFFSET]], %[[I]]
//       CHECK:   %[[ROW:.*]] = arith.addi %c8{{.*}}, %[[IN_MATRIX]]
//       CHECK:   %[[Q_COLUMN:.*]] = arith.muli %[[Q]], %c16
//       CHECK:   %[[COLUMN_OFFSET:.*]] = arith.addi %[[Q_COLUMN]], %c0
//       CHECK:   %[[COLUMN:.*]] = arith.addi %c0{{.*}}, %[[COLUMN_OFFSET]]
//       CHECK:   %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[TILE]]
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
//       CHECK:   %[[ROW_START:.*]] = arith.muli %[[ROW]], %[[STRIDES]]#0
//       CHECK:   %[[AT:.*]] = arith.addi %[[ROW_START]], %[[COLUMN]]
//       CHECK:   %[[ELEMENT:.*]] = arith.addi %[[OFFSET]], %[[AT]]
//       CHECK:   %[[BYTES:.*]] = arith.muli %[[ELEMENT]], %c1
//       CHECK:   %[[ADDRESS:.*]] = arith.addi %[[BASE]], %[[BYTES]]
//       CHECK:   %[[I64:.*]] = arith.index_cast %[[ADDRESS]] : index to i64
//       CHECK:   %[[PTR:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr<3>
//       CHECK:   %[[WORDS:.*]] = nvvm.ldmatrix %[[PTR]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
//       CHECK:   %[[W0:.*]] = llvm.extractvalue %[[WORDS]][0]
//       CHECK:   %[[W1:.*]] = llvm.extractvalue %[[WORDS]][1]
//       CHECK:   %[[W2:.*]] = llvm.extractvalue %[[WORDS]][2]
//       CHECK:   %[[W3:.*]] = llvm.extractvalue %[[WORDS]][3]
//       CHECK:   %[[VECTOR:.*]] = vector.from_elements %[[W0]], %[[W1]], %[[W2]], %[[W3]] : vector<4xi32>
//       CHECK:   %[[B:.*]] = vector.bitcast %[[VECTOR]] : vector<4xi32> to vector<16xf8E4M3FN>
//       CHECK:   vector.store %[[B]]
gpu.module @kernels {
  gpu.func @key_tile(%out: memref<16xf8E4M3FN>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %kt = memref.alloc() : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>>
    %b = sage.warp_load_matrices %kt[%c8, %c0] rows [0, 0, 0, 0] columns [0, 16, 32, 48]
        : memref<64x64xf8E4M3FN, #gpu.address_space<workgroup>> -> vector<16xf8E4M3FN>
    vector.store %b, %out[%c0] : memref<16xf8E4M3FN>, vector<16xf8E4M3FN>
    gpu.return
  }
}

// -----

// A's registers of an m16n8k32 int8 MMA: rows g and g + 8 of the warp's
// 16, the chunk's two 16-byte halves. Offsets that are not a sequence are
// selected by the lane's matrix.
// CHECK-LABEL: gpu.func @query_rows
//       CHECK:   %[[Q:.*]] = arith.remui %{{.*}}, %c4
//       CHECK:   %[[IS1:.*]] = arith.cmpi eq, %[[Q]], %c1
//       CHECK:   %[[R1:.*]] = arith.select %[[IS1]], %c8{{.*}}, %c0
//       CHECK:   %[[IS2:.*]] = arith.cmpi eq, %[[Q]], %c2
//       CHECK:   %[[R2:.*]] = arith.select %[[IS2]], %c0{{.*}}, %[[R1]]
//       CHECK:   %[[IS3:.*]] = arith.cmpi eq, %[[Q]], %c3
//       CHECK:   %[[R3:.*]] = arith.select %[[IS3]], %c8{{.*}}, %[[R2]]
//       CHECK:   nvvm.ldmatrix {{.*}}num = 4 : i32
gpu.module @kernels {
  gpu.func @query_rows(%out: memref<16xi8>, %warp_row: index) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %qt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    %a = sage.warp_load_matrices %qt[%warp_row, %c0] rows [0, 8, 0, 8] columns [32, 32, 48, 48]
        : memref<64x64xi8, #gpu.address_space<workgroup>> -> vector<16xi8>
    vector.store %a, %out[%c0] : memref<16xi8>, vector<16xi8>
    gpu.return
  }
}

// -----

// One matrix: ldmatrix x1, whose one word is the result.
// CHECK-LABEL: gpu.func @one_matrix
//       CHECK:   %[[WORD:.*]] = nvvm.ldmatrix {{.*}}num = 1 : i32{{.*}} : (!llvm.ptr<3>) -> i32
//       CHECK:   %[[VECTOR:.*]] = vector.from_elements %[[WORD]] : vector<1xi32>
//       CHECK:   vector.bitcast %[[VECTOR]] : vector<1xi32> to vector<2xf16>
gpu.module @kernels {
  gpu.func @one_matrix(%out: memref<2xf16>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %pt = memref.alloc() : memref<16x16xf16, #gpu.address_space<workgroup>>
    %a = sage.warp_load_matrices %pt[%c0, %c0] rows [8] columns [8]
        : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<2xf16>
    vector.store %a, %out[%c0] : memref<2xf16>, vector<2xf16>
    gpu.return
  }
}

// -----

// Where a row's start is not provably 16-byte aligned (a column only known
// at run time), or the tile is not in workgroup memory, each lane reads its
// words: row g, from position 4 t of each matrix.
// CHECK-LABEL: gpu.func @lane_reads
//   CHECK-NOT:   nvvm.ldmatrix
//       CHECK:   vector.transfer_read %{{.*}} : memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>, vector<4xi8>
//       CHECK:   vector.transfer_read %{{.*}} : memref<64x64xi8, strided<[80, 1]>, #gpu.address_space<workgroup>>, vector<4xi8>
//       CHECK:   vector.transfer_read %{{.*}} : memref<64x64xi8>, vector<4xi8>
//   CHECK-NOT:   nvvm.ldmatrix
//   CHECK-NOT:   sage.warp_load_matrices
gpu.module @kernels {
  gpu.func @lane_reads(%global: memref<64x64xi8>, %column: index, %out: memref<12xi8>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %kt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    %shared = sage.warp_load_matrices %kt[%c0, %column] rows [0, 0] columns [0, 16]
        : memref<64x64xi8, #gpu.address_space<workgroup>> -> vector<8xi8>
    %other = sage.warp_load_matrices %global[%c0, %c0] rows [0] columns [0]
        : memref<64x64xi8> -> vector<4xi8>
    vector.store %shared, %out[%c0] : memref<12xi8>, vector<8xi8>
    vector.store %other, %out[%c8] : memref<12xi8>, vector<4xi8>
    gpu.return
  }
}
