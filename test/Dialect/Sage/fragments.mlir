// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// sage.online_softmax and sage.accumulate on a lane's fragments of an
// mma.sync accumulator (docs/Levels.md, L4).

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>

// CHECK-LABEL: func @fragments
//       CHECK:   sage.mask_scores %{{.*}} at [%{{.*}}, %{{.*}}] of [%{{.*}}, %{{.*}}] {causal, fragment = #sage.mma<{{.*}}a = i8{{.*}}>} : vector<32xf32>, i32
//       CHECK:   sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} {base2, fragment = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, {{.*}}>} : vector<32xf32>, vector<2xf32>
//       CHECK:   sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} scaled %[[F:.*]] : vector<1xf32> {base2, fragment = #sage.mma<{{.*}}>, prob_scale = 4.480000e+02 : f64} : vector<32xf32>, vector<2xf32>
//       CHECK:   sage.accumulate %{{.*}} into %{{.*}} rescale %{{.*}} {fragment = #sage.mma<{{.*}}a = f8E4M3FN{{.*}}>, scheme = #sage.accum<f32>} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
func.func @fragments(%s0: vector<32xf32>, %m: vector<2xf32>, %l: vector<2xf32>, %r: vector<4xf32>, %o: vector<4xf32>, %i: i32) -> (vector<32xf32>, vector<4xf32>) {
  %s = sage.mask_scores %s0 at [%i, %i] of [%i, %i] {causal, fragment = #s8} : vector<32xf32>, i32
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %l {base2, fragment = #s8} : vector<32xf32>, vector<2xf32>
  %f = vector.extract_strided_slice %m {offsets = [0], sizes = [1], strides = [1]} : vector<2xf32> to vector<1xf32>
  %pf, %mf, %lf, %af = sage.online_softmax %s, %m, %l scaled %f : vector<1xf32> {base2, fragment = #s8, prob_scale = 448.0 : f64} : vector<32xf32>, vector<2xf32>
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  return %p, %o1 : vector<32xf32>, vector<4xf32>
}

// -----

func.func @negative_no_fragment(%s: vector<32xf32>, %m: vector<2xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op on fragments needs `fragment`, the MMA whose accumulator layout they have}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m : vector<32xf32>, vector<2xf32>
  return
}

// -----

func.func @negative_warpgroup(%s: vector<32xf32>, %m: vector<2xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected the fragments of a warp MMA, got one of scope warpgroup}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {fragment = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8, b_source = shared, acc = i32, scales = none>} : vector<32xf32>, vector<2xf32>
  return
}

// -----

func.func @negative_mixed(%s: tensor<64x64xf32>, %m: vector<2xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected all operands tiles (tensors) or all fragments (vectors), got 'tensor<64x64xf32>' and 'vector<2xf32>'}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m : tensor<64x64xf32>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_tile_with_fragment(%s: tensor<64x64xf32>, %m: tensor<64xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op has a `fragment` layout but operates on tiles}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {fragment = #s8} : tensor<64x64xf32>, tensor<64xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_partial_tile(%s: vector<30xf32>, %m: vector<2xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected scores of whole 16x8 accumulator tiles (4 values a lane), got 'vector<30xf32>'}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {fragment = #s8} : vector<30xf32>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_rows(%s: vector<32xf32>, %m: vector<4xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected max of type 'vector<2xf32>' (the lane's rows of the accumulator), got 'vector<4xf32>'}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {fragment = #s8} : vector<32xf32>, vector<4xf32>
  return
}

// -----

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_f16_scheme(%r: vector<4xf16>, %o: vector<4xf32>, %a: vector<2xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected the fragment of an MMA accumulating in 'f16' for #sage.accum<f16, every = 2>, got #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>}}
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f16, every = 2>, fragment = #e4m3} : vector<4xf16>, vector<2xf32> -> vector<4xf32>
  return
}

// -----

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_buffer(%r: vector<6xf32>, %a: vector<2xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected buffer of whole 16x8 accumulator tiles (4 values a lane), got 'vector<6xf32>'}}
  %o1 = sage.accumulate %r into %r rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<6xf32>, vector<2xf32> -> vector<6xf32>
  return
}


// -----

