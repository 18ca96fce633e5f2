//===- Passes.td - sage transformation passes --------------*- tablegen -*-===//

#ifndef SAGE_TRANSFORMS_PASSES_TD
#define SAGE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def SageRaiseAttention : Pass<"sage-raise-attention"> {
  let summary = "Raise generic attention into sage.attention";
  let description = [{
    Finds attention in the forms frontends emit and rewrites it into one
    `sage.attention`, only where the result is the same computation:

    * upstream linalg: Q*K^T (linalg.batch_matmul / linalg.matmul, K
      transposed by the indexing maps or a linalg.transpose), an optional
      multiply / divide by a constant, `linalg.softmax` over the keys,
      optional casts, then *V;
    * a spelled-out softmax (max-reduce, exp(s - max), sum-reduce, divide),
      as torch-mlir's decomposition of scaled_dot_product_attention and
      StableHLO-style chains (dot_general, transposes between BTNH and BNTH
      layouts) produce it;
    * torch-mlir's `tm_tensor.attention` and IREE's
      `iree_linalg_ext.attention`, matched by name and structure, so their
      generic form works with `--allow-unregistered-dialect` and the same
      patterns work in a tool that registers those dialects.

    Operand roles come from indexing maps; operands in another order are
    transposed to [batch..., tokens, features] and the result back. A
    materialized causal mask becomes `causal`, aligned top-left as the
    frontends' (`causal_alignment = top_left`, left implicit where Nq = Nk
    is provable); other masks become the mask operand.

    Left alone (with `explain`, a remark says why): softmax over another
    axis; scores or probabilities with other users; dropout or other
    non-cast ops between the softmax and P*V; contractions into non-zero
    inits; mismatched element types or dynamic feature dimensions; a
    non-identity score region; attention the recipe policy excludes.

    Recipe policy (README): a `sage.recipe` attribute on the attention op
    or its function (a #sage.recipe, or "none"), else the first `policy`
    rule GLOB=VARIANT whose glob matches the function name or the location
    (VARIANT may be `none`), else `variant`.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"variant", "variant", "std::string", /*default=*/"\"int8-fp8\"",
           "Default recipe variant: int8-fp8, int4-fp8, int8-fp8-f16acc, "
           "int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc">,
    ListOption<"rules", "policy", "std::string",
               "Recipe rules GLOB=VARIANT, matched against the function "
               "name or the location; VARIANT 'none' leaves it alone">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark on each candidate that is not raised, saying why">
  ];
}

