// RUN: sage-opt %s --sage-lower-quantizers --split-input-file -verify-diagnostics | FileCheck %s

// K: the global mean as f64 sums of chunks of 256 tokens (each in token
// order, one parallel point a chunk and channel; past the last token the
// chunk adds 0), then of the chunks' sums in order (the CPU model's
// order, docs/Algorithm.md section 1), then per-thread groups of
// the m16n8 B operand (tokens 8k + 2t, 8k + 2t + 1 of each 64-token
// block): row magnitudes of x - mean (in f32: the smoothed f16 is not
// read), padded to whole blocks and split [blocks, 8, 4, 2], the maximum
// over the 8 and the 2, scale = max / 127, and x - mean rounded.
//   CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
//   CHECK-DAG: #[[MEAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
//   CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
//   CHECK-DAG: #[[SPLIT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
//   CHECK-DAG: #[[KEPT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>
//   CHECK-DAG: #[[KGROUP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, (d2 floordiv 64) * 4 + ((d2 mod 64) floordiv 2) mod 4, 0)>
// CHECK-LABEL: func.func @smoothed_keys
//  CHECK-SAME:     (%[[K:.+]]: tensor<2x4x100x64xf16>)
//       CHECK:   %[[CHUNKS:.+]] = tensor.empty(%{{.+}}) : tensor<2x4x?x64xf64>
//       CHECK:   %[[PARTIALS:.+]] = linalg.generic {indexing_maps = [#[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[CHUNKS]] : tensor<2x4x?x64xf64>)
//       CHECK:     %[[CHUNK:.+]] = linalg.index 2
//       CHECK:     %[[FIRST:.+]] = arith.muli %[[CHUNK]], %[[SIZE:.+]] : index
//       CHECK:     scf.for %[[T:.+]] = %{{.+}} to %[[SIZE]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (f64)
//       CHECK:       %[[TOKEN:.+]] = arith.addi %[[FIRST]], %[[T]]
//       CHECK:       %[[INSIDE:.+]] = arith.cmpi ult, %[[TOKEN]], %{{.+}}
//       CHECK:       %[[READ:.+]] = arith.select %[[INSIDE]], %[[TOKEN]], %c0
//       CHECK:       %[[X:.+]] = tensor.extract %[[K]][%{{.+}}, %{{.+}}, %[[READ]], %{{.+}}]
//       CHECK:       %[[WIDE:.+]] = arith.extf %[[X]] : f16 to f64
//       CHECK:       %[[TERM:.+]] = arith.select %[[INSIDE]], %[[WIDE]], %{{.+}} : f64
//       CHECK:       arith.addf %[[ACC]], %[[TERM]] : f64
//       CHECK:   %[[SUMS:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[MEAN]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
//  CHECK-SAME:       ins(%[[PARTIALS]] : tensor<2x4x?x64xf64>) outs({{.*}} : tensor<2x4x1x64xf64>)
//       CHECK:     arith.addf {{.*}} : f64
//       CHECK:   %[[MEAN_VALUES:.+]] = linalg.generic {{.*}} ins(%[[SUMS]] : tensor<2x4x1x64xf64>) outs({{.*}} : tensor<2x4x1x64xf32>)
//       CHECK:     %[[QUOTIENT:.+]] = arith.divf %{{.*}}, %{{.*}} : f64
//       CHECK:     arith.truncf %[[QUOTIENT]] : f64 to f32
//       CHECK:   %[[ZEROS:.+]] = linalg.fill {{.*}} -> tensor<2x4x?xf32>
//       CHECK:   %[[ROWS:.+]] = tensor.extract_slice %[[ZEROS]][0, 0, 0] [2, 4, 100] [1, 1, 1]
//       CHECK:   %[[ROW_MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[MEAN]], #[[ROW]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
//  CHECK-SAME:       ins(%[[K]], %[[MEAN_VALUES]] : {{.*}}) outs(%[[ROWS]] : tensor<2x4x100xf32>)
//       CHECK:     %[[SMOOTHED:.+]] = arith.subf
//       CHECK:     %[[MAGNITUDE:.+]] = math.absf %[[SMOOTHED]] : f32
//       CHECK:     arith.maximumf %{{.*}}, %[[MAGNITUDE]] : f32
//       CHECK:   %[[PADDED:.+]] = tensor.insert_slice %[[ROW_MAX]] into %[[ZEROS]]
//       CHECK:   %[[GROUP_ROWS:.+]] = tensor.expand_shape %[[PADDED]] {{\[}}[0], [1], [2, 3, 4, 5]] output_shape [2, 4, %{{.*}}, 8, 4, 2]
//       CHECK:   %[[GROUP_MAX:.+]] = linalg.generic {indexing_maps = [#[[SPLIT]], #[[KEPT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel", "reduction"]}
//  CHECK-SAME:       ins(%[[GROUP_ROWS]] : tensor<2x4x?x8x4x2xf32>) outs({{.*}} : tensor<2x4x?x4xf32>)
//       CHECK:   %[[GROUPS:.+]] = tensor.collapse_shape %[[GROUP_MAX]] {{\[}}[0], [1], [2, 3]] : tensor<2x4x?x4xf32> into tensor<2x4x?xf32>
//       CHECK:   %[[MAXIMA:.+]] = tensor.expand_shape %[[GROUPS]] {{.*}} into tensor<2x4x?x1xf32>
//       CHECK:   %[[SCALES:.+]] = linalg.generic {{.*}} ins(%[[MAXIMA]] : tensor<2x4x?x1xf32>)
//       CHECK:     %[[RANGE:.+]] = arith.constant 1.270000e+02 : f32
//       CHECK:     arith.divf %{{.*}}, %[[RANGE]] : f32
//       CHECK:   %[[VALUES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[MEAN]], #[[KGROUP]], #[[ID]]]
//  CHECK-SAME:       ins(%[[K]], %[[MEAN_VALUES]], %[[SCALES]] : {{.*}}) outs({{.*}} : tensor<2x4x100x64xi8>)
//       CHECK:   ^bb0(%{{.*}}: f16, %{{.*}}: f32, %[[SCALE:.+]]: f32, %{{.*}}: i8):
//       CHECK:     %[[X:.+]] = arith.subf
//       CHECK:     %[[SCALED:.+]] = arith.divf %[[X]], %[[SCALE]] : f32
//       CHECK:     %[[NO_SCALE:.+]] = arith.cmpf oeq, %[[SCALE]]
//       CHECK:     %[[ROUNDED:.+]] = math.roundeven %[[SCALED]] : f32
//       CHECK:     %[[BELOW:.+]] = arith.cmpf olt, %[[ROUNDED]], %[[MIN:.+]] : f32
//       CHECK:     %[[RAISED:.+]] = arith.select %[[BELOW]], %[[MIN]], %[[ROUNDED]] : f32
//       CHECK:     %[[ABOVE:.+]] = arith.cmpf ogt, %[[RAISED]], %[[MAX:.+]] : f32
//       CHECK:     %[[CLAMPED:.+]] = arith.select %[[ABOVE]], %[[MAX]], %[[RAISED]] : f32
//       CHECK:     %[[INT:.+]] = arith.fptosi %[[CLAMPED]] : f32 to i8
//       CHECK:     %[[NAN:.+]] = arith.cmpf uno, %[[SCALED]], %[[SCALED]]
//       CHECK:     %[[NONE:.+]] = arith.ori %[[NO_SCALE]], %[[NAN]]
//       CHECK:     arith.select %[[NONE]], %{{.*}}, %[[INT]] : i8
//       CHECK:   %[[STATIC:.+]] = tensor.cast %[[SCALES]] : tensor<2x4x?x1xf32> to tensor<2x4x8x1xf32>
//       CHECK:   return %[[STATIC]], %[[VALUES]]
func.func @smoothed_keys(%k: tensor<2x4x100x64xf16>) -> (tensor<2x4x8x1xf32>, tensor<2x4x100x64xi8>) {
  %s, %m = sage.smooth %k : tensor<2x4x100x64xf16> -> tensor<2x4x1x64xf32>
  %v, %sc = sage.quantize %s {quant = #sage.quant<i8, per_thread, operand = b, block = 64>}
      : tensor<2x4x100x64xf16> -> tensor<2x4x100x64xi8>, tensor<2x4x8x1xf32>
  return %sc, %v : tensor<2x4x8x1xf32>, tensor<2x4x100x64xi8>
}

// -----

// Q: block means (the tokens padded with zeros to whole blocks, each
// block summed on its own; a trailing partial block counts its own tokens) and the
// per-thread groups of the m16n8 A operand: the rows of a 16-row warp
// tile with the same r mod 8, split [blocks, 4 warps, 2, 8].
//   CHECK-DAG: #[[BLOCK_MEAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 64, d3)>
//   CHECK-DAG: #[[QGROUP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, (d2 floordiv 64) * 32 + (((d2 mod 64) floordiv 16) mod 4) * 8 + d2 mod 8, 0)>
// CHECK-LABEL: func.func @query_blocks
//       CHECK:   %[[TOKENS:.+]] = tensor.dim
//       CHECK:   %[[PADDED:.+]] = tensor.pad
//       CHECK:   %[[BLOCKS:.+]] = tensor.expand_shape %[[PADDED]] {{.*}} into tensor<1x2x?x64x64xf16>
//       CHECK:   %[[SUMS:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%[[BLOCKS]]
//       CHECK:   linalg.generic {{.*}} ins(%[[SUMS]]
//       CHECK:     %[[BLOCK:.+]] = linalg.index 2 : index
//       CHECK:     %[[START:.+]] = arith.muli %[[BLOCK]], %[[SIZE:.+]] : index
//       CHECK:     %[[LEFT:.+]] = arith.subi %[[TOKENS]], %[[START]] : index
//       CHECK:     arith.minui %[[LEFT]], %[[SIZE]] : index
//       CHECK:   tensor.expand_shape {{.*}} output_shape [1, 2, %{{.*}}, 4, 2, 8] : tensor<1x2x?xf32> into tensor<1x2x?x4x2x8xf32>
//       CHECK:   iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel"]
//       CHECK:   linalg.generic {indexing_maps = [#{{.+}}, #[[BLOCK_MEAN]], #[[QGROUP]], #{{.+}}]
func.func @query_blocks(%q: tensor<1x2x100x64xf16>) -> (tensor<1x2x64x1xf32>, tensor<1x2x100x64xi8>, tensor<1x2x2x64xf32>) {
  %s, %m = sage.smooth %q {block = 64} : tensor<1x2x100x64xf16> -> tensor<1x2x2x64xf32>
  %v, %sc = sage.quantize %s {quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>}
      : tensor<1x2x100x64xf16> -> tensor<1x2x100x64xi8>, tensor<1x2x64x1xf32>
  return %sc, %v, %m : tensor<1x2x64x1xf32>, tensor<1x2x100x64xi8>, tensor<1x2x2x64xf32>
}

// -----

// V: per-channel maxima over the tokens (chunks of 256 tokens, one point a
// chunk and channel, then the chunks' maxima), / 448, E4M3 values by
// truncf (the kernel's saturating cvt), 0 where the scale is 0.
//   CHECK-DAG: #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, d3)>
// CHECK-LABEL: func.func @values_per_channel
//       CHECK:   %[[PARTIALS:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x?x64xf32>)
//       CHECK:     scf.for {{.*}} -> (f32)
//       CHECK:       %[[MAGNITUDE:.+]] = math.absf
//       CHECK:       %[[TERM:.+]] = arith.select %{{.+}}, %[[MAGNITUDE]], %{{.+}} : f32
//       CHECK:       arith.maximumf %{{.+}}, %[[TERM]] : f32
//       CHECK:   %[[MAX:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[CHANNEL]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[PARTIALS]] : tensor<1x2x?x64xf32>) outs({{.*}} : tensor<1x2x1x64xf32>)
//       CHECK:   %[[SCALES:.+]] = linalg.generic {{.*}} ins(%[[MAX]]
//       CHECK:     arith.constant 4.480000e+02 : f32
//       CHECK:   linalg.generic {indexing_maps = [#{{.+}}, #[[CHANNEL]], #{{.+}}]{{.*}} ins(%{{.*}}, %[[SCALES]] : {{.*}}) outs({{.*}} : tensor<1x2x?x64xf8E4M3FN>)
//       CHECK:     %[[VALUE:.+]] = arith.truncf %{{.*}} : f32 to f8E4M3FN
//       CHECK:     arith.select %{{.*}}, %{{.*}}, %[[VALUE]] : f8E4M3FN
func.func @values_per_channel(%v: tensor<1x2x?x64xf16>) -> (tensor<1x2x?x64xf8E4M3FN>, tensor<1x2x1x64xf32>) {
  %vv, %vs = sage.quantize %v {quant = #sage.quant<f8E4M3FN, per_channel>}
      : tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf8E4M3FN>, tensor<1x2x1x64xf32>
  return %vv, %vs : tensor<1x2x?x64xf8E4M3FN>, tensor<1x2x1x64xf32>
}

// -----

// One token a group: the row maxima are the scales' (no padding, no group
// reduction); per_block: [blocks, 32] reduced over the 32.
// CHECK-LABEL: func.func @per_token
//       CHECK:   %[[ROW_MAX:.+]] = linalg.generic {{.*}} outs({{.*}} : tensor<3x40xf32>)
//       CHECK:   tensor.expand_shape %[[ROW_MAX]] {{\[}}[0], [1, 2]] output_shape [3, 40, 1]
//   CHECK-NOT:   tensor.insert_slice
// CHECK-LABEL: func.func @per_block
//       CHECK:   tensor.expand_shape {{.*}} into tensor<3x?x32xf32>
//       CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} outs({{.*}} : tensor<3x?xf32>)
func.func @per_token(%k: tensor<3x40x32xf32>) -> (tensor<3x40x32xi8>, tensor<3x40x1xf32>) {
  %v, %s = sage.quantize %k {quant = #sage.quant<i8, per_token>}
      : tensor<3x40x32xf32> -> tensor<3x40x32xi8>, tensor<3x40x1xf32>
  return %v, %s : tensor<3x40x32xi8>, tensor<3x40x1xf32>
}
func.func @per_block(%k: tensor<3x40x32xf32>) -> (tensor<3x40x32xi8>, tensor<3x2x1xf32>) {
  %v, %s = sage.quantize %k {quant = #sage.quant<i8, per_block, block = 32>}
      : tensor<3x40x32xf32> -> tensor<3x40x32xi8>, tensor<3x2x1xf32>
  return %v, %s : tensor<3x40x32xi8>, tensor<3x2x1xf32>
}

// -----

// f16 with the unit scale (int8-fp16's V): a rounding of each element.
// CHECK-LABEL: func.func @unit_scale
//       CHECK:   linalg.generic
//       CHECK:     %[[X:.+]] = arith.extf %{{.*}} : f16 to f32
//       CHECK:     %[[VALUE:.+]] = arith.truncf %[[X]] : f32 to f16
//       CHECK:     linalg.yield %[[VALUE]] : f16
func.func @unit_scale(%v: tensor<1x2x40x64xf16>) -> (tensor<1x2x40x64xf16>, tensor<1x2x1x1xf32>) {
  %vv, %vs = sage.quantize %v {bound = 65504.0 : f64, quant = #sage.quant<f16, per_tensor>}
      : tensor<1x2x40x64xf16> -> tensor<1x2x40x64xf16>, tensor<1x2x1x1xf32>
  return %vv, %vs : tensor<1x2x40x64xf16>, tensor<1x2x1x1xf32>
}

// -----

// The grid's own quantizer (P, in a loop) is the tile level's.
// CHECK-LABEL: func.func @in_loop
//       CHECK:   scf.for
//       CHECK:     sage.quantize
func.func @in_loop(%p: tensor<64x64xf32>, %n: index) -> tensor<64x64xf8E4M3FN> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty() : tensor<64x64xf8E4M3FN>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<64x64xf8E4M3FN> {
    %v, %s = sage.quantize %p {bound = 1.0 : f64, quant = #sage.quant<f8E4M3FN, per_tensor>}
        : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
    scf.yield %v : tensor<64x64xf8E4M3FN>
  }
  return %r : tensor<64x64xf8E4M3FN>
}

// -----

func.func @negative_microscale(%q: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf4E2M1FN> {
  // expected-error@+1 {{'sage.quantize' op cannot be lowered to linalg: microscaling (NVFP4) is not lowered to linalg yet}}
  %v, %s = sage.quantize %q {quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>}
      : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xf4E2M1FN>, tensor<1x2x64x4xf8E4M3FN>
  return %v : tensor<1x2x64x64xf4E2M1FN>
}

// -----

// INT4 K: one value an element, rounded half to even and clamped to
// [-7, 7]; sage-pack-int4 later stores two a byte.
// CHECK-LABEL: func @int4
//       CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x64x64xi4>)
//       CHECK:     math.roundeven
//       CHECK:     arith.fptosi %{{.*}} : f32 to i4
func.func @int4(%k: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xi4> {
  %v, %s = sage.quantize %k {quant = #sage.quant<i4, per_thread, operand = b, block = 64>}
      : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xi4>, tensor<1x2x4x1xf32>
  return %v : tensor<1x2x64x64xi4>
}

// -----

func.func @negative_dynamic_bound(%v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf8E4M3FN> {
  // expected-error@+1 {{'sage.quantize' op cannot be lowered to linalg: a static bound with a dynamic number of groups has no lowering}}
  %vv, %vs = sage.quantize %v {bound = 2.0 : f64, quant = #sage.quant<f8E4M3FN, per_token>}
      : tensor<1x2x?x64xf16> -> tensor<1x2x?x64xf8E4M3FN>, tensor<1x2x?x1xf32>
  return %vv : tensor<1x2x?x64xf8E4M3FN>
}

// -----

func.func @negative_stored_layout(%k: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xi8> {
  // expected-error@+1 {{'sage.quantize' op cannot be lowered to linalg: its values are stored in #sage.mma_packed<along = features, k = 32, chunks = 1>, which this lowering does not write yet}}
  %v, %s = sage.quantize %k {layout = #sage.mma_packed<along = features, k = 32, chunks = 1>, quant = #sage.quant<i8, per_token>}
      : tensor<1x2x64x64xf16> -> tensor<1x2x64x64xi8>, tensor<1x2x64x1xf32>
  return %v : tensor<1x2x64x64xi8>
}

// -----

// A block mean of more than 256 tokens: the CPU model sums it in chunks,
// which the block path (one running sum a block) does not.
func.func @negative_long_blocks(%q: tensor<1x2x1000x64xf16>) -> tensor<1x2x2x64xf32> {
  // expected-error @below {{cannot be lowered to linalg: blocks of 512 tokens are summed in chunks of 256 by the CPU model, which this lowering does not do yet}}
  %s, %m = sage.smooth %q {block = 512} : tensor<1x2x1000x64xf16> -> tensor<1x2x2x64xf32>
  return %m : tensor<1x2x2x64xf32>
}