// (Found by sage-fuzz: the verifier read the missing fragment's
// accumulator type.)
func.func @negative_accumulate_no_fragment(%r: vector<4xf32>, %a: vector<2xf32>) {
  // expected-error@+1 {{'sage.accumulate' op on fragments needs `fragment`, the MMA whose accumulator layout they have}}
  %o1 = sage.accumulate %r into %r rescale %a {scheme = #sage.accum<f32>} : vector<4xf32>, vector<2xf32> -> vector<4xf32>
  return
}
// -----

#e4m3 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_rescale(%r: vector<4xf32>, %a: vector<1xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected rescale of type 'vector<2xf32>' (the lane's rows of the accumulator), got 'vector<1xf32>'}}
  %o1 = sage.accumulate %r into %r rescale %a {scheme = #sage.accum<f32>, fragment = #e4m3} : vector<4xf32>, vector<1xf32> -> vector<4xf32>
  return
}

// -----

func.func @negative_mask_no_fragment(%s: vector<32xf32>, %i: index) {
  // expected-error@+1 {{'sage.mask_scores' op on fragments needs `fragment`, the MMA whose accumulator layout they have}}
  %0 = sage.mask_scores %s at [%i, %i] of [%i, %i] : vector<32xf32>
  return
}

// -----

// P on the Q K^T accumulator fragment: element-wise, one static scale.
#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
// CHECK-LABEL: func @quantize
//       CHECK:   sage.quantize %{{.*}} {bound = 1.000000e+00 : f64, fragment = #sage.mma<{{.*}}a = i8{{.*}}>, quant = #sage.quant<f8E4M3FN, per_tensor>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
func.func @quantize(%p: vector<32xf32>) -> vector<32xf8E4M3FN> {
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
  return %v : vector<32xf8E4M3FN>
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_partial_tile(%p: vector<6xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected input of whole 16x8 accumulator tiles (4 values a lane), got 'vector<6xf32>'}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : vector<6xf32> -> vector<6xf8E4M3FN>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_no_bound(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op on fragments needs a static `bound`: a lane cannot measure a group's maximum alone}}
  %v, %s = sage.quantize %p {quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_layout(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op on fragments has no memory `layout`}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8, layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_int8(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op on fragments lowers E4M3 and f16 only yet, not 'i8'}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<i8, per_tensor>, fragment = #s8} : vector<32xf32> -> vector<32xi8>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_types(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected values of type 'vector<32xf8E4M3FN>' and scales of type 'vector<1xf32>' for an input 'vector<32xf32>', got 'vector<16xf8E4M3FN>' and 'vector<1xf32>'}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : vector<32xf32> -> vector<16xf8E4M3FN>, vector<1xf32>
  return
}

// -----

func.func @negative_quantize_tensor_to_vector(%p: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected tensors of values and scales for a tensor input, got 'vector<32xf8E4M3FN>' and 'vector<1xf32>'}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>} : tensor<64x64xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_tile_fragment(%p: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op has a `fragment` layout but operates on tiles}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>, fragment = #s8} : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

func.func @negative_prob_scale(%s: tensor<64x64xf32>, %m: tensor<64xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected a positive finite prob_scale, got -4.480000e+02}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {prob_scale = -448.0 : f64} : tensor<64x64xf32>, tensor<64xf32>
  return
}

// -----

func.func @negative_zero_prob_scale(%s: tensor<64x64xf32>, %m: tensor<64xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected a positive finite prob_scale, got 0.000000e+00}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m {prob_scale = 0.0 : f64} : tensor<64x64xf32>, tensor<64xf32>
  return
}

// -----

// NVFP4's P on fragments: two levels, a scale byte a 16-key block (four a
// 64-key chunk) and the lane's two row scales.
#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
// CHECK-LABEL: func @quantize_nvfp4
//       CHECK:   sage.quantize %{{.*}} {fragment = #sage.mma<{{.*}}>, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, row_range = 2.688000e+03 : f64} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
func.func @quantize_nvfp4(%p: vector<32xf32>) -> vector<2xf32> {
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return %r : vector<2xf32>
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_no_row_range(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op microscales on fragments in two levels: it needs `row_range`, the range each row is first scaled into}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_bad_row_range(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op row_range must be a finite positive f32, got -1}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = -1.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_bound(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op microscales on fragments with measured scales: no `bound`}}
  %v, %s, %r = sage.quantize %p {bound = 1.0 : f64, fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_mx(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op on fragments microscales as NVFP4 only (f8E4M3FN scales), got 'f8E8M0FNU' scales}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E8M0FNU>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_along_tokens(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op on fragments microscales along the keys (the accumulator's columns), not along tokens}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#m16n8k16 = #sage.mma<scope = warp, m = 16, n = 8, k = 16, a = f16, a_source = registers, b = f16, b_source = registers, acc = f32, scales = none>
func.func @negative_quantize_nvfp4_partial_chunk(%p: vector<16xf32>) {
  // expected-error@+1 {{'sage.quantize' op microscales whole 64-key chunks (32 values a lane), got 'vector<16xf32>'}}
  %v, %s, %r = sage.quantize %p {fragment = #m16n8k16, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<16xf32> -> vector<16xf4E2M1FN>, vector<2xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_scales_type(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected values of type 'vector<32xf4E2M1FN>' and scales of type 'vector<4xf8E4M3FN>' (four a 64-key chunk) for an input 'vector<32xf32>', got 'vector<32xf4E2M1FN>' and 'vector<2xf8E4M3FN>'}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<2xf8E4M3FN>, vector<2xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_no_row_scales(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected a third result, the row scales}}
  %v, %s = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_row_scales_type(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op expected row scales of type 'vector<2xf32>' (the lane's rows of the accumulator), got 'vector<1xf32>'}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<1xf32>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_row_range_e4m3(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op takes `row_range` and returns row scales with NVFP4 microscaling only}}
  %v, %s = sage.quantize %p {bound = 1.0 : f64, fragment = #s8, row_range = 2688.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>} : vector<32xf32> -> vector<32xf8E4M3FN>, vector<1xf32>
  return
}

// -----

func.func @negative_quantize_row_range_tile(%p: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op quantizes in two levels (`row_range`, row scales) on fragments only}}
  %v, %s = sage.quantize %p {row_range = 2688.0 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : tensor<64x64xf32> -> tensor<64x64xf4E2M1FN>, tensor<64x4xf8E4M3FN>
  return
}

// -----

#s8 = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_quantize_nvfp4_row_range_beyond_f32(%p: vector<32xf32>) {
  // expected-error@+1 {{'sage.quantize' op row_range must be a finite positive f32, got 1.000000e+300}}
  %v, %s, %r = sage.quantize %p {fragment = #s8, row_range = 1.0e300 : f64, quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
  return
}
