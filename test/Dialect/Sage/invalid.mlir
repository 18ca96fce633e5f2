// RUN: sage-opt %s -split-input-file -verify-diagnostics

// One case per op verifier rule.

func.func @f(%q: tensor<16x64xf16>, %k: tensor<16x64xf16>, %v: tensor<16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op expects a layout of rank 3 or 4, got 2}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<16x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x16x64xf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op has causal_alignment = top_left but is not causal}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, causal_alignment = #sage.causal_alignment<top_left>}
    : (tensor<2x16x64xf16>, tensor<2x16x64xf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%s: tensor<64x64xf32>, %i: index) {
  // expected-error@+1 {{'sage.mask_scores' op has causal_alignment = bottom_right but is not causal}}
  %0 = sage.mask_scores %s at [%i, %i] of [%i, %i] {causal_alignment = #sage.causal_alignment<bottom_right>} : tensor<64x64xf32>
  return
}

// -----

func.func @f(%q: tensor<1x2x16x64xf16>, %k: tensor<2x16x64xf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op expected query of rank 3 to match the layout, got 'tensor<1x2x16x64xf16>'}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x2x16x64xf16>, tensor<2x16x64xf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x16x64xbf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op expected key element type 'f16' (the query's), got 'bf16'}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x16x64xbf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x?xf16>, %k: tensor<2x16x?xf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op expected a static features dimension in query, got 'tensor<2x16x?xf16>'}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x?xf16>, tensor<2x16x?xf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x16x128xf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op feature sizes of query and key differ: 64 vs 128}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x16x128xf16>, tensor<2x16x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x16x64xf16>, %v: tensor<2x16x64xf16>) {
  // expected-error@+1 {{'sage.attention' op feature sizes of value and result differ: 64 vs 32}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x16x64xf16>, tensor<2x16x64xf16>) -> tensor<2x16x32xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x20x64xf16>) {
  // expected-error@+1 {{'sage.attention' op token counts of key and value differ: 24 vs 20}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x20x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op token counts of query and result differ: 16 vs 17}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>) -> tensor<2x17x64xf16>
  return
}

// -----

func.func @f(%q: tensor<1x8x16x64xf16>, %k: tensor<1x4x24x64xf16>, %v: tensor<1x2x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op head counts of key and value differ: 4 vs 2}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x8x16x64xf16>, tensor<1x4x24x64xf16>, tensor<1x2x24x64xf16>) -> tensor<1x8x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<1x8x16x64xf16>, %k: tensor<1x4x24x64xf16>, %v: tensor<1x4x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op head counts of query and result differ: 8 vs 4}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x8x16x64xf16>, tensor<1x4x24x64xf16>, tensor<1x4x24x64xf16>) -> tensor<1x4x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<3x24x64xf16>, %v: tensor<3x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op batch sizes of query and key differ: 2 vs 3}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<3x24x64xf16>, tensor<3x24x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<1x32x16x64xf16>, %k: tensor<1x6x24x64xf16>, %v: tensor<1x6x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op query heads (32) must be a multiple of key/value heads (6)}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, heads, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<1x32x16x64xf16>, tensor<1x6x24x64xf16>, tensor<1x6x24x64xf16>) -> tensor<1x32x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>, %m: tensor<16x24xi1>) {
  // expected-error@+1 {{'sage.attention' op expected mask of rank 3, got 'tensor<16x24xi1>'}}
  %o = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>, tensor<16x24xi1>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>, %m: tensor<1x16x16xi1>) {
  // expected-error@+1 {{'sage.attention' op mask dimension 2 has size 16, expected 24 (scores are [2, 16, 24])}}
  %o = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>, tensor<1x16x16xi1>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>, %m: tensor<3x16x24xf16>) {
  // expected-error@+1 {{'sage.attention' op mask dimension 0 has size 3, expected 2 or 1 (scores are [2, 16, 24])}}
  %o = sage.attention %q, %k, %v mask(%m) {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>, tensor<3x16x24xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op expected lse of shape [2, 16] (the result without features), got 'tensor<2x16x64xf32>'}}
  %o, %l = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>) -> (tensor<2x16x64xf16>, tensor<2x16x64xf32>)
  return
}

// -----

