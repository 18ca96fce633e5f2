// RUN: sage-opt %s --sage-select-mma=chip=sm_120a | FileCheck %s --check-prefix=SM120A
// RUN: sage-opt %s --sage-select-mma=chip=sm_100a | FileCheck %s --check-prefix=SM100A
// RUN: not sage-opt %s --sage-select-mma=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=SM90A

// NVFP4 (SageAttention3): E2M1 operands with one E4M3 scale per 16
// elements, applied by the block-scaled MMA itself.
// SM120A: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers, b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>
// SM100A: sage.qmma {{.*}}mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 64, a = f4E2M1FN, a_source = shared, b = f4E2M1FN, b_source = shared, acc = f32, scales = ue4m3_block16>
// SM90A: error: 'sage.qmma' op has no MMA instruction on sm_90a for 'f4E2M1FN' x 'f4E2M1FN' -> 'f32': mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3: needs sm_120a
func.func @nvfp4_tile(%q: tensor<128x128xf4E2M1FN>, %qs: tensor<128x8xf8E4M3FN>,
    %k: tensor<64x128xf4E2M1FN>, %ks: tensor<64x8xf8E4M3FN>, %s0: tensor<128x64xf32>)
    -> tensor<128x64xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %s0 {accumulator = f32}
    : tensor<128x128xf4E2M1FN>, tensor<128x8xf8E4M3FN>, tensor<64x128xf4E2M1FN>, tensor<64x8xf8E4M3FN> -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}
