// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// Operand layouts on sage.quantize: Q/K packed along features, V along
// tokens in the accumulator order; the default order is not printed.
// CHECK-LABEL: func @operand_layouts
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_packed<along = features, k = 32, chunks = 1>
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_packed<along = features, k = 64, chunks = 2>
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator>
func.func @operand_layouts(%x: tensor<1x2x128x64xf16>, %y: tensor<1x2x128x128xf16>) {
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_packed<along = features, k = 32, chunks = 1, order = natural>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi8>, tensor<1x2x8x1xf32>
  %k4, %k4s = sage.quantize %y {quant = #sage.quant<i4, per_thread, operand = b, block = 64>,
      layout = #sage.mma_packed<along = features, k = 64, chunks = 2>}
    : tensor<1x2x128x128xf16> -> tensor<1x2x128x128xi4>, tensor<1x2x8x1xf32>
  %vv, %vs = sage.quantize %x {quant = #sage.quant<f8E4M3FN, per_channel>,
      layout = #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf8E4M3FN>, tensor<1x2x1x64xf32>
  return
}

// -----

// expected-error@+1 {{expected the contraction to run along features or tokens, got heads}}
func.func @negative_along_heads() attributes {layout = #sage.mma_packed<along = heads, k = 32, chunks = 2>} {
  return
}

// -----

// expected-error@+1 {{expected k = 16, 32 or 64 (an MMA chunk of 16-, 8- or 4-bit elements), got 8}}
func.func @negative_k() attributes {layout = #sage.mma_packed<along = features, k = 8, chunks = 2>} {
  return
}

// -----

// expected-error@+1 {{expected chunks = 1 or 2 (8- or 16-byte lane loads), got 4}}
func.func @negative_chunks() attributes {layout = #sage.mma_packed<along = features, k = 32, chunks = 4>} {
  return
}

// -----

// expected-error@+1 {{order = accumulator feeds an 8- or 4-bit A operand from an m16n8 accumulator and needs k = 32 or 64 (a 16-bit one is the accumulator's own order), got 16}}
func.func @negative_accumulator_order_k() attributes {layout = #sage.mma_packed<along = tokens, k = 16, chunks = 2, order = accumulator>} {
  return
}

// -----

func.func @negative_layout_format(%x: tensor<1x2x128x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op layout #sage.mma_packed<along = features, k = 32, chunks = 2> holds 8-bit elements, not 'i4'}}
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i4, per_thread, operand = b, block = 64>,
      layout = #sage.mma_packed<along = features, k = 32, chunks = 2>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi4>, tensor<1x2x8x1xf32>
  return
}

// -----

// An axis is stored padded to whole groups: 80 features in groups of 64
// are stored as 128.
// CHECK-LABEL: func @padded_features
//       CHECK: layout = #sage.mma_packed<along = features, k = 32, chunks = 2>
func.func @padded_features(%x: tensor<1x2x128x80xf16>) {
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_packed<along = features, k = 32, chunks = 2>}
    : tensor<1x2x128x80xf16> -> tensor<1x2x128x80xi8>, tensor<1x2x8x1xf32>
  return
}

// -----

// Operands in MMA position order (what a wgmma descriptor reads): Q/K along
// features, V along tokens in the accumulator order.
// CHECK-LABEL: func @ordered_layouts
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_ordered<along = features, k = 32>
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
func.func @ordered_layouts(%x: tensor<1x2x128x64xf16>) {
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_ordered<along = features, k = 32, order = natural>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi8>, tensor<1x2x8x1xf32>
  %vv, %vs = sage.quantize %x {quant = #sage.quant<f8E4M3FN, per_channel>,
      layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf8E4M3FN>, tensor<1x2x1x64xf32>
  return
}

// -----

// The same, placed in the K/V stage's core-matrix tiles (a tile is one bulk
// copy); `tiling = rows`, the default, is not printed.
// CHECK-LABEL: func @tiled_layouts
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_ordered<along = features, k = 32>,
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>
//       CHECK: sage.quantize {{.*}}layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator, tiling = core_matrices>
func.func @tiled_layouts(%x: tensor<1x2x128x64xf16>) {
  %qv, %qs = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_ordered<along = features, k = 32, tiling = rows>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi8>, tensor<1x2x8x1xf32>
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi8>, tensor<1x2x8x1xf32>
  %vv, %vs = sage.quantize %x {quant = #sage.quant<f8E4M3FN, per_channel>,
      layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator, tiling = core_matrices>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xf8E4M3FN>, tensor<1x2x1x64xf32>
  return
}

// -----

// expected-error@+2 {{expected one of [rows, core_matrices] for how an MMA operand's rows are placed in global memory, got: swizzled}}
// expected-error@+1 {{failed to parse Sage_MmaOrderedAttr parameter 'tiling' which is to be a `OperandTiling`}}
func.func @negative_ordered_tiling_unknown() attributes {layout = #sage.mma_ordered<along = features, k = 32, tiling = swizzled>} {
  return
}

// -----

// expected-error@+1 {{expected the contraction to run along features or tokens, got batch}}
func.func @negative_ordered_along_batch() attributes {layout = #sage.mma_ordered<along = batch, k = 32>} {
  return
}

// -----

// expected-error@+1 {{order = accumulator feeds an 8- or 4-bit A operand from an m16n8 accumulator and needs k = 32 or 64 (a 16-bit one is the accumulator's own order), got 16}}
func.func @negative_ordered_accumulator_k() attributes {layout = #sage.mma_ordered<along = tokens, k = 16, order = accumulator>} {
  return
}

// -----

// expected-error@+1 {{order = accumulator feeds wgmma's register A operand, which has no 4-bit formats: it needs k = 32, got 64}}
func.func @negative_ordered_accumulator_k64() attributes {layout = #sage.mma_ordered<along = tokens, k = 64, order = accumulator>} {
  return
}

// -----

func.func @negative_ordered_format(%x: tensor<1x2x128x64xf16>) {
  // expected-error@+1 {{'sage.quantize' op layout #sage.mma_ordered<along = features, k = 64> holds 4-bit elements, not 'i8'}}
  %kv, %ks = sage.quantize %x {quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
      layout = #sage.mma_ordered<along = features, k = 64>}
    : tensor<1x2x128x64xf16> -> tensor<1x2x128x64xi8>, tensor<1x2x8x1xf32>
  return
}

// -----

// V stored for the P V MMA (v_layout): [batch, heads, features, groups, k],
// 70 keys in three groups of 32.
// CHECK-LABEL: func @stored_values
//       CHECK: sage.quantized_attention {{.*}}v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
//  CHECK-SAME: tensor<1x2x64x3x32xf8E4M3FN>
func.func @stored_values(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x3x32xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x3x32xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

func.func @negative_stored_values_groups(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x2x32xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_values of shape [1, 2, 64, 3, 32], got 'tensor<1x2x64x2x32xf8E4M3FN>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x2x32xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

func.func @negative_stored_values_rank(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x70x64xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_values laid out [batch, heads, features, groups, k] (stored in v_layout), got 'tensor<1x2x70x64xf8E4M3FN>'}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x70x64xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

func.func @negative_stored_values_k(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x5x16xf16>, %vs: tensor<1x2x1x1xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_layout along tokens with k = 16 (a 32-byte MMA chunk of 'f16'), got #sage.mma_ordered<along = tokens, k = 32>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f16, per_tensor, range = 1.0>, v_quant = #sage.quant<f16, per_tensor>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x5x16xf16>, tensor<1x2x1x1xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

func.func @negative_stored_values_tiles(%qv: tensor<1x2x100x64xi8>, %qs: tensor<1x2x1x1xf32>,
    %kv: tensor<1x2x70x64xi8>, %ks: tensor<1x2x1x1xf32>,
    %vv: tensor<1x2x64x3x32xf8E4M3FN>, %vs: tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16> {
  // expected-error@+1 {{'sage.quantized_attention' op expected v_layout's rows one after another (the shape is [batch, heads, features, groups, k]), got #sage.mma_ordered<along = tokens, k = 32, order = accumulator, tiling = core_matrices>}}
  %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs) {
      q_quant = #sage.quant<i8, per_tensor>, k_quant = #sage.quant<i8, per_tensor>,
      p_quant = #sage.quant<f8E4M3FN, per_tensor>, v_quant = #sage.quant<f8E4M3FN, per_channel>,
      pv_accum = #sage.accum<f32>, scale = 0.125 : f64,
      v_layout = #sage.mma_ordered<along = tokens, k = 32, order = accumulator, tiling = core_matrices>}
    : (tensor<1x2x100x64xi8>, tensor<1x2x1x1xf32>, tensor<1x2x70x64xi8>, tensor<1x2x1x1xf32>,
       tensor<1x2x64x3x32xf8E4M3FN>, tensor<1x2x1x64xf32>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}
