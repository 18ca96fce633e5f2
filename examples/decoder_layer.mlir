// A transformer decoder layer (pre-norm; masked self-attention, then
// cross-attention to an encoder's memory, each with a residual) in the shape
// torch-mlir's TorchToLinalg emits: the layer norms spelled as reductions,
// the projections as linalg.matmul on [B * N, E] rows against transposed
// weights, heads split by tensor.expand_shape and moved by linalg.transpose,
// and each attention decomposed (batch_matmul, scale, additive mask,
// max / exp / sum / divide, batch_matmul). B and the token counts are
// dynamic; E = 256, H = 4, D = 64, f16 with f32 statistics.
//
// A whole model for sage-launcher (docs/Launchers.md, "Whole models"):
//
//   sage-launcher examples/decoder_layer.mlir -o libdecoder_layer.so \
//       --header decoder_layer.h --model decoder_layer.model.mlir \
//       -- --sage-raise-attention
//
// compiles the two attentions into a launcher library and writes the layer
// back with each attention replaced by a call to its launcher's
// declaration, every other op left for the frontend's compiler.
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row2 = affine_map<(d0, d1) -> (d0)>
#col2 = affine_map<(d0, d1) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rows4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#mask4 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>


func.func @decoder_layer(%x: tensor<?x?x256xf16>, %memory: tensor<?x?x256xf16>,
    %pad_mask: tensor<?x1x?x?xf32>, %wq: tensor<256x256xf16>, %wk: tensor<256x256xf16>,
    %wv: tensor<256x256xf16>, %wo: tensor<256x256xf16>, %cq: tensor<256x256xf16>,
    %ck: tensor<256x256xf16>, %cv: tensor<256x256xf16>, %co: tensor<256x256xf16>,
    %g1: tensor<256xf16>, %b1: tensor<256xf16>, %g2: tensor<256xf16>, %b2: tensor<256xf16>)
    -> tensor<?x?x256xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %heads = arith.constant 4 : index
  %zero16 = arith.constant 0.000000e+00 : f16
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %scale = arith.constant 1.250000e-01 : f32
  %width = arith.constant 2.560000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %b = tensor.dim %x, %c0 : tensor<?x?x256xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?x256xf16>
  %nm = tensor.dim %memory, %c1 : tensor<?x?x256xf16>
  %rows = arith.muli %b, %n : index
  %mrows = arith.muli %b, %nm : index
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x256xf16> into tensor<?x256xf16>
  %m2 = tensor.collapse_shape %memory [[0, 1], [2]] : tensor<?x?x256xf16> into tensor<?x256xf16>
  // Masked self-attention.
  %re1 = tensor.empty(%rows) : tensor<?xf32>
  %sumf3 = linalg.fill ins(%zero : f32) outs(%re1 : tensor<?xf32>) -> tensor<?xf32>
  %sum2 = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x2 : tensor<?x256xf16>) outs(%sumf3 : tensor<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %xf = arith.extf %in : f16 to f32
    %a = arith.addf %acc, %xf : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %mean4 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum2 : tensor<?xf32>) outs(%re1 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %mn = arith.divf %in, %width : f32
    linalg.yield %mn : f32
  } -> tensor<?xf32>
  %varf6 = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x2, %mean4 : tensor<?x256xf16>, tensor<?xf32>) outs(%sumf3 : tensor<?xf32>) {
  ^bb0(%in: f16, %m: f32, %acc: f32):
    %xf = arith.extf %in : f16 to f32
    %c = arith.subf %xf, %m : f32
    %sq = arith.mulf %c, %c : f32
    %a = arith.addf %acc, %sq : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %lne8 = tensor.empty(%rows) : tensor<?x256xf16>
  %ln7 = linalg.generic {indexing_maps = [#id2, #row2, #row2, #col2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %mean4, %varf6, %g1, %b1 : tensor<?x256xf16>, tensor<?xf32>, tensor<?xf32>, tensor<256xf16>, tensor<256xf16>) outs(%lne8 : tensor<?x256xf16>) {
  ^bb0(%in: f16, %m: f32, %v: f32, %g: f16, %bt: f16, %out: f16):
    %xf = arith.extf %in : f16 to f32
    %c = arith.subf %xf, %m : f32
    %vv = arith.divf %v, %width : f32
    %ve = arith.addf %vv, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nrm = arith.mulf %c, %rs : f32
    %gf = arith.extf %g : f16 to f32
    %bf = arith.extf %bt : f16 to f32
    %sc = arith.mulf %nrm, %gf : f32
    %sh = arith.addf %sc, %bf : f32
    %o = arith.truncf %sh : f32 to f16
    linalg.yield %o : f16
  } -> tensor<?x256xf16>
  %wte10 = tensor.empty() : tensor<256x256xf16>
  %wt9 = linalg.transpose ins(%wq : tensor<256x256xf16>) outs(%wte10 : tensor<256x256xf16>) permutation = [1, 0]
  %mme12 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf13 = linalg.fill ins(%zero16 : f16) outs(%mme12 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm11 = linalg.matmul ins(%ln7, %wt9 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf13 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x314 = tensor.expand_shape %mm11 [[0, 1], [2]] output_shape [%b, %n, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x415 = tensor.expand_shape %x314 [[0], [1], [2, 3]] output_shape [%b, %n, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te16 = tensor.empty(%b, %n) : tensor<?x4x?x64xf16>
  %th17 = linalg.transpose ins(%x415 : tensor<?x?x4x64xf16>) outs(%te16 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %wte19 = tensor.empty() : tensor<256x256xf16>
  %wt18 = linalg.transpose ins(%wk : tensor<256x256xf16>) outs(%wte19 : tensor<256x256xf16>) permutation = [1, 0]
  %mme21 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf22 = linalg.fill ins(%zero16 : f16) outs(%mme21 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm20 = linalg.matmul ins(%ln7, %wt18 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf22 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x323 = tensor.expand_shape %mm20 [[0, 1], [2]] output_shape [%b, %n, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x424 = tensor.expand_shape %x323 [[0], [1], [2, 3]] output_shape [%b, %n, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te25 = tensor.empty(%b, %n) : tensor<?x4x?x64xf16>
  %th26 = linalg.transpose ins(%x424 : tensor<?x?x4x64xf16>) outs(%te25 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %wte28 = tensor.empty() : tensor<256x256xf16>
  %wt27 = linalg.transpose ins(%wv : tensor<256x256xf16>) outs(%wte28 : tensor<256x256xf16>) permutation = [1, 0]
  %mme30 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf31 = linalg.fill ins(%zero16 : f16) outs(%mme30 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm29 = linalg.matmul ins(%ln7, %wt27 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf31 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x332 = tensor.expand_shape %mm29 [[0, 1], [2]] output_shape [%b, %n, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x433 = tensor.expand_shape %x332 [[0], [1], [2, 3]] output_shape [%b, %n, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te34 = tensor.empty(%b, %n) : tensor<?x4x?x64xf16>
  %th35 = linalg.transpose ins(%x433 : tensor<?x?x4x64xf16>) outs(%te34 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %q336 = tensor.collapse_shape %th17 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %k337 = tensor.collapse_shape %th26 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %bh44 = arith.muli %b, %heads : index
  %kte39 = tensor.empty(%bh44, %n) : tensor<?x64x?xf16>
  %kt38 = linalg.transpose ins(%k337 : tensor<?x?x64xf16>) outs(%kte39 : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %se40 = tensor.empty(%bh44, %n, %n) : tensor<?x?x?xf16>
  %sf41 = linalg.fill ins(%zero16 : f16) outs(%se40 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s342 = linalg.batch_matmul ins(%q336, %kt38 : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%sf41 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s43 = tensor.expand_shape %s342 [[0, 1], [2], [3]] output_shape [%b, 4, %n, %n] : tensor<?x?x?xf16> into tensor<?x4x?x?xf16>
  %e3245 = tensor.empty(%b, %n, %n) : tensor<?x4x?x?xf32>
  %s3246 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s43 : tensor<?x4x?x?xf16>) outs(%e3245 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %ss47 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s3246 : tensor<?x4x?x?xf32>) outs(%e3245 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %in, %scale : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %sm48 = linalg.generic {indexing_maps = [#id4, #mask4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss47, %pad_mask : tensor<?x4x?x?xf32>, tensor<?x1x?x?xf32>) outs(%e3245 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %t = arith.addf %in, %bias : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %re49 = tensor.empty(%b, %n) : tensor<?x4x?xf32>
  %mf50 = linalg.fill ins(%lowest : f32) outs(%re49 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %m51 = linalg.generic {indexing_maps = [#id4, #rows4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm48 : tensor<?x4x?x?xf32>) outs(%mf50 : tensor<?x4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ogt, %in, %out : f32
    %t = arith.select %gt, %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?xf32>
  %ex52 = linalg.generic {indexing_maps = [#id4, #rows4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm48, %m51 : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%e3245 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %t = arith.subf %in, %in_1 : f32
    %y = math.exp %t : f32
    linalg.yield %y : f32
  } -> tensor<?x4x?x?xf32>
  %zf53 = linalg.fill ins(%zero : f32) outs(%re49 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %z54 = linalg.generic {indexing_maps = [#id4, #rows4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex52 : tensor<?x4x?x?xf32>) outs(%zf53 : tensor<?x4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %out, %in : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?xf32>
  %p55 = linalg.generic {indexing_maps = [#id4, #rows4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex52, %z54 : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%e3245 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %t = arith.divf %in, %in_1 : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %e1656 = tensor.empty(%b, %n, %n) : tensor<?x4x?x?xf16>
  %p1657 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p55 : tensor<?x4x?x?xf32>) outs(%e1656 : tensor<?x4x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x4x?x?xf16>
  %p358 = tensor.collapse_shape %p1657 [[0, 1], [2], [3]] : tensor<?x4x?x?xf16> into tensor<?x?x?xf16>
  %v359 = tensor.collapse_shape %th35 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %oe60 = tensor.empty(%bh44, %n) : tensor<?x?x64xf16>
  %of61 = linalg.fill ins(%zero16 : f16) outs(%oe60 : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o362 = linalg.batch_matmul ins(%p358, %v359 : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%of61 : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o63 = tensor.expand_shape %o362 [[0, 1], [2], [3]] output_shape [%b, 4, %n, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
  %me64 = tensor.empty(%b, %n) : tensor<?x?x4x64xf16>
  %mh65 = linalg.transpose ins(%o63 : tensor<?x4x?x64xf16>) outs(%me64 : tensor<?x?x4x64xf16>) permutation = [0, 2, 1, 3]
  %mc66 = tensor.collapse_shape %mh65 [[0], [1], [2, 3]] : tensor<?x?x4x64xf16> into tensor<?x?x256xf16>
  %mr67 = tensor.collapse_shape %mc66 [[0, 1], [2]] : tensor<?x?x256xf16> into tensor<?x256xf16>
  %wte69 = tensor.empty() : tensor<256x256xf16>
  %wt68 = linalg.transpose ins(%wo : tensor<256x256xf16>) outs(%wte69 : tensor<256x256xf16>) permutation = [1, 0]
  %mme71 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf72 = linalg.fill ins(%zero16 : f16) outs(%mme71 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm70 = linalg.matmul ins(%mr67, %wt68 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf72 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %rese73 = tensor.empty(%rows) : tensor<?x256xf16>
  %res74 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %mm70 : tensor<?x256xf16>, tensor<?x256xf16>) outs(%rese73 : tensor<?x256xf16>) {
  ^bb0(%in: f16, %in_1: f16, %out: f16):
    %t = arith.addf %in, %in_1 : f16
    linalg.yield %t : f16
  } -> tensor<?x256xf16>
  // Cross-attention to the memory: Nq != Nk.
  %re75 = tensor.empty(%rows) : tensor<?xf32>
  %sumf77 = linalg.fill ins(%zero : f32) outs(%re75 : tensor<?xf32>) -> tensor<?xf32>
  %sum76 = linalg.generic {indexing_maps = [#id2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%res74 : tensor<?x256xf16>) outs(%sumf77 : tensor<?xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %xf = arith.extf %in : f16 to f32
    %a = arith.addf %acc, %xf : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %mean78 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum76 : tensor<?xf32>) outs(%re75 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %mn = arith.divf %in, %width : f32
    linalg.yield %mn : f32
  } -> tensor<?xf32>
  %varf80 = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%res74, %mean78 : tensor<?x256xf16>, tensor<?xf32>) outs(%sumf77 : tensor<?xf32>) {
  ^bb0(%in: f16, %m: f32, %acc: f32):
    %xf = arith.extf %in : f16 to f32
    %c = arith.subf %xf, %m : f32
    %sq = arith.mulf %c, %c : f32
    %a = arith.addf %acc, %sq : f32
    linalg.yield %a : f32
  } -> tensor<?xf32>
  %lne82 = tensor.empty(%rows) : tensor<?x256xf16>
  %ln81 = linalg.generic {indexing_maps = [#id2, #row2, #row2, #col2, #col2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%res74, %mean78, %varf80, %g2, %b2 : tensor<?x256xf16>, tensor<?xf32>, tensor<?xf32>, tensor<256xf16>, tensor<256xf16>) outs(%lne82 : tensor<?x256xf16>) {
  ^bb0(%in: f16, %m: f32, %v: f32, %g: f16, %bt: f16, %out: f16):
    %xf = arith.extf %in : f16 to f32
    %c = arith.subf %xf, %m : f32
    %vv = arith.divf %v, %width : f32
    %ve = arith.addf %vv, %eps : f32
    %rs = math.rsqrt %ve : f32
    %nrm = arith.mulf %c, %rs : f32
    %gf = arith.extf %g : f16 to f32
    %bf = arith.extf %bt : f16 to f32
    %sc = arith.mulf %nrm, %gf : f32
    %sh = arith.addf %sc, %bf : f32
    %o = arith.truncf %sh : f32 to f16
    linalg.yield %o : f16
  } -> tensor<?x256xf16>
  %wte84 = tensor.empty() : tensor<256x256xf16>
  %wt83 = linalg.transpose ins(%cq : tensor<256x256xf16>) outs(%wte84 : tensor<256x256xf16>) permutation = [1, 0]
  %mme86 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf87 = linalg.fill ins(%zero16 : f16) outs(%mme86 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm85 = linalg.matmul ins(%ln81, %wt83 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf87 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x388 = tensor.expand_shape %mm85 [[0, 1], [2]] output_shape [%b, %n, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x489 = tensor.expand_shape %x388 [[0], [1], [2, 3]] output_shape [%b, %n, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te90 = tensor.empty(%b, %n) : tensor<?x4x?x64xf16>
  %th91 = linalg.transpose ins(%x489 : tensor<?x?x4x64xf16>) outs(%te90 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %wte93 = tensor.empty() : tensor<256x256xf16>
  %wt92 = linalg.transpose ins(%ck : tensor<256x256xf16>) outs(%wte93 : tensor<256x256xf16>) permutation = [1, 0]
  %mme95 = tensor.empty(%mrows) : tensor<?x256xf16>
  %mmf96 = linalg.fill ins(%zero16 : f16) outs(%mme95 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm94 = linalg.matmul ins(%m2, %wt92 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf96 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x397 = tensor.expand_shape %mm94 [[0, 1], [2]] output_shape [%b, %nm, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x498 = tensor.expand_shape %x397 [[0], [1], [2, 3]] output_shape [%b, %nm, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te99 = tensor.empty(%b, %nm) : tensor<?x4x?x64xf16>
  %th100 = linalg.transpose ins(%x498 : tensor<?x?x4x64xf16>) outs(%te99 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %wte102 = tensor.empty() : tensor<256x256xf16>
  %wt101 = linalg.transpose ins(%cv : tensor<256x256xf16>) outs(%wte102 : tensor<256x256xf16>) permutation = [1, 0]
  %mme104 = tensor.empty(%mrows) : tensor<?x256xf16>
  %mmf105 = linalg.fill ins(%zero16 : f16) outs(%mme104 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm103 = linalg.matmul ins(%m2, %wt101 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf105 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %x3106 = tensor.expand_shape %mm103 [[0, 1], [2]] output_shape [%b, %nm, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  %x4107 = tensor.expand_shape %x3106 [[0], [1], [2, 3]] output_shape [%b, %nm, 4, 64] : tensor<?x?x256xf16> into tensor<?x?x4x64xf16>
  %te108 = tensor.empty(%b, %nm) : tensor<?x4x?x64xf16>
  %th109 = linalg.transpose ins(%x4107 : tensor<?x?x4x64xf16>) outs(%te108 : tensor<?x4x?x64xf16>) permutation = [0, 2, 1, 3]
  %q3110 = tensor.collapse_shape %th91 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %k3111 = tensor.collapse_shape %th100 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %bh118 = arith.muli %b, %heads : index
  %kte113 = tensor.empty(%bh118, %nm) : tensor<?x64x?xf16>
  %kt112 = linalg.transpose ins(%k3111 : tensor<?x?x64xf16>) outs(%kte113 : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %se114 = tensor.empty(%bh118, %n, %nm) : tensor<?x?x?xf16>
  %sf115 = linalg.fill ins(%zero16 : f16) outs(%se114 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s3116 = linalg.batch_matmul ins(%q3110, %kt112 : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%sf115 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s117 = tensor.expand_shape %s3116 [[0, 1], [2], [3]] output_shape [%b, 4, %n, %nm] : tensor<?x?x?xf16> into tensor<?x4x?x?xf16>
  %e32119 = tensor.empty(%b, %n, %nm) : tensor<?x4x?x?xf32>
  %s32120 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s117 : tensor<?x4x?x?xf16>) outs(%e32119 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f16, %out: f32):
    %t = arith.extf %in : f16 to f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %ss121 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s32120 : tensor<?x4x?x?xf32>) outs(%e32119 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %in, %scale : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %re122 = tensor.empty(%b, %n) : tensor<?x4x?xf32>
  %mf123 = linalg.fill ins(%lowest : f32) outs(%re122 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %m124 = linalg.generic {indexing_maps = [#id4, #rows4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ss121 : tensor<?x4x?x?xf32>) outs(%mf123 : tensor<?x4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ogt, %in, %out : f32
    %t = arith.select %gt, %in, %out : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?xf32>
  %ex125 = linalg.generic {indexing_maps = [#id4, #rows4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ss121, %m124 : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%e32119 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %t = arith.subf %in, %in_1 : f32
    %y = math.exp %t : f32
    linalg.yield %y : f32
  } -> tensor<?x4x?x?xf32>
  %zf126 = linalg.fill ins(%zero : f32) outs(%re122 : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  %z127 = linalg.generic {indexing_maps = [#id4, #rows4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex125 : tensor<?x4x?x?xf32>) outs(%zf126 : tensor<?x4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.addf %out, %in : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?xf32>
  %p128 = linalg.generic {indexing_maps = [#id4, #rows4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex125, %z127 : tensor<?x4x?x?xf32>, tensor<?x4x?xf32>) outs(%e32119 : tensor<?x4x?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %t = arith.divf %in, %in_1 : f32
    linalg.yield %t : f32
  } -> tensor<?x4x?x?xf32>
  %e16129 = tensor.empty(%b, %n, %nm) : tensor<?x4x?x?xf16>
  %p16130 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p128 : tensor<?x4x?x?xf32>) outs(%e16129 : tensor<?x4x?x?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x4x?x?xf16>
  %p3131 = tensor.collapse_shape %p16130 [[0, 1], [2], [3]] : tensor<?x4x?x?xf16> into tensor<?x?x?xf16>
  %v3132 = tensor.collapse_shape %th109 [[0, 1], [2], [3]] : tensor<?x4x?x64xf16> into tensor<?x?x64xf16>
  %oe133 = tensor.empty(%bh118, %n) : tensor<?x?x64xf16>
  %of134 = linalg.fill ins(%zero16 : f16) outs(%oe133 : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o3135 = linalg.batch_matmul ins(%p3131, %v3132 : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%of134 : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o136 = tensor.expand_shape %o3135 [[0, 1], [2], [3]] output_shape [%b, 4, %n, 64] : tensor<?x?x64xf16> into tensor<?x4x?x64xf16>
  %me137 = tensor.empty(%b, %n) : tensor<?x?x4x64xf16>
  %mh138 = linalg.transpose ins(%o136 : tensor<?x4x?x64xf16>) outs(%me137 : tensor<?x?x4x64xf16>) permutation = [0, 2, 1, 3]
  %mc139 = tensor.collapse_shape %mh138 [[0], [1], [2, 3]] : tensor<?x?x4x64xf16> into tensor<?x?x256xf16>
  %mr140 = tensor.collapse_shape %mc139 [[0, 1], [2]] : tensor<?x?x256xf16> into tensor<?x256xf16>
  %wte142 = tensor.empty() : tensor<256x256xf16>
  %wt141 = linalg.transpose ins(%co : tensor<256x256xf16>) outs(%wte142 : tensor<256x256xf16>) permutation = [1, 0]
  %mme144 = tensor.empty(%rows) : tensor<?x256xf16>
  %mmf145 = linalg.fill ins(%zero16 : f16) outs(%mme144 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %mm143 = linalg.matmul ins(%mr140, %wt141 : tensor<?x256xf16>, tensor<256x256xf16>) outs(%mmf145 : tensor<?x256xf16>) -> tensor<?x256xf16>
  %rese146 = tensor.empty(%rows) : tensor<?x256xf16>
  %res147 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%res74, %mm143 : tensor<?x256xf16>, tensor<?x256xf16>) outs(%rese146 : tensor<?x256xf16>) {
  ^bb0(%in: f16, %in_1: f16, %out: f16):
    %t = arith.addf %in, %in_1 : f16
    linalg.yield %t : f16
  } -> tensor<?x256xf16>
  %y = tensor.expand_shape %res147 [[0, 1], [2]] output_shape [%b, %n, 256] : tensor<?x256xf16> into tensor<?x?x256xf16>
  return %y : tensor<?x?x256xf16>
}
