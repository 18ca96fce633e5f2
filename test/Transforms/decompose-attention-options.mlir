// RUN: not sage-opt %s --sage-decompose-attention="warp-q=8 block-k=20" 2>&1 | FileCheck %s

// CHECK: error: expected warp-q a positive multiple of 16, block-q a multiple of warp-q and block-k a positive multiple of 8, got block-q = 64, warp-q = 8, block-k = 20
func.func @empty() {
  return
}
