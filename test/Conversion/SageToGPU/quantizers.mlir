// RUN: sage-opt %s --sage-decompose-attention --convert-sage-to-gpu="chip=sm_90" -split-input-file | FileCheck %s

// The quantizers of the default recipe (K and Q smoothing), D = 128,
// blocks of 64 tokens. Q and K: four threads a token, 32 channels each
// (four 16-byte loads); the token's max |x| meets over its threads by two
// shuffles, one shared float a token, and the group's scale reads the
// maxima of its tokens (K: 16, tokens 8k + 2t and 8k + 2t + 1; Q: 2, rows
// g and g + 8 of a warp's 16).
// CHECK-LABEL: gpu.module @d128
//       CHECK: gpu.func @sage_quantize_k(
//  CHECK-SAME: workgroup(%[[K_MAXIMA:.*]] : memref<64xf32, #gpu.address_space<workgroup>>, %[[K_MEANS:.*]] : memref<128xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// K's channel means once a CTA, into shared memory.
//       CHECK:   scf.if
//       CHECK:     llvm.load %{{.*}} : !llvm.ptr<1> -> f32
//       CHECK:     memref.store %{{.*}}, %[[K_MEANS]]
//       CHECK:   gpu.barrier
// CHECK-COUNT-4:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
//   CHECK-NOT:   -> vector<8xf16>
//       CHECK:   gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32
//       CHECK:   gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   memref.store %{{.*}}, %[[K_MAXIMA]]
//       CHECK:   gpu.barrier
// CHECK-COUNT-16:  memref.load %[[K_MAXIMA]]
//   CHECK-NOT:   memref.load %[[K_MAXIMA]]
//       CHECK:   gpu.return
// V: one thread a channel, the block's E4M3 values in 144-byte rows a token.
//       CHECK: llvm.mlir.global internal @sage_quantize_v_tile() {{.*}} : !llvm.array<9216 x i8>
//       CHECK: gpu.func @sage_quantize_v({{.*}}{known_block_size = array<i32: 128, 1, 1>}
// CHECK-COUNT-8:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<3>
//       CHECK:   gpu.barrier
// CHECK-COUNT-4:   llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
//   CHECK-NOT:   llvm.store
//       CHECK:   gpu.return
//       CHECK: gpu.func @sage_quantize_q(
//  CHECK-SAME: workgroup(%[[Q_MAXIMA:.*]] : memref<64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
//       CHECK:   gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32
//       CHECK:   gpu.shuffle xor %{{.*}}, %c2_i32{{(_[0-9]+)?}}, %c32_i32
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   memref.store %{{.*}}, %[[Q_MAXIMA]]
//       CHECK:   gpu.barrier
// CHECK-COUNT-2:   memref.load %[[Q_MAXIMA]]
//   CHECK-NOT:   memref.load %[[Q_MAXIMA]]
//       CHECK:   gpu.return
func.func @d128(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

// -----

// D = 256: eight threads a token (three shuffles), CTAs of 512.
// CHECK-LABEL: gpu.module @d256
//       CHECK: gpu.func @sage_quantize_k({{.*}}{known_block_size = array<i32: 512, 1, 1>}
//       CHECK:   gpu.shuffle xor %{{.*}}, %c4_i32{{(_[0-9]+)?}}, %c32_i32
//       CHECK: !llvm.array<17408 x i8>
//       CHECK: gpu.func @sage_quantize_v({{.*}}{known_block_size = array<i32: 256, 1, 1>}
//       CHECK: gpu.func @sage_quantize_q({{.*}}{known_block_size = array<i32: 512, 1, 1>}
func.func @d256(%q: tensor<?x?x?x256xf16>, %k: tensor<?x?x?x256xf16>, %v: tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16>
  return %o : tensor<?x?x?x256xf16>
}

// -----

// D = 96 (three groups of 32): two threads a token, 48 channels each (six
// 16-byte loads, one shuffle).
// CHECK-LABEL: gpu.module @d96
//       CHECK: gpu.func @sage_quantize_k({{.*}}{known_block_size = array<i32: 128, 1, 1>}
// CHECK-COUNT-6:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
//   CHECK-NOT:   -> vector<8xf16>
//       CHECK:   gpu.shuffle xor %{{.*}}, %c1_i32{{(_[0-9]+)?}}, %c32_i32
//   CHECK-NOT:   gpu.shuffle
//       CHECK:   gpu.return
//       CHECK: gpu.func @sage_quantize_v({{.*}}{known_block_size = array<i32: 96, 1, 1>}
func.func @d96(%q: tensor<?x?x?x96xf16>, %k: tensor<?x?x?x96xf16>, %v: tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>, tensor<?x?x?x96xf16>) -> tensor<?x?x?x96xf16>
  return %o : tensor<?x?x?x96xf16>
}

// -----

// f32 inputs: V's eight channels a thread come in two 16-byte loads (a
// pointer need only be 16-byte aligned).
// CHECK-LABEL: gpu.module @f32_inputs
//       CHECK: gpu.func @sage_quantize_v
//   CHECK-NOT:   -> vector<8xf32>
// CHECK-COUNT-2:   llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
//   CHECK-NOT:   -> vector<8xf32>
//       CHECK:   gpu.barrier
func.func @f32_inputs(%q: tensor<?x?x?x64xf32>, %k: tensor<?x?x?x64xf32>, %v: tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>, tensor<?x?x?x64xf32>) -> tensor<?x?x?x64xf32>
  return %o : tensor<?x?x?x64xf32>
}
