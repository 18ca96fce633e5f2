// RUN: sage-opt %s --sage-tile-attention="block-q=128 block-k=32" | FileCheck %s
// RUN: not sage-opt %s --sage-tile-attention="block-q=24" 2>&1 | FileCheck %s --check-prefix=BADQ
// RUN: not sage-opt %s --sage-tile-attention="block-k=48" 2>&1 | FileCheck %s --check-prefix=BADK
// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-tile-attention="block-q=32" -o /dev/null

// block-q = 128 holds two Q blocks of 64 per-thread groups (64 scales);
// block-k = 32 holds one K group of 32.
// CHECK-LABEL: func @larger_q_tile
//       CHECK: tensor.extract_slice %{{.*}} : tensor<1x1x256x1xf32> to tensor<?x1xf32>
//       CHECK: } : tensor<?x1xf32> to tensor<64x1xf32>
//       CHECK: sage.qmma {{.*}} : tensor<128x64xi8>, tensor<64x1xf32>, tensor<32x64xi8>, tensor<4x1xf32> -> tensor<128x32xf32>
//       CHECK: sage.qmma {{.*}} : tensor<128x32xf8E4M3FN>, tensor<1x1xf32>, tensor<64x32xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x64xf32>
// BADQ: error: expected block-q 0 (each op's Q groups) or a positive multiple of 16 (the MMA's M) and block-k 0 (each op's K groups) or a positive multiple of 32 (the K of the FP8 P V MMA), got block-q = 24, block-k = 0
// BADK: error: expected block-q 0 (each op's Q groups) or a positive multiple of 16 (the MMA's M) and block-k 0 (each op's K groups) or a positive multiple of 32 (the K of the FP8 P V MMA), got block-q = 0, block-k = 48
func.func @larger_q_tile(%qv: tensor<1x1x500x64xi8>, %qs: tensor<1x1x256x1xf32>,
    %kv: tensor<1x1x96x64xi8>, %ks: tensor<1x1x12x1xf32>,
    %vv: tensor<1x1x96x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x500x64xf32> {
  // expected-error@+1 {{'sage.quantized_attention' op cannot be tiled: Q groups of 64 tokens (block) do not tile block-q = 32}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
        k_quant = #sage.quant<i8, per_thread, operand = b, block = 32>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor>,
        v_quant = #sage.quant<f8E4M3FN, per_channel>,
        pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x500x64xi8>, tensor<1x1x256x1xf32>, tensor<1x1x96x64xi8>, tensor<1x1x12x1xf32>,
       tensor<1x1x96x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x500x64xf32>
  return %o : tensor<1x1x500x64xf32>
}