func.func @f(%q: tensor<2x16x64xf16>, %k: tensor<2x24x64xf16>, %v: tensor<2x24x64xf16>) {
  // expected-error@+1 {{'sage.attention' op scale must be finite and non-zero, got 0}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">, scale = 0.0 : f64}
    : (tensor<2x16x64xf16>, tensor<2x24x64xf16>, tensor<2x24x64xf16>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%q: tensor<2x16x64xi8>, %k: tensor<2x24x64xi8>, %v: tensor<2x24x64xi8>) {
  // expected-error@+1 {{'sage.attention' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float values, but got 'tensor<2x16x64xi8>'}}
  %o = sage.attention %q, %k, %v {layout = #sage.layout<[batch, tokens, features]>, recipe = #sage.recipe<"int8-fp8">}
    : (tensor<2x16x64xi8>, tensor<2x24x64xi8>, tensor<2x24x64xi8>) -> tensor<2x16x64xf16>
  return
}

// -----

func.func @f(%x: tensor<64xf16>) {
  // expected-error@+1 {{'sage.smooth' op expected input of rank >= 2 ([..., tokens, features]), got 'tensor<64xf16>'}}
  %s, %m = sage.smooth %x : tensor<64xf16> -> tensor<1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.smooth' op expected mean of shape [2, 2, 64], got 'tensor<2x1x64xf32>'}}
  %s, %m = sage.smooth %x {block = 64} : tensor<2x100x64xf16> -> tensor<2x1x64xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.smooth' op attribute 'block' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %s, %m = sage.smooth %x {block = 0} : tensor<2x100x64xf16> -> tensor<2x1x64xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op expected values of shape [2, 100, 64], got 'tensor<2x100x32xi8>'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_token>} : tensor<2x100x64xf16> -> tensor<2x100x32xi8>, tensor<2x100x1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op values element type 'i4' does not match the quantization format 'i8'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_token>} : tensor<2x100x64xf16> -> tensor<2x100x64xi4>, tensor<2x100x1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op scales element type 'f8E4M3FN' does not match the scale type 'f32'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_token>} : tensor<2x100x64xf16> -> tensor<2x100x64xi8>, tensor<2x100x1xf8E4M3FN>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op expected scales of shape [2, 32, 1] for per_thread, got 'tensor<2x8x1xf32>'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>} : tensor<2x100x64xf16> -> tensor<2x100x64xi8>, tensor<2x8x1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op expected scales of shape [2, 8, 1] for per_thread, got 'tensor<2x2x1xf32>'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>} : tensor<2x100x64xf16> -> tensor<2x100x64xi8>, tensor<2x2x1xf32>
  return
}

// -----

func.func @f(%x: tensor<2x100x40xf16>) {
  // expected-error@+1 {{'sage.quantize' op microscale blocks of 16 must divide the features dimension, got 40}}
  %v, %s = sage.quantize %x {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>} : tensor<2x100x40xf16> -> tensor<2x100x40xf4E2M1FN>, tensor<2x100x3xf8E4M3FN>
  return
}

// -----

func.func @f(%x: tensor<100xf16>) {
  // expected-error@+1 {{'sage.quantize' op expected a tensor of rank >= 2 ([..., tokens, features]), got rank 1}}
  %v, %s = sage.quantize %x {quant = #sage.quant<i8, per_token>} : tensor<100xf16> -> tensor<100xi8>, tensor<1xf32>
  return
}

// -----

func.func @f(%v: tensor<100x64xf8E4M3FN>, %s: tensor<100x1xf32>) {
  // expected-error@+1 {{'sage.dequantize' op expected scales of shape [1, 64] for per_channel, got 'tensor<100x1xf32>'}}
  %x = sage.dequantize %v, %s {quant = #sage.quant<f8E4M3FN, per_channel>} : tensor<100x64xf8E4M3FN>, tensor<100x1xf32> -> tensor<100x64xf32>
  return
}

// -----

func.func @f(%a: tensor<64xi8>, %sa: tensor<1xf32>, %b: tensor<64xi8>, %sb: tensor<1xf32>, %c: tensor<1xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected operands of rank >= 2, got 'tensor<64xi8>'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<64xi8>, tensor<1xf32>, tensor<64xi8>, tensor<1xf32> -> tensor<1xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<1x8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected every operand of rank 2 (a's), got 'tensor<1x8x64xi8>'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<1x8x64xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<2x16x64xi8>, %sa: tensor<2x16x1xf32>, %b: tensor<3x8x64xi8>, %sb: tensor<3x8x1xf32>, %c: tensor<2x16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op batch dimensions of a 'tensor<2x16x64xi8>', b 'tensor<3x8x64xi8>' and result 'tensor<2x16x8xf32>' differ}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<2x16x64xi8>, tensor<2x16x1xf32>, tensor<3x8x64xi8>, tensor<3x8x1xf32> -> tensor<2x16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x32xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op contraction sizes differ: a has K = 64, b has K = 32}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x32xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x16xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected result of 16x8 (M x N), got 'tensor<16x16xf32>'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi8>, tensor<8x1xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xf8E4M3FN>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op no mma combines 'i8' and 'f8E4M3FN'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xf8E4M3FN>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi4>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op no mma combines 'i8' and 'i4'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi4>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op 'i8' operands cannot accumulate in 'f32'; expected i32}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = f32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x32xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<8x32xf8E5M2>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op 'f8E4M3FN' operands cannot accumulate in 'i32'; expected f32 or f16}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x32xf8E4M3FN>, tensor<1x1xf32>, tensor<8x32xf8E5M2>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x32xf4E2M1FN>, %sa: tensor<16x2xf8E4M3FN>, %b: tensor<8x32xf4E2M1FN>, %sb: tensor<8x2xf8E4M3FN>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op 'f4E2M1FN' operands cannot accumulate in 'f16'; expected f32}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = f16} : tensor<16x32xf4E2M1FN>, tensor<16x2xf8E4M3FN>, tensor<8x32xf4E2M1FN>, tensor<8x2xf8E4M3FN> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x32xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<8x32xf8E4M3FN>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected a 'f16' result for a 'f16' accumulator, got 'f32'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = f16} : tensor<16x32xf8E4M3FN>, tensor<1x1xf32>, tensor<8x32xf8E4M3FN>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<8x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected a_scales rows to be 1 or 16, got 8}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<8x1xf32>, tensor<8x64xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf8E4M3FN>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op row-wise a_scales must be f32, got 'f8E4M3FN'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf8E4M3FN>, tensor<8x64xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x4xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op block b_scales need a float format, got 'i8'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi8>, tensor<8x4xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xf4E2M1FN>, %sa: tensor<16x8xf8E4M3FN>, %b: tensor<8x64xf4E2M1FN>, %sb: tensor<8x4xf8E4M3FN>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op block a_scales must cover 16 or 32 elements of K = 64, got 8 scales}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = f32} : tensor<16x64xf4E2M1FN>, tensor<16x8xf8E4M3FN>, tensor<8x64xf4E2M1FN>, tensor<8x4xf8E4M3FN> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%s: tensor<128x64xf32>, %m: tensor<64xf32>) {
  // expected-error@+1 {{'sage.online_softmax' op expected max of shape [128] (one per row of 'tensor<128x64xf32>'), got 'tensor<64xf32>'}}
  %p, %m1, %l1, %a = sage.online_softmax %s, %m, %m : tensor<128x64xf32>, tensor<64xf32>
  return
}

// -----

func.func @f(%r: tensor<128x64xf32>, %o: tensor<128x128xf32>, %a: tensor<128xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected partial of shape [128, 128] (the buffer's), got 'tensor<128x64xf32>'}}
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>} : tensor<128x64xf32>, tensor<128xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @f(%r: tensor<128x128xf32>, %o: tensor<128x128xf32>, %a: tensor<128xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected a 'f16' partial for #sage.accum<f16, every = 2>, got 'f32'}}
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f16, every = 2>} : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @f(%r: tensor<128x128xf32>, %o: tensor<128x128xf32>, %a: tensor<64xf32>) {
  // expected-error@+1 {{'sage.accumulate' op expected rescale of shape [128] (one per row of 'tensor<128x128xf32>'), got 'tensor<64xf32>'}}
  %o1 = sage.accumulate %r into %o rescale %a {scheme = #sage.accum<f32>} : tensor<128x128xf32>, tensor<64xf32> -> tensor<128x128xf32>
  return
}

// -----

func.func @quantize_bound_not_positive(%x: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op bound must be finite and positive, got -1}}
  %v, %s = sage.quantize %x {quant = #sage.quant<f8E4M3FN, per_tensor>, bound = -1.0 : f64}
    : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

func.func @qmma_grouped_scales_shape(%a: tensor<64x128xi8>, %sa: tensor<64x1xf32>,
    %b: tensor<64x128xi8>, %sb: tensor<4x1xf32>, %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected scales of shape [32, 1] for per_thread, got 'tensor<64x1xf32>'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
      b_quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<64x128xi8>, tensor<64x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @qmma_grouped_format(%a: tensor<64x128xi8>, %sa: tensor<32x1xf32>,
    %b: tensor<64x128xi8>, %sb: tensor<4x1xf32>, %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op values element type 'i8' does not match the quantization format 'i4'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32,
      a_quant = #sage.quant<i4, per_thread, operand = a, block = 64, warp = 16>}
    : tensor<64x128xi8>, tensor<32x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @mask_scores_rank(%s: tensor<64xf32>, %i: index) {
  // expected-error@+1 {{'sage.mask_scores' op operand #0 must be 2D tensor of 32-bit float values or vector of 32-bit float values of ranks 1, but got 'tensor<64xf32>'}}
  %0 = sage.mask_scores %s at [%i, %i] of [%i, %i] : tensor<64xf32>
  return
}

// -----

func.func @qmma_grouped_operand_role(%a: tensor<64x128xi8>, %sa: tensor<4x1xf32>,
    %b: tensor<64x128xi8>, %sb: tensor<4x1xf32>, %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op a_scales are grouped for mma operand b, expected a}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32,
      a_quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
    : tensor<64x128xi8>, tensor<4x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @quantize_bound_block_scales(%x: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op a static bound needs f32 scales, got 'f8E4M3FN'}}
  %v, %s = sage.quantize %x {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, bound = 1.0 : f64}
    : tensor<64x64xf32> -> tensor<64x64xf4E2M1FN>, tensor<64x4xf8E4M3FN>
  return
}

// -----

func.func @qmma_instruction_formats(%a: tensor<64x128xi8>, %s: tensor<1x1xf32>,
    %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op mma multiplies 'f8E4M3FN' x 'f8E4M3FN' -> 'f32', but the operands are 'i8' x 'i8' -> 'i32'}}
  %r = sage.qmma %a scaled %s, %a scaled %s, %c {accumulator = i32,
      mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                      b = f8E4M3FN, b_source = registers, acc = f32, scales = none>}
    : tensor<64x128xi8>, tensor<1x1xf32>, tensor<64x128xi8>, tensor<1x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @qmma_instruction_tile(%a: tensor<32x128xi8>, %s: tensor<1x1xf32>,
    %c: tensor<32x32xf32>) {
  // expected-error@+1 {{'sage.qmma' op tile M = 32 is not a multiple of the mma's M = 64}}
  %r = sage.qmma %a scaled %s, %a scaled %s, %c {accumulator = i32,
      mma = #sage.mma<scope = warpgroup, m = 64, n = 32, k = 32, a = i8, a_source = shared,
                      b = i8, b_source = shared, acc = i32, scales = none>}
    : tensor<32x128xi8>, tensor<1x1xf32>, tensor<32x128xi8>, tensor<1x1xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @qmma_instruction_scales(%a: tensor<64x128xf4E2M1FN>, %s: tensor<1x1xf32>,
    %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op mma applies ue4m3_block16 scales, but the operand scales are 'tensor<1x1xf32>'}}
  %r = sage.qmma %a scaled %s, %a scaled %s, %c {accumulator = f32,
      mma = #sage.mma<scope = warp, m = 16, n = 8, k = 64, a = f4E2M1FN, a_source = registers,
                      b = f4E2M1FN, b_source = registers, acc = f32, scales = ue4m3_block16>}
    : tensor<64x128xf4E2M1FN>, tensor<1x1xf32>, tensor<64x128xf4E2M1FN>, tensor<1x1xf32> -> tensor<64x64xf32>
  return
}

// -----

// f16 is a rounding with the unit scale, stated by a bound equal to the range.
func.func @negative_quantize_f16_measured(%x: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.quantize' op rounds to f16 with the unit scale: expected bound = 65504 (the range)}}
  %v, %s = sage.quantize %x {quant = #sage.quant<f16, per_tensor>}
    : tensor<64x64xf32> -> tensor<64x64xf16>, tensor<1x1xf32>
  return
}
