// RUN: sage-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sage-opt %s -split-input-file -verify-diagnostics --mlir-print-op-generic | sage-opt -split-input-file | FileCheck %s

// The distribute level's tensor encodings (docs/Levels.md): a 64 x 64
// accumulator tile of four warps' m16n8 MMAs, its rows, one replicated
// scale. They ride on the tile ops' types.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// The fragment encodings print as aliases.
//       CHECK: #[[ACC:.*]] = #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>, warps = 4>
//       CHECK: #[[ROWS:.*]] = #sage.row_fragment<m = 16, warps = 4>
// CHECK-LABEL: func @softmax_on_encoded_tiles
//  CHECK-SAME: (%[[S:.*]]: tensor<64x64xf32, #[[ACC]]>, %[[M:.*]]: tensor<64xf32, #[[ROWS]]>)
//       CHECK:   sage.online_softmax %[[S]], %[[M]], %[[M]] : tensor<64x64xf32, #[[ACC]]>, tensor<64xf32, #[[ROWS]]>
//       CHECK:   sage.quantize %{{.*}} {{.*}} -> tensor<64x64xf8E4M3FN, #[[ACC]]>, tensor<1x1xf32, #sage.replicated>
func.func @softmax_on_encoded_tiles(
    %s: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
    %m: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>)
    -> tensor<1x1xf32, #sage.replicated> {
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %m, %m
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>
  %pv, %ps = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>
    -> tensor<64x64xf8E4M3FN, #sage.acc_fragment<mma = #qk, warps = 4>>,
       tensor<1x1xf32, #sage.replicated>
  return %ps : tensor<1x1xf32, #sage.replicated>
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// expected-error@+1 {{tile of shape [32, 64] does not fit #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers, b = i8, b_source = registers, acc = i32, scales = none>, warps = 4>: expected [64, a multiple of 8] (4 warps of 16 rows), at most 1024 elements a lane}}
func.func @negative_acc_rows(%s: tensor<32x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>)

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// expected-error@+1 {{tile of shape [64, 60] does not fit}}
func.func @negative_acc_columns(%s: tensor<64x60xf32, #sage.acc_fragment<mma = #qk, warps = 4>>)

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// expected-error@+1 {{tile of shape [64, ?] does not fit}}
func.func @negative_acc_dynamic(%s: tensor<64x?xf32, #sage.acc_fragment<mma = #qk, warps = 4>>)

// -----

// expected-error@+1 {{accumulator fragments of warp MMAs only, got scope warpgroup}}
func.func @negative_acc_scope(%s: tensor<64x64xf32, #sage.acc_fragment<mma =
    #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = i8, a_source = shared,
              b = i8, b_source = shared, acc = i32, scales = none>, warps = 4>>)

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// expected-error@+1 {{expected 1 to 32 warps (a CTA's), got 0}}
func.func @negative_acc_warps(%s: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 0>>)

// -----

// expected-error@+1 {{tile of shape [32] does not fit #sage.row_fragment<m = 16, warps = 4>: expected [64]}}
func.func @negative_rows_shape(%m: tensor<32xf32, #sage.row_fragment<m = 16, warps = 4>>)

// -----

// expected-error@+1 {{expected rows m a multiple of 8 from 8 to 256, got 12}}
func.func @negative_rows_m(%m: tensor<48xf32, #sage.row_fragment<m = 12, warps = 4>>)

// -----

// expected-error@+1 {{expected 1 to 32 warps (a CTA's), got 33}}
func.func @negative_rows_warps(%m: tensor<528xf32, #sage.row_fragment<m = 16, warps = 33>>)

// -----

// expected-error@+1 {{tile of shape [?, 1] does not fit #sage.replicated: expected a static shape of at most 1024 elements}}
func.func @negative_replicated_dynamic(%s: tensor<?x1xf32, #sage.replicated>)

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
// A lane's vector is bounded (no absurd unrolling).
// expected-error@+1 {{tile of shape [16, 8192] does not fit}}
func.func @negative_acc_too_wide(%s: tensor<16x8192xf32, #sage.acc_fragment<mma = #qk, warps = 1>>)

// -----

// expected-error@+1 {{tile of shape [64, 64] does not fit #sage.replicated}}
func.func @negative_replicated_large(%s: tensor<64x64xf32, #sage.replicated>)

// -----

// The lanes' fragments, together, as the tile the CTA shares.
#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
// CHECK-LABEL: func @from_lanes
//       CHECK:   sage.from_lanes %{{.*}} {layout = #{{.*}}} : vector<32xf16> -> tensor<64x64xf16>
//       CHECK:   sage.from_lanes %{{.*}} {layout = #sage.replicated} : vector<1xf32> -> tensor<1x1xf32>
func.func @from_lanes(%o: vector<32xf16>, %s: vector<1xf32>) -> (tensor<64x64xf16>, tensor<1x1xf32>) {
  %tile = sage.from_lanes %o {layout = #sage.acc_fragment<mma = #pv, warps = 4>}
    : vector<32xf16> -> tensor<64x64xf16>
  %scale = sage.from_lanes %s {layout = #sage.replicated} : vector<1xf32> -> tensor<1x1xf32>
  return %tile, %scale : tensor<64x64xf16>, tensor<1x1xf32>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_from_lanes_length(%o: vector<16xf16>) -> tensor<64x64xf16> {
  // expected-error@+1 {{'sage.from_lanes' op expected each lane's fragment of 'tensor<64x64xf16>' as #sage.acc_fragment<mma = <scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers, b = f8E4M3FN, b_source = registers, acc = f32, scales = none>, warps = 4> to be 'vector<32xf16>', got 'vector<16xf16>'}}
  %tile = sage.from_lanes %o {layout = #sage.acc_fragment<mma = #pv, warps = 4>}
    : vector<16xf16> -> tensor<64x64xf16>
  return %tile : tensor<64x64xf16>
}

// -----

#pv = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = f8E4M3FN, a_source = registers,
                b = f8E4M3FN, b_source = registers, acc = f32, scales = none>
func.func @negative_from_lanes_shape(%o: vector<32xf16>) -> tensor<48x64xf16> {
  // expected-error@+1 {{'sage.from_lanes' op cannot hold a tile of 'tensor<48x64xf16>' as #sage.acc_fragment}}
  %tile = sage.from_lanes %o {layout = #sage.acc_fragment<mma = #pv, warps = 4>}
    : vector<32xf16> -> tensor<48x64xf16>
  return %tile : tensor<48x64xf16>
}

// -----

func.func @negative_from_lanes_encoded(%s: vector<1xf32>) -> tensor<1x1xf32, #sage.replicated> {
  // expected-error@+1 {{'sage.from_lanes' op makes a tile the CTA shares, without an encoding; got 'tensor<1x1xf32, #sage.replicated>'}}
  %scale = sage.from_lanes %s {layout = #sage.replicated} : vector<1xf32> -> tensor<1x1xf32, #sage.replicated>
  return %scale : tensor<1x1xf32, #sage.replicated>
}

// -----

// The online softmax's running sum held as the lanes' partial row sums
// (partial_sums, aliased #row_sums): its type follows max's; a cast to the
// rows' encoding is the quad's reduction.
#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
//   CHECK-DAG: #[[SUMS:.*]] = #sage.row_fragment<m = 16, warps = 4, partial_sums = true>
//   CHECK-DAG: #[[ROWS:.*]] = #sage.row_fragment<m = 16, warps = 4>
// CHECK-LABEL: func @partial_sums
//       CHECK:   %{{.*}}, %{{.*}}, %[[L1:.*]], %{{.*}} = sage.online_softmax %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64xf32, #{{.*}}>, tensor<64xf32, #[[ROWS]]>, tensor<64xf32, #[[SUMS]]>
//       CHECK:   tensor.cast %[[L1]] : tensor<64xf32, #[[SUMS]]> to tensor<64xf32, #[[ROWS]]>
func.func @partial_sums(
    %s: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
    %m: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>,
    %l: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>)
    -> tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>> {
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %m, %l
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>
  %rows = tensor.cast %l1 : tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>
      to tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>
  return %rows : tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_sum_type(
    %s: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
    %m: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>,
    %l: tensor<64xf32, #sage.row_fragment<m = 32, warps = 2, partial_sums = true>>) {
  // expected-error@+1 {{'sage.online_softmax' op expected sum of type 'tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>' (max's) or its rows' partial sums, got 'tensor<64xf32, #sage.row_fragment<m = 32, warps = 2, partial_sums = true>>'}}
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %m, %l
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 32, warps = 2, partial_sums = true>>
  return
}

// -----

func.func @negative_from_lanes_partial_sums(%l: vector<2xf32>) -> tensor<64xf32> {
  // expected-error@+1 {{'sage.from_lanes' op cannot make a tile of partial row sums (#sage.row_fragment<m = 16, warps = 4, partial_sums = true>); reduce them over the quad first}}
  %rows = sage.from_lanes %l {layout = #sage.row_fragment<m = 16, warps = 4, partial_sums = true>}
    : vector<2xf32> -> tensor<64xf32>
  return %rows : tensor<64xf32>
}

// -----

// expected-error@+1 {{tile of shape [64] does not fit #sage.row_fragment<m = 16, warps = 4, partial_sums = true>: partial row sums are floats (the online softmax's l)}}
func.func @negative_integer_partial_sums(%l: tensor<64xi32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>) {
  return
}

// -----

#qk = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
                b = i8, b_source = registers, acc = i32, scales = none>
func.func @negative_max_partial_sums(
    %s: tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
    %l: tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>) {
  // expected-error@+1 {{'sage.online_softmax' op expected max as the rows' values, got partial row sums 'tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>'}}
  %p, %m1, %l1, %alpha = sage.online_softmax %s, %l, %l
    : tensor<64x64xf32, #sage.acc_fragment<mma = #qk, warps = 4>>,
      tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>
  return
}
