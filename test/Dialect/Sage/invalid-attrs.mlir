// RUN: sage-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// One case per attribute verifier rule and parser error.

// expected-error@+1 {{unsupported element type 'bf16'; expected i8, i4, f8E4M3FN, f8E5M2, f4E2M1FN or f16}}
"test.op"() {attr = #sage.quant<bf16, per_token>} : () -> ()

// -----

// expected-error@+1 {{f16 takes per_tensor or per_channel scales, got per_token}}
"test.op"() {attr = #sage.quant<f16, per_token>} : () -> ()

// -----

// expected-error@+1 {{unsupported scale type 'f16'; expected f32, f8E4M3FN or f8E8M0FNU}}
"test.op"() {attr = #sage.quant<i8, per_token, scale = f16>} : () -> ()

// -----

// expected-error@+1 {{range 200 must be in (0, 127], the finite range of 'i8'}}
"test.op"() {attr = #sage.quant<i8, per_token, range = 200.0>} : () -> ()

// -----

// expected-error@+1 {{range 0 must be in (0, 448], the finite range of 'f8E4M3FN'}}
"test.op"() {attr = #sage.quant<f8E4M3FN, per_tensor, range = 0.0>} : () -> ()

// -----

// expected-error@+1 {{'block' and 'warp' must be positive, got block = -64, warp = 0}}
"test.op"() {attr = #sage.quant<i8, per_block, block = -64>} : () -> ()

// -----

// expected-error@+1 {{'operand' applies to per_thread only, got per_token}}
"test.op"() {attr = #sage.quant<i8, per_token, operand = a>} : () -> ()

// -----

// expected-error@+1 {{'block' does not apply to per_channel}}
"test.op"() {attr = #sage.quant<i8, per_channel, block = 64>} : () -> ()

// -----

// expected-error@+1 {{per_warp 'block' (the tile its warps are in) must be a multiple of 'warp', got block = 72, warp = 16}}
"test.op"() {attr = #sage.quant<i8, per_warp, block = 72, warp = 16>} : () -> ()

// -----

// expected-error@+1 {{'warp' does not apply to per_block}}
"test.op"() {attr = #sage.quant<i8, per_block, block = 64, warp = 32>} : () -> ()

// -----

// expected-error@+1 {{'warp' does not apply to per_thread operand b}}
"test.op"() {attr = #sage.quant<i8, per_thread, operand = b, block = 64, warp = 32>} : () -> ()

// -----

// expected-error@+1 {{per_block needs 'block'}}
"test.op"() {attr = #sage.quant<i8, per_block>} : () -> ()

// -----

// expected-error@+1 {{per_warp needs 'warp'}}
"test.op"() {attr = #sage.quant<i8, per_warp>} : () -> ()

// -----

// expected-error@+1 {{per_thread needs 'operand' (a for rows of Q, b for tokens of K)}}
"test.op"() {attr = #sage.quant<i8, per_thread, block = 64>} : () -> ()

// -----

// expected-error@+1 {{microscale needs a float element type, got 'i8'}}
"test.op"() {attr = #sage.quant<i8, microscale, block = 16, scale = f8E4M3FN>} : () -> ()

// -----

// expected-error@+1 {{f8E4M3FN block scales (NVFP4) need f4E2M1FN values, got 'f8E4M3FN'}}
"test.op"() {attr = #sage.quant<f8E4M3FN, microscale, block = 16, scale = f8E4M3FN>} : () -> ()

// -----

// expected-error@+1 {{NVFP4 microscaling needs blocks of 16, got 32}}
"test.op"() {attr = #sage.quant<f4E2M1FN, microscale, block = 32, scale = f8E4M3FN>} : () -> ()

// -----

// expected-error@+1 {{MX microscaling (f8E8M0FNU scales) needs blocks of 32, got 16}}
"test.op"() {attr = #sage.quant<f8E4M3FN, microscale, block = 16, scale = f8E8M0FNU>} : () -> ()

// -----

// expected-error@+1 {{microscale needs f8E4M3FN or f8E8M0FNU scales, got 'f32'}}
"test.op"() {attr = #sage.quant<f4E2M1FN, microscale, block = 16>} : () -> ()

// -----

// expected-error@+1 {{per_token scales must be f32, got 'f8E4M3FN'}}
"test.op"() {attr = #sage.quant<i8, per_token, scale = f8E4M3FN>} : () -> ()

// -----

// expected-error@+1 {{per_thread needs an mma.sync operand format (i8, i4, f8E4M3FN, f8E5M2), got 'f4E2M1FN'}}
"test.op"() {attr = #sage.quant<f4E2M1FN, per_thread, operand = b, block = 64>} : () -> ()

// -----

// expected-error@+1 {{per_thread operand a needs 'warp' to be a multiple of the mma M (16), got 24}}
"test.op"() {attr = #sage.quant<i8, per_thread, operand = a, block = 120, warp = 24>} : () -> ()

// -----

// expected-error@+1 {{'block' (80) must be a multiple of 'warp' (32)}}
"test.op"() {attr = #sage.quant<i8, per_thread, operand = a, block = 80, warp = 32>} : () -> ()

// -----

// expected-error@+1 {{per_thread operand b needs 'block' to be a multiple of the mma N (8), got 60}}
"test.op"() {attr = #sage.quant<i4, per_thread, operand = b, block = 60>} : () -> ()

// -----

// expected-error@+1 {{unknown key 'group'; expected operand, block, warp, scale, range or along}}
"test.op"() {attr = #sage.quant<i8, per_token, group = 4>} : () -> ()

// -----

// expected-error@+1 {{duplicate key 'block'}}
"test.op"() {attr = #sage.quant<i8, per_block, block = 64, block = 32>} : () -> ()

// -----

// expected-error@+1 {{PV accumulator must be f32 or f16, got 'bf16'}}
"test.op"() {attr = #sage.accum<bf16>} : () -> ()

// -----

// expected-error@+1 {{f16 accumulation needs 'every' >= 1 (MMAs summed in f16 before each flush to f32)}}
"test.op"() {attr = #sage.accum<f16>} : () -> ()

// -----

// expected-error@+1 {{'every' applies to f16 accumulation only; f32 flushes once per K/V block, got every = 2}}
"test.op"() {attr = #sage.accum<f32, every = 2>} : () -> ()

// -----

// expected-error@+1 {{dimension role 'tokens' appears 2 times}}
"test.op"() {attr = #sage.layout<[batch, tokens, tokens, features]>} : () -> ()

// -----

// expected-error@+1 {{layout needs a 'tokens' dimension}}
"test.op"() {attr = #sage.layout<[batch, heads, features]>} : () -> ()

// -----

// expected-error@+1 {{unknown variant 'int16-fp8'; expected "int8-fp8", "int4-fp8", "int8-fp8-f16acc", "int4-fp8-f16acc", "nvfp4", "int8-fp16" or "int8-fp16-f16acc"}}
"test.op"() {attr = #sage.recipe<"int16-fp8">} : () -> ()

// -----

// expected-error@+1 {{nvfp4 quantizes Q and K with microscale, got per_thread}}
"test.op"() {attr = #sage.recipe<nvfp4, qk = per_thread>} : () -> ()

// -----

// expected-error@+1 {{p_range and v_range apply to the FP8 variants, not nvfp4}}
"test.op"() {attr = #sage.recipe<nvfp4, p_range = 448.0>} : () -> ()

// -----

// expected-error@+1 {{p_range and v_range apply to the FP8 variants; int8-fp16 fixes them to 1 and 65504}}
"test.op"() {attr = #sage.recipe<"int8-fp16", v_range = 4.5>} : () -> ()

// -----

// expected-error@+1 {{microscale Q/K needs the nvfp4 variant, got int8-fp8}}
"test.op"() {attr = #sage.recipe<"int8-fp8", qk = microscale>} : () -> ()

// -----

// expected-error@+1 {{per_channel is not a Q/K granularity: its scales would run along the contraction}}
"test.op"() {attr = #sage.recipe<"int8-fp8", qk = per_channel>} : () -> ()

// -----

// The default smoothing is [q, k]: Q's means need Q blocks.
// expected-error@+1 {{Q smoothing subtracts a mean per block of Q tokens, which per_tensor Q/K scales do not name: use smooth = [k] (or [k, v]) or a blocked qk granularity}}
"test.op"() {attr = #sage.recipe<"int8-fp8", qk = per_tensor>} : () -> ()

// -----

// expected-error@+1 {{p_range and v_range must be in (0, 448] for f8E4M3FN, got 500 and 448}}
"test.op"() {attr = #sage.recipe<"int8-fp8", p_range = 500.0>} : () -> ()

// -----

// expected-error@+1 {{f16 PV accumulation needs p_range * v_range <= 1023.5, got 224 * 448 = 100352}}
"test.op"() {attr = #sage.recipe<"int8-fp8-f16acc", v_range = 448.0>} : () -> ()

// -----

// expected-error@+1 {{f16 PV accumulation needs p_range * v_range <= 1023.5, got 448 * 4.5 = 2016}}
"test.op"() {attr = #sage.recipe<"int4-fp8-f16acc", p_range = 448.0>} : () -> ()

// -----

// expected-error@+1 {{cannot smooth 'o'; expected q, k or v}}
"test.op"() {attr = #sage.recipe<"int8-fp8", smooth = [q, o]>} : () -> ()

// -----

// expected-error@+1 {{unknown key 'accum'; expected qk, smooth, p_range or v_range}}
"test.op"() {attr = #sage.recipe<"int8-fp8", accum = f16>} : () -> ()

// -----

// expected-error@+1 {{no warpgroup MMA instruction computes 64x64x32 'i8' (registers) x 'i8' (registers) -> 'i32'; the table has m64n16..256k32 (shared, shared), m64n16..256k32 (registers, shared)}}
func.func private @mma_not_in_table() attributes {mma = #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>}

// -----

// expected-error@+1 {{no warp MMA instruction computes 16x8x32 'f8E4M3FN' (registers) x 'f8E4M3FN' (registers) -> 'bf16'}}
func.func private @mma_bf16_accumulator() attributes {mma = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = bf16, scales = none>}

// -----

// expected-error@+1 {{'along' applies to microscale only, got per_channel}}
"test.op"() {attr = #sage.quant<f8E4M3FN, per_channel, along = tokens>} : () -> ()

// -----

// expected-error@+1 {{microscale blocks run along tokens or features, got heads}}
"test.op"() {attr = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = heads>} : () -> ()
