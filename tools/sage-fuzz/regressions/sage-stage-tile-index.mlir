

gpu.module @kernels {
  gpu.func @negative_rearranged_index(%v: memref<?x64xindex>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %i0 = arith.constant 0 : index
    %vt = memref.alloc() : memref<64x64xindex, #gpu.address_space<workgroup>>
    sage.stage_tile %v pad(%i0 : index) into %vt {indexing_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xindex> into memref<64x64xindex, #gpu.address_space<workgroup>>
    gpu.return
  }
}

