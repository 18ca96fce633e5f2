// RUN: sage-opt %s --sage-tile-attention --sage-select-mma=chip=sm_89 --sage-assign-fragments | FileCheck %s --check-prefix=ASSIGN
// RUN: sage-opt %s --sage-tile-attention --sage-select-mma=chip=sm_89 --sage-assign-fragments --sage-distribute-tiles | FileCheck %s --check-prefix=LANES

// Two f16 flushes a K/V block (every MMA of 32 keys, 64 keys a block): each
// reads its 32 keys' columns of P. sage-assign-fragments gives a slice of
// whole m16n8 tiles of columns its source's encoding (the lanes hold those
// columns as they hold P), and sage-distribute-tiles makes it the lane's
// elements of those tiles, which come tile after tile: 4 tiles of 8 keys,
// 4 elements each, 16 of the lane's 32.
// ASSIGN: #[[P:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8,
// ASSIGN-LABEL: func @f16_flushes
//       ASSIGN: %[[VALUES:.*]], %{{.*}} = sage.quantize {{.*}} -> tensor<64x64xf8E4M3FN, #[[P]]>
//       ASSIGN: tensor.extract_slice %[[VALUES]][0, 0] [64, 32] [1, 1] : tensor<64x64xf8E4M3FN, #[[P]]> to tensor<64x32xf8E4M3FN, #[[P]]>
//       ASSIGN: tensor.extract_slice %[[VALUES]][0, 32] [64, 32] [1, 1] : tensor<64x64xf8E4M3FN, #[[P]]> to tensor<64x32xf8E4M3FN, #[[P]]>
// LANES-LABEL: func @f16_flushes
//       LANES: %[[VALUES:.*]], %{{.*}} = sage.quantize {{.*}} : vector<32xf32> -> vector<32xf8E4M3FN>
//       LANES: vector.extract_strided_slice %[[VALUES]] {offsets = [0], sizes = [16], strides = [1]} : vector<32xf8E4M3FN> to vector<16xf8E4M3FN>
//       LANES: %[[O0:.*]] = sage.accumulate %{{.*}} into %{{.*}} rescale %{{.*}} {{.*}}scheme = #sage.accum<f16, every = 1>} : vector<32xf16>, vector<2xf32> -> vector<32xf32>
//       LANES: vector.extract_strided_slice %[[VALUES]] {offsets = [16], sizes = [16], strides = [1]} : vector<32xf8E4M3FN> to vector<16xf8E4M3FN>
//       LANES: sage.accumulate %{{.*}} into %[[O0]] rescale %{{.*}} {{.*}} : vector<32xf16>, vector<2xf32> -> vector<32xf32>
func.func @f16_flushes(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>,
    %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
        q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
        p_quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>,
        v_quant = #sage.quant<f8E4M3FN, per_channel, range = 4.5>,
        pv_accum = #sage.accum<f16, every = 1>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>,
       tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return %o : tensor<1x1x64x64xf32>
}
