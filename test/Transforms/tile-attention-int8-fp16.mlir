// RUN: sage-opt %s --sage-decompose-attention --canonicalize --sage-tile-attention | FileCheck %s
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --sage-tile-attention --sage-select-mma=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: sage-opt %s --sage-decompose-attention --canonicalize --sage-tile-attention --sage-select-mma=chip=sm_90a | FileCheck %s --check-prefix=SM90A

// int8-fp16 on tiles: P~ rounded to f16 (bound 1 = P_r) and multiplied
// with the f16 V tile at unit scales; the epilogue's delta_V is V's one
// unit scale. Its instruction is a row of the table like any other: the
// f16 m16n8k16 mma.sync, also on sm_90a, which has no f16-operand wgmma
// row in sage's table (Q K^T there takes wgmma).

// CHECK-LABEL: func @attention
//       CHECK: %[[V:.*]], %[[VS:.*]] = sage.quantize %{{.*}} {bound = 6.550400e+04 : f64, quant = #sage.quant<f16, per_tensor>} : tensor<1x4x256x64xf16> -> tensor<1x4x256x64xf16>, tensor<1x4x1x1xf32>
//       CHECK: scf.for
// P_r = 1: the softmax is base 2 with no prob_scale.
//       CHECK:   sage.online_softmax %{{.*}} {base2} :
//       CHECK:   %[[P:.*]], %{{.*}} = sage.quantize %{{.*}} {bound = 1.000000e+00 : f64, quant = #sage.quant<f16, per_tensor, range = 1.0>} : tensor<64x64xf32> -> tensor<64x64xf16>, tensor<1x1xf32>
//       CHECK:   sage.qmma %[[P]] scaled %{{.*}}, %{{.*}} scaled %{{.*}}, %{{.*}} {accumulator = f32} : tensor<64x64xf16>, tensor<1x1xf32>, tensor<64x64xf16>, tensor<1x1xf32> -> tensor<64x64xf32>
//       CHECK:   sage.accumulate
//       CHECK: tensor.extract_slice %[[VS]]{{.*}} : tensor<1x4x1x1xf32> to tensor<1x1xf32>

// SM80: mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8,
// SM80: mma = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>

// SM90A: mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8,
// SM90A: mma = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16,

func.func @attention(%q: tensor<1x4x256x64xf16>, %k: tensor<1x4x256x64xf16>, %v: tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16> {
  %o = sage.attention %q, %k, %v {recipe = #sage.recipe<"int8-fp16">, layout = #sage.layout<[batch, heads, tokens, features]>}
    : (tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>, tensor<1x4x256x64xf16>) -> tensor<1x4x256x64xf16>
  return %o : tensor<1x4x256x64xf16>
}
