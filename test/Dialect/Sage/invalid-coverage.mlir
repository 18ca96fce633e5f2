// RUN: sage-opt %s -split-input-file -verify-diagnostics

// The verifier rules test/Dialect/Sage/invalid.mlir leaves out: one case per
// diagnostic that scripts/check-diagnostics.py found without a test.

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x4xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op block a_scales need a float format, got 'i8'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x4xf32>, tensor<8x64xi8>, tensor<8x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<4x1xf32>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op expected b_scales rows to be 1 or 8, got 4}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi8>, tensor<4x1xf32> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xi8>, %sa: tensor<16x1xf32>, %b: tensor<8x64xi8>, %sb: tensor<8x1xf8E4M3FN>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op row-wise b_scales must be f32, got 'f8E4M3FN'}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32} : tensor<16x64xi8>, tensor<16x1xf32>, tensor<8x64xi8>, tensor<8x1xf8E4M3FN> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<16x64xf4E2M1FN>, %sa: tensor<16x4xf8E4M3FN>, %b: tensor<8x64xf4E2M1FN>, %sb: tensor<8x8xf8E4M3FN>, %c: tensor<16x8xf32>) {
  // expected-error@+1 {{'sage.qmma' op block b_scales must cover 16 or 32 elements of K = 64, got 8 scales}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = f32} : tensor<16x64xf4E2M1FN>, tensor<16x4xf8E4M3FN>, tensor<8x64xf4E2M1FN>, tensor<8x8xf8E4M3FN> -> tensor<16x8xf32>
  return
}

// -----

func.func @f(%a: tensor<64x128xi8>, %sa: tensor<64x1xf32>, %b: tensor<64x128xi8>, %sb: tensor<4x1xf32>, %c: tensor<64x64xf32>) {
  // expected-error@+1 {{'sage.qmma' op b_scales are grouped for mma operand a, expected b}}
  %r = sage.qmma %a scaled %sa, %b scaled %sb, %c {accumulator = i32,
      b_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>}
    : tensor<64x128xi8>, tensor<64x1xf32>, tensor<64x128xi8>, tensor<4x1xf32> -> tensor<64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x64x64xi8>, %qs: tensor<1x1x1xf32>, %kv: tensor<1x64x64xi8>, %ks: tensor<1x1x1xf32>,
    %vv: tensor<1x64x64xf8E4M3FN>, %vs: tensor<1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected operands laid out [batch, heads, tokens, features], got 'tensor<1x64x64xi8>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x64x64xi8>, tensor<1x1x1xf32>, tensor<1x64x64xi8>, tensor<1x1x1xf32>, tensor<1x64x64xf8E4M3FN>, tensor<1x1x64xf32>) -> tensor<1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x32xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected k_values of shape [1, 1, 64, 64], got 'tensor<1x1x64x32xi8>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x32xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x32x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_values of shape [1, 1, 64, 64], got 'tensor<1x1x32x64xf8E4M3FN>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x32x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected result of shape [1, 1, 64, 64], got 'tensor<1x1x32x64xf32>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x32x64xf32>
  return
}

// -----

// The custom syntax binds q_mean and key together; the generic form can
// give one without the other.
func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %qm: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op q_smooth needs both the Q block means and the unquantized key}}
  %o = "sage.quantized_attention"(%qv, %qs, %kv, %ks, %vv, %vs, %qm) <{
      operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>,
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}>
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %qm: tensor<1x1x1x64xf32>, %k: tensor<1x1x64x64xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op Q smoothing needs Q blocks: q_quant has no 'block'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>, tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x2x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %qm: tensor<1x1x1x64xf32>, %k: tensor<1x1x64x64xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected q_mean of shape [1, 1, 2, 64], got 'tensor<1x1x1x64xf32>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
      q_quant = #sage.quant<i8, per_block, block = 32>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x2x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>, tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %qm: tensor<1x1x1x64xf32>, %k: tensor<1x1x32x64xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected key of shape [1, 1, 64, 64], got 'tensor<1x1x32x64xf16>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) q_smooth(%qm, %k) {
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>, tensor<1x1x32x64xf16>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %km: tensor<1x1x64x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected k_mean of shape [1, 1, 1, 64], got 'tensor<1x1x64x64xf32>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) k_smooth(%km) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x64x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %vm: tensor<1x1x1x32xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_mean of shape [1, 1, 1, 64], got 'tensor<1x1x1x32xf32>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) v_smooth(%vm) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x32xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x1xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected per_tensor P and per_channel V scales (or per_tensor f16 V), got per_tensor and per_tensor}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_tensor>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x1xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op #sage.accum<f16, every = 2> overflows: P_r * V_r = 2.007040e+05 exceeds 1.023500e+03}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f16, every = 2>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

