// The Q/K scale granularities of the recipe (qk) through the whole of
// --sage-levels: the tiles each one's Q K^T reads its scales in (block-q
// is the decomposition's, 64 on sm_89 and 128 on sm_90a, whatever the
// granularity), and PTX that ptxas assembles. Their numerics on a GPU:
// test/Integration/GPU/levels-granularities.test.
// RUN: sage-opt %s --sage-levels="chip=sm_89" --mlir-print-ir-after=sage-tile-attention -o %t.sm89.mlir 2>&1 | FileCheck %s --check-prefix=SM89
// RUN: sage-opt %s --sage-levels="chip=sm_90a" --mlir-print-ir-after=sage-tile-attention -o %t.sm90a.mlir 2>&1 | FileCheck %s --check-prefix=SM90A
// RUN: sage-translate %t.sm89.mlir --sage-export-ptx --sage-kernel-module=per_warp_kernel -o %t.warp89.ptx
// RUN: sage-translate %t.sm89.mlir --sage-export-ptx --sage-kernel-module=per_block_kernel -o %t.block89.ptx
// RUN: sage-translate %t.sm89.mlir --sage-export-ptx --sage-kernel-module=per_token_kernel -o %t.token89.ptx
// RUN: sage-translate %t.sm90a.mlir --sage-export-ptx --sage-kernel-module=per_warp_kernel -o %t.warp90a.ptx
// RUN: sage-translate %t.sm90a.mlir --sage-export-ptx --sage-kernel-module=per_token_kernel -o %t.token90a.ptx
// RUN: cat %t.warp89.ptx %t.block89.ptx %t.token89.ptx | FileCheck %s --check-prefix=MMA-SYNC
// RUN: cat %t.warp90a.ptx %t.token90a.ptx | FileCheck %s --check-prefix=WGMMA
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.warp89.ptx -o %t.warp89.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.block89.ptx -o %t.block89.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_89 %t.token89.ptx -o %t.token89.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.warp90a.ptx -o %t.warp90a.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.token90a.ptx -o %t.token90a.cubin %}

// per_warp: a scale each warp's 16 Q rows, K's a block (every warp reads
// the whole K block).
// SM89-LABEL: func.func @per_warp
//       SM89: sage.qmma {{.*}}a_quant = #sage.quant<i8, per_warp, block = 64, warp = 16>{{.*}}b_quant = #sage.quant<i8, per_block, block = 64>{{.*}} : tensor<64x64xi8>, tensor<4x1xf32>, tensor<64x64xi8>, tensor<1x1xf32> -> tensor<64x64xf32>
// SM90A-LABEL: func.func @per_warp
//       SM90A: sage.qmma {{.*}}a_quant = #sage.quant<i8, per_warp, block = 128, warp = 16>{{.*}} : tensor<128x64xi8>, tensor<8x1xf32>, tensor<64x64xi8>, tensor<1x1xf32> -> tensor<128x64xf32>
func.func @per_warp(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                    %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_warp>, scale = 0.125 : f64}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// per_block: one scale a Q block, one a K/V block.
// SM89-LABEL: func.func @per_block
//       SM89: sage.qmma {{.*}} : tensor<64x64xi8>, tensor<1x1xf32>, tensor<64x64xi8>, tensor<1x1xf32> -> tensor<64x64xf32>
// SM90A-LABEL: func.func @per_block
//       SM90A: sage.qmma {{.*}} : tensor<128x64xi8>, tensor<1x1xf32>, tensor<64x64xi8>, tensor<1x1xf32> -> tensor<128x64xf32>
func.func @per_block(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                     %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_block>, scale = 0.125 : f64}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// per_token: a scale each Q row and each key, in the tile they were made
// for (block = 128 on sm_90a: the tile is 128 rows, not 64).
// SM89-LABEL: func.func @per_token
//       SM89: sage.qmma {{.*}} : tensor<64x64xi8>, tensor<64x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<64x64xf32>
// SM90A-LABEL: func.func @per_token
//       SM90A: sage.qmma {{.*}}a_quant = #sage.quant<i8, per_token, block = 128>{{.*}} : tensor<128x64xi8>, tensor<128x1xf32>, tensor<64x64xi8>, tensor<64x1xf32> -> tensor<128x64xf32>
func.func @per_token(%q: tensor<?x?x?x64xf16>, %k: tensor<?x?x?x64xf16>,
                     %v: tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16> {
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>,
      recipe = #sage.recipe<"int8-fp8", qk = per_token>, scale = 0.125 : f64}
    : (tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>, tensor<?x?x?x64xf16>) -> tensor<?x?x?x64xf16>
  return %o : tensor<?x?x?x64xf16>
}

// MMA-SYNC: .target sm_89
// MMA-SYNC: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// MMA-SYNC: .target sm_89
// MMA-SYNC: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// MMA-SYNC: .target sm_89
// MMA-SYNC: mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// WGMMA: .target sm_90a
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
// WGMMA: .target sm_90a
// WGMMA: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8
