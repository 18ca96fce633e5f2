// RUN: sage-opt %s -split-input-file --sage-decompose-attention="block-q=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s
// RUN: sage-opt %s -split-input-file --sage-decompose-attention="block-q=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=false" | FileCheck %s --check-prefix=OFF --implicit-check-not=sage.warp_specialize
// RUN: sage-opt %s -split-input-file --sage-decompose-attention="block-q=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a kv-staging=cp-async" | FileCheck %s --check-prefix=OFF --implicit-check-not=sage.warp_specialize
// RUN: sage-opt %s -split-input-file --sage-decompose-attention="block-q=128 block-k=32" --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=OFF --implicit-check-not=sage.warp_specialize
// RUN: sage-opt %s -split-input-file --sage-decompose-attention="block-q=128 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a" | FileCheck %s --check-prefix=ROW
// RUN: not sage-opt %s -split-input-file --sage-decompose-attention="block-q=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a warp-specialize=yes" 2>&1 | FileCheck %s --check-prefix=NEGATIVE-VALUE

// warp-specialize=auto (the default) gives the bulk-staged wgmma kernel of
// two consumer warpgroups (block-q = 128, --sage-to-ptx's sm_90a tiles) a
// producer warpgroup at D >= 128, where the H200 runs it about 1.09x
// faster, and none at D = 64, where the two are even
// (benchmarks/results/2026-12-03-h200-ws-default.md). Other K/V tiles
// (block-k = 32 above) were not measured and keep every warp computing;
// with cp.async staging there is no producer to give it. At 128 x 128 the
// built-in row for D = 128 with Q smoothing says a producer (docs/Tuning.md);
// D = 64 has no row there.

// D = 128: a producer and two consumer warpgroups, one CTA an SM (384
// threads start with 168 registers; the producer's go to the consumers).
// CHECK-LABEL: gpu.func @sage_attention(
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// CHECK: sage.warp_specialize warps = [4, 8] registers = [40, 232] {
// OFF-LABEL: gpu.func @sage_attention(
// OFF-SAME: known_block_size = array<i32: 256, 1, 1>
// ROW-LABEL: gpu.func @sage_attention(
// ROW-SAME: known_block_size = array<i32: 384, 1, 1>
// ROW: sage.warp_specialize warps = [4, 8]
func.func @d128(%q: tensor<1x2x?x128xf16>, %k: tensor<1x2x?x128xf16>, %v: tensor<1x2x?x128xf16>) -> tensor<1x2x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>, tensor<1x2x?x128xf16>) -> tensor<1x2x?x128xf16>
  return %o : tensor<1x2x?x128xf16>
}

// -----

// D = 64: every warp computes.
// CHECK-LABEL: gpu.func @sage_attention(
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-NOT: sage.warp_specialize
// CHECK: gpu.return
// OFF-LABEL: gpu.func @sage_attention(
// OFF-SAME: known_block_size = array<i32: 256, 1, 1>
// ROW-LABEL: gpu.func @sage_attention(
// ROW-SAME: known_block_size = array<i32: 256, 1, 1>
// ROW-NOT: sage.warp_specialize
// ROW: gpu.return
func.func @d64(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// NEGATIVE-VALUE: error: unknown warp-specialize 'yes'; expected auto, true or false