// The message sage.attention's verifier shares: counted once by
// check-diagnostics.py, tested here for the quantized core too.
func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op scale must be finite and non-zero, got 0}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.0 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

// lse_query restores the K-smoothing shift of the LSE; without an lse result
// there is nothing to read it for.
func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %q: tensor<1x1x64x64xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op lse_query is read only for the lse result, which the op does not have}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) lse_query(%q) {
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x64x64xf16>) -> tensor<1x1x64x64xf32>
  return
}

// -----

// With K smoothed, the LSE needs the unquantized query to undo the shift.
func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %km: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op the lse of K-smoothed scores needs the unquantized query (lse_query) to add back scale * (q - q_mean) . k_mean}}
  %o, %lse = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) k_smooth(%km) {
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>) -> (tensor<1x1x64x64xf32>, tensor<1x1x64xf32>)
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected lse of shape [1, 1, 64], got 'tensor<1x64xf32>'}}
  %o, %lse = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>) -> (tensor<1x1x64x64xf32>, tensor<1x64xf32>)
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf8E4M3FN>, %vs: tensor<1x1x1x64xf32>, %km: tensor<1x1x1x64xf32>, %q: tensor<1x1x64x32xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected lse_query of shape [1, 1, 64, 64], got 'tensor<1x1x64x32xf16>'}}
  %o, %lse = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) k_smooth(%km) lse_query(%q) {
      q_quant = #sage.quant<i8, per_block, block = 64>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf8E4M3FN>, tensor<1x1x1x64xf32>, tensor<1x1x1x64xf32>, tensor<1x1x64x32xf16>) -> (tensor<1x1x64x64xf32>, tensor<1x1x64xf32>)
  return
}

// -----

func.func @negative_mask_rank(%qv: tensor<1x2x64x64xi8>, %qs: tensor<1x2x1x1xf32>, %kv: tensor<1x2x32x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x32x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>, %m: tensor<64x32xi1>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected a mask of rank 4 ([batch | 1, heads | 1, queries, keys]), got 'tensor<64x32xi1>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) mask(%m) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x2x64x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<64x32xi1>) -> tensor<1x2x64x64xf32>
  return
}

// -----

func.func @negative_mask_heads(%qv: tensor<1x2x64x64xi8>, %qs: tensor<1x2x1x1xf32>, %kv: tensor<1x2x32x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x32x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>, %m: tensor<1x3x64x32xf16>) {
  // expected-error@+1 {{'sage.quantized_attention' op mask dimension 1 has size 3, expected 2 or 1 (scores are [1, 2, 64, 32])}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) mask(%m) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x2x64x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x3x64x32xf16>) -> tensor<1x2x64x64xf32>
  return
}

// -----