def SageOutlineAttention : Pass<"sage-outline-attention", "::mlir::ModuleOp"> {
  let summary = "Move each sage.attention of a whole model into a function of its own, called from where it was";
  let description = [{
    A function that holds other ops besides an attention (a transformer
    layer: matmuls, a layer norm, the attention) cannot be compiled into
    kernels as it is. This pass moves each `sage.attention` into a new
    public function `@<parent>_attention_<i>` (the i-th in its function;
    renamed if the symbol exists) and replaces it by a `func.call`, leaving
    every other op where it was, for the frontend's own compiler.

    The new function takes the tensors the kernels read: the attention's
    operands with the layout ops that only re-describe them (a tokens <->
    heads transpose, reshapes of the leading dims; docs/Launchers.md) moved
    in with it when the attention is their only user, so a `[batch,
    tokens, heads, features]` model passes its tensors without copies.
    Transposes move in only when Q, K, V and the result all cross one, the
    layout the kernels take. Its arguments carry `sage.buffer` (`q`, `k`,
    `v`, `mask`) and its results `o` and `lse`: the buffers of the C ABI.

    `tensor.dim` of the values that move (the attention's results, the
    layout ops' results) first reads the size where it was given (an
    init's size, an expand_shape's output shape, the query's dims), so the
    model keeps no use of them.
    A function that already computes one attention and nothing else is
    left as it is: it compiles as it stands.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SageSplitLaunchers : Pass<"sage-split-launchers", "::mlir::ModuleOp"> {
  let summary = "Keep either the launcher half or the model half of an outlined module";
  let description = [{
    After `sage-outline-attention`, a module holds the model's functions
    and the attention functions they call. sage compiles the second half,
    the frontend's compiler the first:

    * `keep=launchers` erases every top-level op but the attention
      functions (one attention and only its layout ops, sizes and
      constants; what `--sage-to-ptx` and `--sage-to-llvm` do first);
    * `keep=model` turns each attention function into a private
      declaration with a `sage.launcher` dictionary naming the C functions
      that run it (`launch`, `workspace_size`, `last_error`;
      docs/Launchers.md), and leaves every other op alone.

    A function holding an attention among other ops is an error in either
    mode: neither half may drop the model's ops or the attention.
  }];
  let options = [
    Option<"keep", "keep", "std::string", /*default=*/"\"launchers\"",
           "Which half to keep: launchers or model">
  ];
}

def SageDecomposeAttention : Pass<"sage-decompose-attention"> {
  let summary = "Make the smoothing and quantization steps of sage.attention explicit";
  let description = [{
    Rewrites each `sage.attention` into the steps its recipe names, on
    `[batch, heads, tokens, features]` tensors (rank-3 operands get a unit
    heads dimension):

      K:  sage.smooth (global mean)        -> sage.quantize (per_thread b)
      Q:  sage.smooth (per Q block)        -> sage.quantize (per_thread a)
      V:  [sage.smooth (global mean)]      -> sage.quantize (per_channel E4M3)
      sage.quantized_attention (the online-softmax loop over K/V blocks)

    The granularities follow the recipe's `qk` key; the tile sizes are the
    pass options and become the quantization groups; with `store-values`,
    8-bit V is then written as the P V MMA reads it (a `linalg.generic`
    into `[batch, heads, features, groups, 32]`, keys in P's accumulator
    order, zero past the last) and passed with its `v_layout`; a mask and the LSE
    pass to the core (rank 3 gains a unit heads dimension). An attention
    that cannot be decomposed (a layout whose two innermost dimensions are
    not tokens and features, the nvfp4 variant) is an error naming the
    reason.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"64",
           "Query rows per Q block (one CTA)">,
    Option<"warpQ", "warp-q", "int64_t", /*default=*/"16",
           "Query rows per warp">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"64",
           "Key/value tokens per K/V block">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Take block-q and block-k from the measured schedule for this "
           "chip where it has a row for the attention (docs/Tuning.md); "
           "empty: the options">,
    Option<"tuningTable", "tuning-table", "std::string", /*default=*/"\"\"",
           "A table of schedules written by benchmarks/tune_attention.py, "
           "instead of the built-in one">,
    Option<"sequentialSchedules", "sequential-schedules", "bool",
           /*default=*/"false",
           "With chip: take only rows whose schedule has every warp compute "
           "one block after the other (no producer warpgroup, no softmax "
           "overlap, no warpgroup turns), the kernels --sage-levels "
           "builds; the others keep the options">,
    Option<"storeValues", "store-values", "bool", /*default=*/"false",
           "Store 8-bit V as the P V MMA reads it: [batch, heads, features, "
           "groups, 32], each group's keys in P's accumulator order "
           "(v_layout = #sage.mma_ordered<along = tokens, k = 32, order = "
           "accumulator>, docs/Layouts.md)">,
    Option<"valueOrder", "value-order", "std::string",
           /*default=*/"\"accumulator\"",
           "The order of each stored group's keys: accumulator (P's, which "
           "the kernels read as they are) or natural (ascending, which a "
           "wgmma kernel's stage-order copy puts in P's order)">
  ];
}

def SageLowerQuantizers : Pass<"sage-lower-quantizers"> {
  let summary = "Lower the tensor-level sage.smooth and sage.quantize to linalg";
  let description = [{
    The host side's first level (docs/Levels.md, "The statistics and
    quantizers"): each `sage.smooth` and tensor-level `sage.quantize`
    outside a grid becomes `linalg.generic`s on tensors that compute what
    the CPU model computes, in its order: a mean is f64 sums of its
    group's tokens in token order, divided by the count and rounded to
    f32; a quantizer takes each row's largest magnitude, then each group's
    (the tokens padded with zero rows to whole spans and reshaped so that
    a group's rows are dimensions of their own), divides by the range, and
    rounds x / scale (half to even, clamped, for integers; to nearest for
    floats). A quantizer of a `sage.smooth`'s result subtracts the mean
    itself, in f32: the smoothed values are not rounded to the input type
    in between. Formats or granularities with no lowering (NVFP4
    microscaling, 4-bit values) are errors naming the reason. The grid's
    own quantizers (P, inside loops) are the tile level's.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SageTileAttention : Pass<"sage-tile-attention"> {
  let summary = "Tile sage.quantized_attention into a grid of Q blocks and a loop over K/V blocks";
  let description = [{
    The tile level of the lowering (docs/Levels.md). Each
    `sage.quantized_attention` becomes an `scf.forall` over (batch, head,
    Q block), mapped to `#gpu.block<z, y, x>`, whose body loads its Q tile
    and runs an `scf.for` over the K/V blocks it sees (all of them, or up
    to the diagonal when causal), carrying the FP32 output buffer O, the
    row max m and the row sum l:

      S       = sage.qmma(Q_i, K_j) (i32), then (S + qbar_i . K_j) * scale
                * log2 e                       log2 units
      S       = S + M_ij log2 e (or -inf where an i1 M_ij is false)
      S       = sage.mask_scores(S)            padded keys, causal
      P_r P~, m, l, alpha = sage.online_softmax(S, m, l) {base2,
                prob_scale = P_r}
      P_hat   = sage.quantize(P_r P~) {bound = P_r}   a rounding
      R       = sage.qmma(P_hat, V_j^T)        unscaled, f32 or f16 accumulator
      O       = sage.accumulate(R into O rescale alpha)

    then `O / l * delta_V / P_r (+ mean V)` in the output type, inserted at
    the Q block, and with an LSE result each row's `m ln 2 + ln l` (plus the
    K-smoothing shift) into the `[B, H, Nq]` LSE. Tiles are static: a partial block is padded with zeros
    (padded keys are masked, padded rows never stored). Tile sizes must fit
    the quantization groups (a per_thread or per_block group of `block`
    tokens, a per_warp group of `warp` tokens, the Q-smoothing block) and
    an f16 accumulator's flush (`block-k` = 32 * `every`); an op they do
    not fit is an error naming the mismatch.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"blockQ", "block-q", "int64_t", /*default=*/"0",
           "Query rows per Q block (one workgroup); 0: the tokens of each "
           "op's per_thread or per_block Q groups, else 64">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"0",
           "Key/value tokens per K/V block (one loop iteration); a "
           "multiple of 32; 0: the tokens of each op's K groups, else 64">,
    Option<"clusterCtas", "cluster-ctas", "int64_t", /*default=*/"1",
           "Consecutive Q blocks launched as one cluster, which shares "
           "each K/V block (the grid carries sage.cluster_ctas, its "
           "#gpu.block<x> extent a whole number of clusters); 1: none">
  ];
}

def SageSelectMma : Pass<"sage-select-mma"> {
  let summary = "Choose the tensor-core instruction of every sage.qmma";
  let description = [{
    Sets each `sage.qmma`'s `mma` attribute to the row of sage's MMA table
    (docs/Mma.md) that computes the tile on `chip`: the operand formats,
    accumulator and block scales must match, the chip must run it, the tile
    must be a whole number of its shapes, and operand `a` is read from
    where it lives (a tile computed in the loop, like P, from registers or
    tensor memory; a loaded tile from shared memory for wgmma and tcgen05).
    With `scope=auto`, tcgen05 is preferred on sm_100a, wgmma on sm_90a,
    mma.sync elsewhere; the widest legal n dividing the tile is taken. An
    op no row computes is an error that lists every candidate and why it
    was refused.
  }];
  let dependentDialects = ["::mlir::sage::SageDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU: sm_80, sm_89, sm_90, sm_90a, sm_100a, sm_120a">,
    Option<"scope", "scope", "std::string", /*default=*/"\"auto\"",
           "auto, or force warp (mma.sync), warpgroup (wgmma) or tcgen05">
  ];
}

def SageAssignFragments : Pass<"sage-assign-fragments"> {
  let summary = "Encode how the lanes hold each tile of the online-softmax chain";
  let description = [{
    The first half of the distribute level (docs/Levels.md). After
    `sage-select-mma`, each `sage.qmma` of a warp MMA (mma.sync) anchors its
    result: `#sage.acc_fragment<mma = ..., warps = rows / m>`, one row tile
    of the MMA a warp. The encoding then follows the values through the ops
    that leave each element in the lane that holds it: `linalg.generic`
    computed element by element (inputs read in place share the encoding;
    broadcast inputs such as dS stay CTA-wide) and `linalg.fill`,
    `sage.mask_scores`, `sage.online_softmax` (its per-row values get
    `#sage.row_fragment`), P's `sage.quantize` with a static bound (its one
    scale `#sage.replicated`), `sage.accumulate` and the values the K/V
    loop carries. Other tiles keep their types. A value whose producer
    keeps its type (a mask window, an argument) is read through a
    `tensor.cast` that adds the encoding; a use that pins its type (a
    return, a slice, a `sage.qmma`'s B or scales) through one that drops
    it. A wgmma's result is encoded with the m16n8 warp MMA of its formats,
    a warp each 16 rows: that is how each warp of a warpgroup holds its
    accumulators. A tile the ops would give two encodings is an error
    naming both; so is a `sage.qmma` without an instruction or of scope
    tcgen05 (its accumulator lives in tensor memory), and a softmax whose
    scores lost the encoding on the way from the `sage.qmma`.
  }];
  let dependentDialects = [
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SageDistributeTiles : Pass<"sage-distribute-tiles"> {
  let summary = "Replace tiles with fragment encodings by each lane's vector";
  let description = [{
    The second half of the distribute level (docs/Levels.md): a dialect
    conversion whose type converter maps a tile encoded by
    `sage-assign-fragments` to the vector one lane holds of it. Element-wise
    `linalg.generic` bodies become the same arithmetic on vectors;
    `linalg.fill` a splat; `sage.mask_scores`, `sage.online_softmax`, P's
    `sage.quantize` and `sage.accumulate` their fragment forms (L4), named
    by the MMA of their encoding, with the warp's first row from
    `gpu.thread_id`; `scf.for` carries the vectors. A `sage.qmma` becomes
    the lane's `sage.warp_mma` chains on the elements it reads from the
    operand tiles (or, for P, takes from its registers), or for a wgmma
    row each warpgroup's `sage.warpgroup_mma` chains on the
    `sage.tile_descriptor`s of the operand tiles gathered into K-major core
    matrices, fenced, committed and waited for; then the scales;
    where P's accumulator order permutes the keys, B is first gathered
    into that order (a `linalg.generic`), so that each of the lane's
    registers is consecutive elements.
    Generics read broadcast inputs (dS, l, delta_V) at each lane's
    coordinates; a tile from outside the level enters through the cast
    sage-assign-fragments added (each lane reads its elements), and a tile
    that leaves it (the grid's output) is `sage.from_lanes`. Block-scaled
    MMAs are refused.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SagePromoteTiles : Pass<"sage-promote-tiles"> {
  let summary = "Stage the tiles a CTA's lanes read in workgroup memory";
  let description = [{
    The promote level (docs/Levels.md, L3), after `sage-distribute-tiles`:
    inside each grid, an operand window padded to the tile (`tensor.pad`)
    that the lanes read, directly or through a transpose, becomes a
    `sage.stage_tile` (through a chain of gathers the lanes read, one with
    the chain's composed `indexing_map`) into a tile allocated in workgroup
    memory
    (`bufferization.alloc_tensor` with `memory_space =
    #gpu.address_space<workgroup>`); so does one a wgmma reads through
    `sage.tile_descriptor`s, gathered into core matrices (links of the
    chain that only undo how the window is stored drop out of the map),
    and a `linalg.matvec` the lanes read
    (dS) is computed there, over the rows of its window when the window
    is zero-padded. `sage-fold-lane-reads` then leaves these tiles alone,
    and `sage-lower-staging` splits their copies and products among the
    CTA's threads once the grid is a `gpu.launch`.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::sage::SageDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SageStoreStageOrder : Pass<"sage-store-stage-order"> {
  let summary = "Store the operands a CTA stages rearranged in their stages' order";
  let description = [{
    After `sage-promote-tiles` (docs/Levels.md, "Operands stored in stage
    order"): a `sage.stage_tile` with an `indexing_map` (the K-major core
    matrices a wgmma reads) whose window is block `j` of an operand
    defined before the grid (an `extract_slice` that keeps whole static
    dimensions but one, which it cuts into blocks of `c` elements from
    `j x c`, up to the operand's end, and drops the batch and head
    dimensions; possibly collapsed) reads instead block `j` of a copy of
    the operand made once before the grid, `[dropped dimensions...,
    blocks, tile...]`, each block the staged tile's bytes in order, the
    padding past the operand's end. The staging becomes a plain copy of
    a contiguous tile (one bulk copy can move it); the copy is a
    `linalg.generic` the host side launches with the quantizers. Stagings
    of other windows are left alone.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SageFuseGatheredProducers : Pass<"sage-fuse-gathered-producers"> {
  let summary = "Compute an elementwise producer's elements where a gather reads them";
  let description = [{
    On the host side, after `sage-store-stage-order` (docs/Levels.md,
    "The statistics and quantizers"): a `tensor.extract` outside any grid
    whose tensor is the result of an elementwise `linalg.generic` (every
    loop parallel, an identity output map, the output's element unread,
    a body of pure ops) used only by such extracts and `tensor.dim`s
    becomes the producer's body at the extract's indices, each input read
    at its indexing map's image of them (`linalg.index` d is index d).
    The stage-order copies then quantize Q, K and V themselves from the
    f16 inputs, and the row-major quantized tensors are gone: one pass
    over memory where there were two.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def SagePackInt4 : Pass<"sage-pack-int4"> {
  let summary = "Store i4 tensors as their bytes, two values a byte";
  let description = [{
    After `sage-distribute-tiles` (docs/Levels.md, "INT4"): every tensor of
    i4 becomes the i8 tensor of its bytes, the last dimension halved, the
    lower column in the low nibble, and each lane's vector of i4 the
    vector of its bytes, bitcast back to i4 where `sage.warp_mma` takes it
    (an m16n8k64 s4 fragment is the m16n8k32 s8 fragment of the packed
    tile). Function signatures change with it: a host function takes an i4
    operand as its bytes. The quantizers' element-wise `linalg.generic`
    computes a byte from two columns; `tensor.empty`, `dim`, `cast`,
    `extract_slice`, `pad`, `vector.transfer_read` and `vector.shuffle` move
    whole bytes. A slice, pad, read or shuffle that splits a byte, or any
    other op on i4 tensors or vectors, is refused by name before anything
    is rewritten. Later levels then stage and load bytes as for INT8.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageFoldLaneReads : Pass<"sage-fold-lane-reads"> {
  let summary = "Make each lane read the operands instead of the tiles built from them";
  let description = [{
    After `sage-distribute-tiles` (docs/Levels.md, "From lanes to a
    kernel"): a lane's read of a window padded to the tile
    (`tensor.pad`) becomes a read of the window that may fall out of
    bounds (`vector.transfer_read`, which yields the padding value there);
    a read of a transposed tile (V^T) reads the input at the swapped
    coordinates, and one of another gather (V^T in P's key order) each
    element at its input's coordinates; an element of a `linalg.matvec`
    (dS) becomes its row's dot product, summed in order; a warp's
    `sage.warp_load_matrices` of such a tile, each lane's reads of its
    words. The tiles are
    then dead and go, so that bufferization allocates nothing a lane would
    fill whole.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageLaunchGrid : Pass<"sage-launch-grid"> {
  let summary = "Launch each distributed, bufferized grid as a gpu.launch";
  let description = [{
    The last step from the distribute level to a kernel (docs/Levels.md,
    "From lanes to a kernel"), after `sage-fold-lane-reads` and one-shot
    bufferization: the copy of a grid's `sage.from_lanes` output tile
    into the result becomes each lane's `vector.transfer_write`s of its
    elements (rows past the output's end are not written), and the grid's
    `scf.forall` a `gpu.launch` with one block per point, its induction
    variables the block ids its `#gpu.block` mapping names, and 32 threads
    a warp of the output's fragment encoding. `gpu-kernel-outlining` then
    makes the kernel.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageLaunchLoops : Pass<"sage-launch-loops"> {
  let summary = "Launch each linalg op and copy of a host function as a kernel";
  let description = [{
    After bufferization and `sage-launch-grid`, the linalg ops and
    `memref.copy`s left outside any `gpu.launch` (the statistics and
    quantizers of `sage-lower-quantizers`, their fills, the copies
    bufferization made) touch device memory, which the host cannot: each
    becomes a `gpu.launch` of one thread per point of its parallel loops
    (`linalg`'s parallel-loop form, flattened into a 1-D grid of
    `block-size` threads a block, the last block guarded), whose
    reductions run in order in each thread. Simple kernels, correct
    first: the CPU model's order of every sum is kept. A short static
    innermost dimension (up to 16 points, no reductions) is one thread's
    loop; where its one store writes whole rows of an aligned buffer of
    at most 16 bytes a row (the stage-order copies), the loop is unrolled
    and the row stored as one vector; the loads that read a contiguous
    run along the row, or along the next dimension (a transpose: the
    thread then takes 8 rows), become vector loads, behind a run-time
    check of the base's alignment where the buffer is an argument. A row
    reduction that is exact in
    any order (`arith.maximumf` / `minimumf` on f32) over a static
    multiple of 16 contiguous elements is shared by 16 lanes a point,
    combined by `gpu.shuffle`s, lane 0 storing.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads a block">
  ];
}

def SageDeviceAllocations : Pass<"sage-device-allocations"> {
  let summary = "Allocate a host function's buffers in device memory";
  let description = [{
    A `memref.alloc` of a host function (outside `gpu.launch`, in the
    default memory space) holds what its kernels read and write: it
    becomes a `gpu.alloc` (the async form `gpu-to-llvm` lowers, waited
    for at once), freed by a `gpu.dealloc` before each return unless the
    function returns it. Launches are synchronous, so the buffers are no
    longer in use there.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect"
  ];
}

def SagePipelineTiles : Pass<"sage-pipeline-tiles"> {
  let summary = "Stage a loop's next block of workgroup tiles while it "
                "computes one";
  let description = [{
    The pipeline half of the promote level (docs/Levels.md, L3), in a
    kernel before `sage-lower-staging`: an `scf.for` whose body allocates
    workgroup tiles and fills them (`sage.stage_tile`, linalg products
    such as dS) before anything reads them gets two stages of each tile
    (a `memref.alloc` of `2 x` the tile before the loop). Block 0 is
    staged before the loop; iteration j issues block j + 1's stagings
    into the other stage as a `sage.stage_async` group first, computes
    block j from its stage, and ends with the group's `sage.stage_await`.
    The last iteration stages its own block again, into the stage nobody
    reads, rather than branch. A loop that writes memory outside
    workgroup memory, reads a tile before the body has filled it, or
    computes a window from a value it carries is left as it is. `stages=1` leaves every loop as it is;
    `stages=0` gives two stages to a loop of wgmmas, and to one whose block of
    tiles holds at least 16 KiB (mma.sync at D = 128), as measured faster.
  }];
  let options = [
    Option<"stages", "stages", "unsigned", /*default=*/"2",
           "Stages of each tile: 1 (as it is), 2, or 0 (two where measured "
           "faster: wgmma loops, blocks of 16 KiB or more)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def SageLowerStaging : Pass<"sage-lower-staging"> {
  let summary = "Fill a kernel's workgroup tiles with the whole CTA";
  let description = [{
    The promote level in a kernel (docs/Levels.md, L3), after outlining:
    each workgroup-memory `memref.alloc` becomes a workgroup attribution
    of its `gpu.func` (aligned to 16 bytes; a 2-D tile's rows of a
    multiple of 32 bytes padded by 16, against bank conflicts, and viewed
    at the tile's shape); each run of
    `sage.stage_tile` copies is split among the CTA's threads as
    `nvgpu.device_async_copy`s of up to 16 bytes (zero-filling past the
    window), committed as one group and waited for; one with an
    `indexing_map` that transposes the window (V^T in P's key order) as
    square blocks of a 32-bit word a side, each thread loading a block's
    words (`vector.load`), transposing them in registers and storing them
    (`vector.store`) while the copies are in flight; one whose map stages
    K-major core matrices (what a wgmma reads through
    `sage.tile_descriptor`) as a plain copy of the window split into
    16-byte columns into the tile's transposed view, followed by a
    `fence.proxy.async` before the barrier; a `linalg.matvec`
    into workgroup memory whose rows 16-byte loads can read (dS) is a row
    a thread, read 16 bytes at a time; any other linalg op that writes
    workgroup memory runs its outermost parallel loop across the threads.
    A `gpu.barrier` comes before and after each. A `sage.stage_async`
    group is issued where it stands, as one cp.async commit group (its
    rearranged tiles' stores and the wait at its `sage.stage_await`, then
    a barrier); a barrier first in a loop body that a barrier ends, and
    that one precedes, goes. A warp's `sage.warp_load_matrices` of a tile
    whose matrix rows are 16-byte aligned is one `nvvm.ldmatrix` (`x1`,
    `x2` or `x4`); elsewhere each lane reads its words. The CTA's size is
    the kernel's `known_block_size`.

    With `bulk-copies` (sm_90 and later), a plain copy of a contiguous,
    16-byte aligned tile (an operand stored in stage order,
    `sage-store-stage-order`) is one `cp.async.bulk` that thread 0 issues
    and that completes on the CTA's staging mbarrier: each thread arrives
    on it where the run is issued (thread 0 expecting the bytes) and waits
    for the phase it arrived on where the run completes
    (docs/Levels.md, "Bulk copies").
  }];
  let options = [
    Option<"bulkCopies", "bulk-copies", "bool", /*default=*/"false",
           "stage contiguous tiles by bulk copies on an mbarrier (sm_90+)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def SageSelectVariant : Pass<"sage-select-variant"> {
  let summary = "Give every sage.attention the recipe chosen for the chip";
  let description = [{
    `variant=auto` of `--sage-to-ptx`: replaces the variant of each
    `sage.attention`'s recipe with the one docs/Recipes.md chooses for
    `chip`, and the ranges with that variant's defaults; the op's Q/K scale
    granularity and smoothing stay (a microscale granularity, nvfp4's,
    becomes per_thread). The table:

    | chip | variant | why |
    |---|---|---|
    | sm_80 .. sm_88 | `int8-fp16` | no FP8 `mma.sync` |
    | sm_89, sm_120 .. | `int8-fp8-f16acc` | FP8 `mma.sync` with an f16 accumulator runs at twice the f32 one's rate there |
    | sm_90, sm_90a | `int8-fp8` | sm_90a: the wgmma kernel; sm_90: FP8 `mma.sync`, emulated, measured above int8-fp16 |
    | sm_100 .. sm_119 | `int8-fp8` | FP8 `mma.sync` (the tcgen05 kernel is not built) |

    `nvfp4` is never chosen: it trades accuracy for speed, so only an
    explicit recipe asks for it. A chip below sm_80 is an error. The f16
    accumulator flushes every two FP8 MMAs of 32 keys, which a K/V block
    must hold: with `block-k` below 64 (or not a multiple of it) sm_89
    and sm_120 get `int8-fp8`, the same recipe with the f32 accumulator.
  }];
  let dependentDialects = ["::mlir::sage::SageDialect"];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target GPU: sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100a, sm_120a, ...">,
    Option<"blockK", "block-k", "int64_t", /*default=*/"64",
           "Keys of the K/V blocks the kernels will be tiled by">
  ];
}

#endif // SAGE_TRANSFORMS_PASSES_TD
