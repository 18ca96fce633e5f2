// RUN: sage-opt %s --sage-tile-attention --sage-select-mma=chip=sm_89 --sage-assign-fragments --sage-distribute-tiles --convert-sage-to-nvvm | FileCheck %s
// RUN: sage-opt %s --sage-tile-attention --sage-select-mma=chip=sm_89 --sage-assign-fragments --sage-distribute-tiles | FileCheck %s --check-prefix=L4

// The levels compose (docs/Levels.md): the default recipe (Q and K
// smoothed, per-thread INT8 Q K^T, E4M3 P V, causal, GQA) goes from
// sage.quantized_attention through the tiles, the instruction choice, the
// fragment encodings and the lanes' fragment ops to NVVM. Per K/V block
// of 64 keys and 64 channels each lane issues 8 x 2 m16n8k32 MMAs for
// Q K^T and 8 x 2 for P V; no sage op is left in the K/V loop.
// L4-LABEL: func @default_recipe
//       L4:   scf.for {{.*}} -> (vector<32xf32>, vector<2xf32>, vector<2xf32>)
//       L4:     linalg.matvec
// L4-COUNT-16:     sage.warp_mma {{.*}} : vector<16xi8>, vector<8xi8> -> vector<4xi32>
//       L4:     sage.mask_scores {{.*}} {causal, fragment = {{.*}}} : vector<32xf32>
//       L4:     sage.online_softmax {{.*}} : vector<32xf32>, vector<2xf32>
//       L4:     sage.quantize {{.*}} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
// L4-COUNT-16:     sage.warp_mma {{.*}} : vector<16xf8E4M3FN>, vector<8xf8E4M3FN> -> vector<4xf32>
//       L4:     sage.accumulate {{.*}} : vector<32xf32>, vector<2xf32> -> vector<32xf32>
//       L4:     scf.yield {{.*}} : vector<32xf32>, vector<2xf32>, vector<2xf32>
// The epilogue in the lanes, in f16; the grid's output takes the tile the
// lanes hold together.
//       L4:   arith.truncf {{.*}} : vector<32xf32> to vector<32xf16>
//       L4:   %[[TILE:.*]] = sage.from_lanes {{.*}} {layout = #{{.*}}} : vector<32xf16> -> tensor<64x64xf16>
//       L4:   %[[ROWS:.*]] = tensor.extract_slice %[[TILE]]
//       L4:   tensor.parallel_insert_slice %[[ROWS]]
//   L4-NOT:   unrealized_conversion_cast

// CHECK-LABEL: func @default_recipe
//       CHECK:   scf.for
// CHECK-COUNT-16:     nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}
// CHECK-COUNT-16:     llvm.call_intrinsic "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"
//   CHECK-NOT:     sage.
//       CHECK:     scf.yield
func.func @default_recipe(%qv: tensor<1x4x100x64xi8>, %qs: tensor<1x4x64x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x8x1xf32>,
    %vv: tensor<1x2x70x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>,
    %qm: tensor<1x4x2x64xf32>, %k: tensor<1x2x70x64xf16>, %km: tensor<1x2x1x64xf32>)
    -> tensor<1x4x100x64xf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs)
      q_smooth(%qm, %k) k_smooth(%km) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64, causal}
    : (tensor<1x4x100x64xi8>, tensor<1x4x64x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x8x1xf32>,
       tensor<1x2x70x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x4x2x64xf32>,
       tensor<1x2x70x64xf16>, tensor<1x2x1x64xf32>) -> tensor<1x4x100x64xf16>
  return %o : tensor<1x4x100x64xf16>
}