func.func @negative_mask_keys(%qv: tensor<1x2x64x64xi8>, %qs: tensor<1x2x1x1xf32>, %kv: tensor<1x2x32x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x32x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>, %m: tensor<1x1x64x1xi1>) {
  // expected-error@+1 {{'sage.quantized_attention' op mask dimension 3 has size 1, expected 32 (scores are [1, 2, 64, 32])}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) mask(%m) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x2x64x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x32x64xf8E4M3FN>, tensor<1x2x1x64xf32>, tensor<1x1x64x1xi1>) -> tensor<1x2x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf16>, %vs: tensor<1x1x1x1xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected P and V both in f16 or both quantized, got 'f8E4M3FN' and 'f16'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f16, per_tensor>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf16>, tensor<1x1x1x1xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

// int8-fp16's unscaled V: an f16 accumulator could overflow.
func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf16>, %vs: tensor<1x1x1x1xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op sums unscaled f16 V in #sage.accum<f16, every = 2>, which it can overflow: scale V per_channel}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f16, per_tensor, range = 1.0>, v_quant = #sage.quant<f16, per_tensor>,
      pv_accum = #sage.accum<f16, every = 2>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf16>, tensor<1x1x1x1xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xi8>, %qs: tensor<1x1x1x1xf32>, %kv: tensor<1x1x64x64xi8>, %ks: tensor<1x1x1x1xf32>,
    %vv: tensor<1x1x64x64xf16>, %vs: tensor<1x1x1x64xf32>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected f16 P unscaled (range 1), got #sage.quant<f16, per_tensor, range = 2.0>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f16, per_tensor, range = 2.0>, v_quant = #sage.quant<f16, per_channel, range = 1023.0>,
      pv_accum = #sage.accum<f16, every = 2>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xi8>, tensor<1x1x1x1xf32>, tensor<1x1x64x64xf16>, tensor<1x1x1x64xf32>) -> tensor<1x1x64x64xf32>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xf4E2M1FN>, %qs: tensor<1x1x64x4xf8E4M3FN>, %kv: tensor<1x1x64x64xf4E2M1FN>, %ks: tensor<1x1x64x4xf8E4M3FN>,
    %vv: tensor<1x1x64x64xf4E2M1FN>, %vs: tensor<1x1x4x64xf8E4M3FN>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected block_q and block_k with microscaled Q and K (whose blocks are not the tiles), and only then}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, k_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      p_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, v_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x4x64xf8E4M3FN>) -> tensor<1x1x64x64xf16>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xf4E2M1FN>, %qs: tensor<1x1x64x4xf8E4M3FN>, %kv: tensor<1x1x64x64xf4E2M1FN>, %ks: tensor<1x1x64x4xf8E4M3FN>,
    %vv: tensor<1x1x64x64xf4E2M1FN>, %vs: tensor<1x1x4x64xf8E4M3FN>) {
  // expected-error@+1 {{'sage.quantized_attention' op microscales Q, K, P and V together (NVFP4), got #sage.quant<f8E4M3FN, per_tensor>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      block_q = 64 : i64, block_k = 64 : i64, q_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, k_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x4x64xf8E4M3FN>) -> tensor<1x1x64x64xf16>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xf4E2M1FN>, %qs: tensor<1x1x64x4xf8E4M3FN>, %kv: tensor<1x1x64x64xf4E2M1FN>, %ks: tensor<1x1x64x4xf8E4M3FN>,
    %vv: tensor<1x1x64x64xf4E2M1FN>, %vs: tensor<1x1x64x4xf8E4M3FN>) {
  // expected-error@+1 {{'sage.quantized_attention' op expected microscale blocks along the contractions: Q, K and P along features, V along tokens; got #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      block_q = 64 : i64, block_k = 64 : i64, q_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, k_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      p_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, v_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>) -> tensor<1x1x64x64xf16>
  return
}

// -----

func.func @f(%qv: tensor<1x1x64x64xf4E2M1FN>, %qs: tensor<1x1x64x4xf8E4M3FN>, %kv: tensor<1x1x64x64xf4E2M1FN>, %ks: tensor<1x1x64x4xf8E4M3FN>,
    %vv: tensor<1x1x64x64xf4E2M1FN>, %vs: tensor<1x1x4x64xf8E4M3FN>) {
  // expected-error@+1 {{'sage.quantized_attention' op sums NVFP4 P V in f32, got #sage.accum<f16, every = 2>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      block_q = 64 : i64, block_k = 64 : i64, q_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, k_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>,
      p_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>, v_quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>,
      pv_accum = #sage.accum<f16, every = 2>, scale = 0.125 : f64}
    : (tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x64x4xf8E4M3FN>, tensor<1x1x64x64xf4E2M1FN>, tensor<1x1x4x64xf8E4M3FN>) -> tensor<1x1x64x64xf16>
  return
}
