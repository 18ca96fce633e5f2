// RUN: sage-opt %s --sage-select-mma=chip=sm_89 | FileCheck %s --check-prefix=SM89
// RUN: sage-opt %s --sage-select-mma=chip=sm_90a | FileCheck %s --check-prefix=SM90A
// RUN: sage-opt %s --sage-select-mma="chip=sm_90a scope=warp" | FileCheck %s --check-prefix=SM90A-WARP
// RUN: sage-opt %s --sage-select-mma=chip=sm_100a | FileCheck %s --check-prefix=SM100A

// Q K^T of a 64-row tile: a loaded tile; P V: a computed by sage.quantize.
// SM89-LABEL: func @int8_fp8_tile
//       SM89: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
//       SM89: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
// SM90A-LABEL: func @int8_fp8_tile
//       SM90A: sage.qmma {{.*}}mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
//       SM90A: sage.qmma {{.*}}mma = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
// SM90A-WARP-LABEL: func @int8_fp8_tile
//       SM90A-WARP: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8,
//       SM90A-WARP: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN,
// tcgen05 needs 128 rows: a 64-row tile stays on mma.sync.
// SM100A-LABEL: func @int8_fp8_tile
//       SM100A: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8,
//       SM100A: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN,
func.func @int8_fp8_tile(%q: tensor<64x128xi8>, %qs: tensor<32x1xf32>,
    %k: tensor<64x128xi8>, %ks: tensor<4x1xf32>, %v: tensor<128x64xf8E4M3FN>,
    %one: tensor<1x1xf32>, %s0: tensor<64x64xf32>, %o0: tensor<64x128xf32>)
    -> tensor<64x128xf32> {
  %s = sage.qmma %q scaled %qs, %k scaled %ks, %s0 {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<64x128xi8>, tensor<32x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  %p, %ps = sage.quantize %s {quant = #sage.quant<f8E4M3FN, per_tensor>, bound = 1.0 : f64}
    : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %r = sage.qmma %p scaled %one, %v scaled %one, %o0 {accumulator = f32}
    : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}

// 128-row tiles take tcgen05 on sm_100a; the computed P is read from
// tensor memory.
// SM100A-LABEL: func @int8_fp8_tile_128
//       SM100A: sage.qmma {{.*}}mma = #sage.mma<scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>
//       SM100A: sage.qmma {{.*}}mma = #sage.mma<scope = tcgen05, m = 128, n = 128, k = 32, a = f8E4M3FN, a_source = tensor_memory, b = f8E4M3FN, b_source = shared, acc = f32, scales = none>
func.func @int8_fp8_tile_128(%q: tensor<128x128xi8>, %k: tensor<64x128xi8>,
    %v: tensor<128x64xf8E4M3FN>, %one: tensor<1x1xf32>, %s0: tensor<128x64xf32>,
    %o0: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %s = sage.qmma %q scaled %one, %k scaled %one, %s0 {accumulator = i32}
    : tensor<128x128xi8>, tensor<1x1xf32>, tensor<64x128xi8>, tensor<1x1xf32> -> tensor<128x64xf32>
  %p, %ps = sage.quantize %s {quant = #sage.quant<f8E4M3FN, per_tensor>, bound = 1.0 : f64}
    : tensor<128x64xf32> -> tensor<128x64xf8E4M3FN>, tensor<1x1xf32>
  %r = sage.qmma %p scaled %one, %v scaled %one, %o0 {accumulator = f32}
    : tensor<128x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// INT4 Q K^T (m16n8k64) and an f16 P V accumulator (PTX ISA 8.7).
// SM89-LABEL: func @int4_f16acc
//       SM89: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4, a_source = registers, b = i4, b_source = registers, acc = i32, scales = none>
//       SM89: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f16, scales = none>
// SM90A-LABEL: func @int4_f16acc
// wgmma has no s4: Q K^T stays on mma.sync; P V takes the f16 wgmma.
//       SM90A: sage.qmma {{.*}}mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = i4,
//       SM90A: sage.qmma {{.*}}mma = #sage.mma<scope = warpgroup, m = 64, n = 128, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = shared, acc = f16, scales = none>
func.func @int4_f16acc(%q: tensor<64x128xi4>, %k: tensor<64x128xi4>,
    %v: tensor<128x64xf8E4M3FN>, %one: tensor<1x1xf32>, %s0: tensor<64x64xf32>,
    %o0: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %s = sage.qmma %q scaled %one, %k scaled %one, %s0 {accumulator = i32}
    : tensor<64x128xi4>, tensor<1x1xf32>, tensor<64x128xi4>, tensor<1x1xf32> -> tensor<64x64xf32>
  %p, %ps = sage.quantize %s {quant = #sage.quant<f8E4M3FN, per_tensor, range = 224.0>, bound = 1.0 : f64}
    : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %r = sage.qmma %p scaled %one, %v scaled %one, %o0 {accumulator = f16}
    : tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<128x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x128xf16>
  return %r : tensor<64x128xf16>
}
