

gpu.module @kernels {
  gpu.func @negative_rearranged_rows(%v: memref<?x32xi8>) kernel
      attributes {known_block_size = array<i32: 0xFF800000, 1, 1>} {
    %i0 = arith.constant 0 : i8
    %vt = memref.alloc() : memref<64x64xi8, #gpu.address_space<workgroup>>
    sage.stage_tile %v pad(%i0 : i8) into %vt {indexing_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x32xi8> into memref<64x64xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

