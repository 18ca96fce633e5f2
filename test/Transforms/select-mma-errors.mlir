// RUN: sage-opt %s --split-input-file --verify-diagnostics --sage-select-mma=chip=sm_80 -o /dev/null
// RUN: not sage-opt %s --sage-select-mma="chip=sm_89 scope=warpgroup" 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: not sage-opt %s --sage-select-mma=chip=hopper 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not sage-opt %s --sage-select-mma=scope=cta 2>&1 | FileCheck %s --check-prefix=SCOPE

// CHIP: error: unknown chip 'hopper'; expected sm_XY, sm_XYa or sm_XYf
// SCOPE: error: unknown scope 'cta'; expected auto, warp, warpgroup or tcgen05
// A forced scope the chip lacks names the instruction and the chip it needs.
// FORCED: error: 'sage.qmma' op has no MMA instruction on sm_89 for 'f8E4M3FN' x 'f8E4M3FN' -> 'f32': wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3: needs sm_90a

func.func @negative_fp8_on_sm80(%p: tensor<64x64xf8E4M3FN>, %v: tensor<64x64xf8E4M3FN>,
    %one: tensor<1x1xf32>, %o0: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'sage.qmma' op has no MMA instruction on sm_80 for 'f8E4M3FN' x 'f8E4M3FN' -> 'f32': mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32: needs sm_89 or newer}}
  %r = sage.qmma %p scaled %one, %v scaled %one, %o0 {accumulator = f32}
    : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

func.func @negative_k_not_a_multiple(%a: tensor<64x48xi8>, %one: tensor<1x1xf32>,
    %s0: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'sage.qmma' op has no MMA instruction on sm_80 for 'i8' x 'i8' -> 'i32': mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32: tile 64x48 is not a multiple of m16 k32}}
  %s = sage.qmma %a scaled %one, %a scaled %one, %s0 {accumulator = i32}
    : tensor<64x48xi8>, tensor<1x1xf32>, tensor<64x48xi8>, tensor<1x1xf32> -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}

// -----

func.func @negative_dynamic_tile(%a: tensor<?x64xi8>, %one: tensor<1x1xf32>,
    %s0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{'sage.qmma' op needs a static tile to select an MMA instruction}}
  %s = sage.qmma %a scaled %one, %a scaled %one, %s0 {accumulator = i32}
    : tensor<?x64xi8>, tensor<1x1xf32>, tensor<?x64xi8>, tensor<1x1xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// -----

func.func @negative_f32_block_scales(%a: tensor<64x64xf8E4M3FN>, %sa: tensor<64x2xf32>,
    %o0: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error@+1 {{'sage.qmma' op has scales no MMA instruction applies: a_scales 'tensor<64x2xf32>', b_scales 'tensor<64x2xf32>'}}
  %r = sage.qmma %a scaled %sa, %a scaled %sa, %o0 {accumulator = f32}
    : tensor<64x64xf8E4M3FN>, tensor<64x2xf32>, tensor<64x64xf8E4M3FN>, tensor<64x2xf32> -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
