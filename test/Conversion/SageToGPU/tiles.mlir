// RUN: sage-opt %s --sage-decompose-attention="block-q=128 block-k=32" --canonicalize --convert-sage-to-gpu | FileCheck %s
// RUN: sage-opt %s --sage-decompose-attention="block-q=64 block-k=128" --canonicalize --convert-sage-to-gpu | FileCheck %s --check-prefix=K128
// RUN: not sage-opt %s --sage-decompose-attention="block-q=96" --canonicalize --convert-sage-to-gpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE-Q96
// RUN: not sage-opt %s --sage-decompose-attention="warp-q=32" --canonicalize --convert-sage-to-gpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE-WARP32
// RUN: not sage-opt %s --sage-decompose-attention="block-k=256" --canonicalize --convert-sage-to-gpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE-K256
// RUN: not sage-opt %s --sage-decompose-attention="block-k=48" --canonicalize --convert-sage-to-gpu 2>&1 | FileCheck %s --check-prefix=NEGATIVE-K48

// Tiles are taken from the Q and K quantization groups the decomposition
// chose (block-q, warp-q, block-k) and sized through every kernel.

// block-q = 128, block-k = 32: the attention kernel and the Q quantizer run
// 8 warps of 16 rows, the K quantizer two threads a token of the 32-token
// block; the Q-smoothing correction of a key is summed by eight lanes.
// CHECK: tiles = {block_k = 32 : i64, block_q = 128 : i64, warp_q = 16 : i64, warps = 8 : i64}
// CHECK: gpu.func @sage_quantize_k({{.*}}) workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>}
// CHECK: gpu.func @sage_quantize_q({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK: gpu.func @sage_attention({{.*}}) workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, %[[CORRECTION:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:   scf.for
// CHECK:   %[[DOT:.*]] = arith.select {{.*}} : f32
// CHECK:   %[[S1:.*]], %{{.*}} = gpu.shuffle  xor %[[DOT]], %c1_i32{{.*}} : f32
// CHECK:   %[[DOT1:.*]] = arith.addf %[[DOT]], %[[S1]]
// CHECK:   %[[S2:.*]], %{{.*}} = gpu.shuffle  xor %[[DOT1]], %c2_i32{{.*}} : f32
// CHECK:   %[[DOT2:.*]] = arith.addf %[[DOT1]], %[[S2]]
// CHECK:   %[[S4:.*]], %{{.*}} = gpu.shuffle  xor %[[DOT2]], %c4_i32{{.*}} : f32
// CHECK:   %[[SUM:.*]] = arith.addf %[[DOT2]], %[[S4]]
// CHECK:   scf.if
// CHECK:     memref.store %[[SUM]], %[[CORRECTION]][%{{.*}}]

// block-k = 128: a 128-key correction array and K quantizer of 256 threads.
// K128: {block = [256, 1, 1], grid = [{cdiv = ["Nk", 128]}, "Hkv", "B"], name = "sage_quantize_k"
// K128-SAME: tiles = {block_k = 128 : i64, block_q = 64 : i64, warp_q = 16 : i64, warps = 4 : i64}
// K128: gpu.func @sage_quantize_k({{.*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// K128: gpu.func @sage_attention({{.*}}) workgroup(%{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 128, 1, 1>}

// NEGATIVE-Q96: error: 'sage.quantized_attention' op the GPU lowering implements Q blocks of block-q = 64, 128 or 192 rows in warps of warp-q = 16; got block-q = 96, warp-q = 16 (#sage.quant<i8, per_thread, operand = a, block = 96, warp = 16>)
// NEGATIVE-WARP32: error: 'sage.quantized_attention' op the GPU lowering implements Q blocks of block-q = 64, 128 or 192 rows in warps of warp-q = 16; got block-q = 64, warp-q = 32
// NEGATIVE-K256: error: 'sage.quantized_attention' op the GPU lowering implements K/V blocks of block-k = 32, 64 or 128 tokens; got block-k = 256 (#sage.quant<i8, per_thread, operand = b, block = 256>)
// NEGATIVE-K48: error: 'sage.quantized_attention' op the GPU lowering implements K/V blocks of block-k = 32, 64 or 128 tokens; got block-k = 48
func.func @attention(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

