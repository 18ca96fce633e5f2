// RUN: not sage-opt %s --sage-decompose-attention="block-q=192 block-k=128" --canonicalize --convert-sage-to-gpu="chip=sm_90a" -split-input-file 2>&1 | FileCheck %s

// Block-q = 192 (three consumer warpgroups) is the wgmma kernel's, at head
// dims up to 128 (the Q quantizer's CTA has 4 threads a row there), without
// Q smoothing.

// Three warpgroups with Q smoothing: dS would share a key among 384 / 128
// lanes, not a power of two.
// CHECK: error: 'sage.quantized_attention' op block-q = 192 (three warpgroups) needs mma-scope=warpgroup (sm_90a), head dims of at most 128 and no Q smoothing; got warpgroup scope, D = 128, Dv = 128, Q smoothed
func.func @q_and_k(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

// -----

// CHECK: error: 'sage.quantized_attention' op block-q = 192 (three warpgroups) needs mma-scope=warpgroup (sm_90a), head dims of at most 128 and no Q smoothing; got warpgroup scope, D = 256, Dv = 256
func.func @wide(%q: tensor<?x?x?x256xf16>, %k: tensor<?x?x?x256xf16>, %v: tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>, tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16>
  return %o : tensor<?x?x?x256xf16>
}

// -----

// CHECK: error: 'sage.quantized_attention' op block-q = 192 (three warpgroups) needs mma-scope=warpgroup (sm_90a), head dims of at most 128 and no Q smoothing; got warpgroup scope, D = 64, Dv = 256
func.func @wide_values(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>, %v: tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8", smooth = [k]>}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x256xf16>) -> tensor<?x?x?x256xf16>
  return %o : tensor<?x?x?x256xf16>
}
