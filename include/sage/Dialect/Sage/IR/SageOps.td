//===- SageOps.td - sage operations ------------------------*- tablegen -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEOPS_TD
#define SAGE_DIALECT_SAGE_IR_SAGEOPS_TD

include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "sage/Dialect/Sage/IR/SageAttrs.td"
include "sage/Dialect/Sage/IR/SageBase.td"
include "sage/Dialect/Sage/IR/SageTypes.td"

def Sage_FloatTensor : RankedTensorOf<[F16, BF16, F32]>;
def Sage_F32Tensor : RankedTensorOf<[F32]>;
// Positions: index on tiles; i32 where kernels compute in 32 bits.
def Sage_Offset : AnyTypeOf<[Index, I32]>;
// A tile, or a lane's fragment of one (docs/Levels.md, L4).
def Sage_F32TileOrFragment
    : AnyTypeOf<[Sage_F32Tensor, VectorOfRankAndType<[1], [F32]>]>;
def Sage_ScoresTileOrFragment
    : AnyTypeOf<[2DTensorOf<[F32]>, VectorOfRankAndType<[1], [F32]>]>;
def Sage_QuantTensor
    : RankedTensorOf<[I8, I<4>, F8E4M3FN, F8E5M2, F4E2M1FN, F16]>;
def Sage_ScaleTensor : RankedTensorOf<[F32, F8E4M3FN, F8E8M0FNU]>;

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

def Sage_AttentionOp : Sage_Op<"attention", [Pure]> {
  let summary = "attention computed with a SageAttention quantization recipe";
  let description = [{
    Computes, for every batch and head,

      `O = softmax(scale * Q K^T + mask) V`, `scale` defaulting to `1/sqrt(D)`,

    with the quantized algorithm `recipe` names (smoothing, INT8/INT4 or NVFP4
    Q and K, FP8 P and V, two-level accumulation). `layout` gives the role of
    each dimension of `query`, `key`, `value` and the result, which share it;
    rank 3 or 4.

    * GQA / MQA: the query head count is a multiple of the key/value head
      count; query head `h` reads key/value head `h / (Hq / Hkv)`.
    * `mask`: `i1` (true = keep) or additive float, shaped like the scores
      (the result's shape with `features` replaced by the key count); its
      batch and heads dimensions may be 1 to broadcast.
    * `causal`: query `i` sees key `j` iff `j <= i + (Nk - Nq)` (aligned to
      the bottom-right corner, as FlashAttention), or, with
      `causal_alignment = #sage.causal_alignment<top_left>`, iff `j <= i`
      (PyTorch's and JAX's `is_causal`); a query row that sees no key
      yields zeros.
    * `lse`: the optional second result is `log(sum_j exp(scale * s_ij))`
      per query row, in f32, shaped like the result without `features`.

    The result element type may differ from the inputs' (e.g. f16 inputs
    with an f32 result) when the raised computation produced that type.

    Example:

    ```mlir
    %o = sage.attention %q, %k, %v {
        layout = #sage.layout<[batch, heads, tokens, features]>,
        recipe = #sage.recipe<"int8-fp8">, scale = 0.088388 : f64, causal}
      : (tensor<2x32x?x128xf16>, tensor<2x8x?x128xf16>, tensor<2x8x?x128xf16>)
        -> tensor<2x32x?x128xf16>
    ```
  }];
  let arguments = (ins Sage_FloatTensor:$query, Sage_FloatTensor:$key,
                       Sage_FloatTensor:$value,
                       Optional<RankedTensorOf<[I1, F16, BF16, F32]>>:$mask,
                       Sage_LayoutAttr:$layout, Sage_RecipeAttr:$recipe,
                       OptionalAttr<F64Attr>:$scale, UnitAttr:$causal,
                       OptionalAttr<Sage_CausalAlignmentAttr>:$causal_alignment);
  let results = (outs Sage_FloatTensor:$result,
                      Optional<Sage_F32Tensor>:$lse);
  let assemblyFormat = [{
    $query `,` $key `,` $value (`mask` `(` $mask^ `)`)? attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The scale applied to Q K^T: the attribute, or 1/sqrt(D).
    double getScaleValue();
  }];
}

//===----------------------------------------------------------------------===//
// Building blocks. Operands are tensors whose two trailing dimensions are
// [tokens, features]; leading dimensions (batch, heads) are carried along.
//===----------------------------------------------------------------------===//

def Sage_SmoothOp : Sage_Op<"smooth",
    [Pure, AllTypesMatch<["input", "smoothed"]>]> {
  let summary = "subtract the mean over tokens";
  let description = [{
    `mean[g, :] = mean of input[t, :] over the tokens t of group g` and
    `smoothed[t, :] = input[t, :] - mean[group(t), :]`, where the groups are
    `block` consecutive tokens, or all tokens when `block` is absent.

    For K, the global mean is softmax-invariant and simply dropped; for Q,
    the per-block mean `qbar_i` returns as the correction
    `dS_ij = qbar_i gamma(K_j)^T`; for V, `O = P gamma(V) + mean(V)`.
    The mean is f32 whatever the input type; a trailing partial block
    averages only the tokens it has.

    Example:

    ```mlir
    %qs, %qbar = sage.smooth %q {block = 128}
      : tensor<2x32x1000x128xf16> -> tensor<2x32x8x128xf32>
    ```
  }];
  let arguments = (ins Sage_FloatTensor:$input,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block);
  let results = (outs Sage_FloatTensor:$smoothed, Sage_F32Tensor:$mean);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($mean)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape of the mean of an input of `inputShape`: one token per
    /// block of `block` tokens, or one for the whole sequence.
    static SmallVector<int64_t> getMeanShape(ArrayRef<int64_t> inputShape,
                                             std::optional<uint64_t> block);
  }];
}

def Sage_QuantizeOp : Sage_Op<"quantize", [Pure]> {
  let summary = "quantize a tensor into values and scales";
  let description = [{
    `scales[g] = max|input[i] for i in g| / range` and
    `values[i] = round_to_format(input[i] / scales[group(i)])`, with the groups
    and format of `quant` (see `#sage.quant`). Integer formats round to
    nearest even and clamp to `[-range, range]`; float formats round to
    nearest even and saturate. A group of zeros gets scale 0 and values 0.

    With `layout` (an operand layout such as `#sage.mma_packed`), the
    values are the operand of an MMA and are stored in that layout when they
    reach memory; the lowering writes them, and the MMA reads them, through
    that one attribute. Without it the lowering picks the widest
    `#sage.mma_packed` that fits, as `sage-decompose-attention` writes it.

    With `bound`, the input is known to lie in `[-bound, bound]` and every
    scale is the constant `bound / range` instead of a measured maximum:
    P~ of the online softmax lies in [0, 1], so P is quantized with
    `bound = 1.0`, i.e. `P_hat = P~ * P_r` (docs/Algorithm.md section 3).
    `f16` takes only a static bound equal to its range (65504): the values
    are rounded to f16 with the unit scale (V of the `int8-fp16` recipe).

    The scale tensor has the leading dimensions of the input and two
    trailing ones: `[token groups, feature groups]`, e.g. `[N, 1]` per token,
    `[1, D]` per channel, `[N, D / 16]` for NVFP4.

    On fragments (vectors, docs/Levels.md, L4) `values` keeps the layout of
    `input`, the accumulator of the MMA `fragment` names. With a static
    `bound` the op is element-wise and `scales` is the one static scale
    (`vector<1xf32>`).

    NVFP4 on fragments is P's two-level quantization (docs/Algorithm.md
    section 5), named by `row_range`. Its input is P~, which is never
    negative, so maxima are of the values rather than their magnitudes:
    each row is divided by its `s_row = max(row) / row_range`
    (`row_scales`, one per row the lane holds, 0 for a row of zeros), then
    microscaled: a UE4M3 scale per block of 16 keys, E2M1 values. The
    blocks are those of the accumulator order (docs/Layouts.md): keys
    `32h + 8j + 4c + {0..3}`, j = 0..3, of each 64-key chunk, which one
    quarter of the P V MMA's A operand holds when V is stored in that
    order. A block spans a lane pair, so the lowering meets its maximum
    with one shuffle. `scales` holds, per 64-key chunk, the four bytes of
    the block-scaled MMA's A scale register (blocks 0 to 3 from the low
    byte) on the lanes the instruction reads with its default selectors:
    row `g`'s on lane `t = 0`, row `g + 8`'s on `t = 1`; the other lanes'
    words are unspecified.

    Example:

    ```mlir
    %qv, %qs = sage.quantize %q
        {quant = #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>}
      : tensor<2x32x1024x128xf16> -> tensor<2x32x1024x128xi8>, tensor<2x32x256x1xf32>
    %pv, %ps, %srow = sage.quantize %p {fragment = #qk, row_range = 2688.0 : f64,
        quant = #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>}
      : vector<32xf32> -> vector<32xf4E2M1FN>, vector<4xf8E4M3FN>, vector<2xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Sage_FloatTensor,
                                  VectorOfRankAndType<[1], [F32]>]>:$input,
                       Sage_QuantAttr:$quant,
                       OptionalAttr<F64Attr>:$bound,
                       OptionalAttr<Sage_OperandLayoutAttrInterface>:$layout,
                       OptionalAttr<Sage_MmaAttr>:$fragment,
                       OptionalAttr<F64Attr>:$row_range);
  let results = (outs
      AnyTypeOf<[Sage_QuantTensor,
                 VectorOfRankAndType<[1], [I8, F8E4M3FN, F16, F4E2M1FN]>]>:$values,
      AnyTypeOf<[Sage_ScaleTensor,
                 VectorOfRankAndType<[1], [F32, F8E4M3FN]>]>:$scales,
      Optional<VectorOfRankAndType<[1], [F32]>>:$row_scales);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->`
    type($values) `,` type($scales) (`,` type($row_scales)^)?
  }];
  let hasVerifier = 1;
}

def Sage_DequantizeOp : Sage_Op<"dequantize", [Pure]> {
  let summary = "expand quantized values with their scales";
  let description = [{
    `result[i] = values[i] * scales[group(i)]`: the inverse of
    `sage.quantize` up to rounding, with the same `quant` rules.

    Example:

    ```mlir
    %v = sage.dequantize %vv, %vs {quant = #sage.quant<f8E4M3FN, per_channel>}
      : tensor<1024x128xf8E4M3FN>, tensor<1x128xf32> -> tensor<1024x128xf32>
    ```
  }];
  let arguments = (ins Sage_QuantTensor:$values, Sage_ScaleTensor:$scales,
                       Sage_QuantAttr:$quant);
  let results = (outs Sage_FloatTensor:$result);
  let assemblyFormat = [{
    $values `,` $scales attr-dict `:` type($values) `,`
    type($scales) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sage_QMmaOp : Sage_Op<"qmma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "quantized matrix multiply-accumulate on tiles";
  let description = [{
    `result[m, n] = acc[m, n] + sum_k (a[m, k] * a_scales[m, k])
                                     * (b[n, k] * b_scales[n, k])`

    with `b` in the `col` layout of mma.sync (`[N, K]`: contraction on the
    last dimension of both operands). Scales broadcast: `[M or 1, 1]` for
    row-wise scales, `[M, K / block]` for microscaling; likewise for `b`.
    With `a_quant` (`b_quant`), the scales are the groups that attribute
    defines over the operand's `[tokens, features]` = `[M, K]` (`[N, K]`):
    e.g. the 32 per-thread scales of a 64-row Q tile of
    `#sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>`, row
    `m` using group `(m / 16) * 8 + m % 8`.

    `mma`, set by `sage-select-mma`, names the instruction the tile is
    computed with: its formats and accumulator are the op's, and the tile
    is a whole number of instruction shapes.
    The products are summed in `accumulator`: `i32` (exact) for `i8` and
    `i4` operands, where the scales apply once to the integer sum; `f32`
    (an FP22 accumulator with 13 mantissa bits on hardware) or `f16` for FP8 operands;
    `f32` or `f16` for `f16` operands (P and V of `int8-fp16`, unit scales);
    `f32` for `f4E2M1FN`. The result is f32, or f16 with an f16 accumulator.
    Leading dimensions, if any, are batch dimensions shared by all operands.

    Example:

    ```mlir
    %s = sage.qmma %qv scaled %qs, %kv scaled %ks, %acc {accumulator = i32}
      : tensor<128x128xi8>, tensor<128x1xf32>, tensor<64x128xi8>,
        tensor<64x1xf32> -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins Sage_QuantTensor:$a, Sage_ScaleTensor:$a_scales,
                       Sage_QuantTensor:$b, Sage_ScaleTensor:$b_scales,
                       RankedTensorOf<[F32, F16]>:$acc,
                       TypeAttr:$accumulator,
                       OptionalAttr<Sage_QuantAttr>:$a_quant,
                       OptionalAttr<Sage_QuantAttr>:$b_quant,
                       OptionalAttr<Sage_MmaAttr>:$mma);
  let results = (outs RankedTensorOf<[F32, F16]>:$result);
  let assemblyFormat = [{
    $a `scaled` $a_scales `,` $b `scaled` $b_scales `,` $acc attr-dict `:`
    type($a) `,` type($a_scales) `,` type($b) `,` type($b_scales) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Sage_WarpMmaOp : Sage_Op<"warp_mma",
    [Pure, AllTypesMatch<["acc", "result"]>, AttrSizedOperandSegments]> {
  let summary = "one mma.sync of a warp, on the fragments of one lane";
  let description = [{
    The distributed form of a `sage.qmma` (docs/Levels.md, L4): one
    instruction of a warp-scope row of sage's MMA table (docs/Mma.md),
    named by `mma`, on what the lane holds of it. For an `m` x `n` x `k`
    row, `a` is the lane's `m * k / 32` elements of A, `b` its
    `n * k / 32` elements of B (`[N, K]`, the col layout) and `acc` its
    `m * n / 32` accumulators, in the order of the instruction's registers:
    element `i` of a fragment of `w`-bit elements sits in register
    `i / (32 / w)`, lowest bits first. Which rows and columns a lane holds
    is the instruction's (PTX ISA, "Matrix fragments for mma.m16n8k*").

    `result = acc + a * b`, exactly as the instruction computes it (an
    exact i32 sum, or the FP8 instruction's own accumulator precision).
    Row-wise scales do not apply here: the distribution of `sage.qmma`
    multiplies the sum by them. A block-scaled row (NVFP4) takes the
    lane's scale registers, `a_scales` and `b_scales` (four packed UE4M3
    scales each), and applies them itself; `scale_selectors` are the
    instruction's byte and thread selectors `[a byte, a thread, b byte,
    b thread]`, passed through unchanged (PTX ISA, "mma.sync with block
    scaling"). `convert-sage-to-nvvm` turns the op into that one
    instruction.

    Example:

    ```mlir
    %d = sage.warp_mma %a, %b, %c {mma = #sage.mma<scope = warp, m = 16,
        n = 8, k = 32, a = i8, a_source = registers, b = i8,
        b_source = registers, acc = i32, scales = none>}
      : vector<16xi8>, vector<8xi8> -> vector<4xi32>
    %e = sage.warp_mma %a4, %b4, %f scales(%sa, %sb) {mma = #nvfp4}
      : vector<32xf4E2M1FN>, vector<16xf4E2M1FN> -> vector<4xf32>
    ```
  }];
  let arguments = (ins VectorOfRank<[1]>:$a, VectorOfRank<[1]>:$b,
                       VectorOfRank<[1]>:$acc, Optional<I32>:$a_scales,
                       Optional<I32>:$b_scales, Sage_MmaAttr:$mma,
                       OptionalAttr<DenseI32ArrayAttr>:$scale_selectors);
  let results = (outs VectorOfRank<[1]>:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`scales` `(` $a_scales^ `,` $b_scales `)`)?
    attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

/// A warpgroup's wgmmas in flight (WgmmaQueueResource, SageOps.h).
def Sage_WgmmaQueue : Resource<"::mlir::sage::WgmmaQueueResource">;

def Sage_WarpgroupMmaOp : Sage_Op<"warpgroup_mma",
    [OptionalTypesMatchWith<"acc has the result's type", "result", "acc",
                            "$_self">,
     MemoryEffects<[MemRead, MemWrite<Sage_WgmmaQueue>]>]> {
  let summary = "one wgmma of a warpgroup, on its operands' descriptors and "
                "one thread's registers";
  let description = [{
    The distributed form of a `sage.qmma` on Hopper (docs/Levels.md, L4):
    one `wgmma.mma_async` of a warpgroup-scope row of sage's MMA table
    (docs/Mma.md), named by `mma`, issued by the 128 threads of a
    warpgroup together. B, `[N, K]` K-major, is read from shared memory
    through its 64-bit matrix descriptor `b`. A is read either from shared
    memory through its descriptor (`a : i64`, a row with
    `a_source = shared`) or from the thread's registers (a row with
    `a_source = registers`: its `m * k / 128` elements, 4-byte registers
    lowest bits first). `acc` holds the thread's `m * n / 128`
    accumulators in the instruction's register order (PTX ISA, "Matrix
    fragments for wgmma.mma_async"; f16 accumulators two to a register).

    `result = acc + a * b`, as the instruction computes it, or
    `result = a * b` without `acc` (the instruction's scale-d false): the
    first wgmma of a chain starts that way, so no instruction writes
    accumulator registers between the `wgmma.fence` and the wgmma that
    reads them, which the PTX ISA leaves undefined. The op is asynchronous
    like the instruction: the shared memory it reads must be published to
    the async proxy and its register operands passed through
    `sage.warpgroup_fence` before it, and its result is read through the
    `sage.warpgroup_wait` on the token of its `sage.warpgroup_commit`. It
    reads memory and writes the warpgroup's wgmma queue (as do the fence,
    the commit and the wait), so no pass moves it across those, merges or
    drops it, while it writes no memory. `convert-sage-to-nvvm`
    turns it into that one instruction: `nvvm.wgmma.mma_async` for A from
    shared memory, one `wgmma.mma_async` in `llvm.inline_asm` for A from
    registers, which MLIR 22's op does not take.

    Example:

    ```mlir
    %d0 = sage.warpgroup_mma %descA, %descB {mma = #sage.mma<
        scope = warpgroup, m = 64, n = 128, k = 32, a = i8,
        a_source = shared, b = i8, b_source = shared, acc = i32,
        scales = none>} : i64 -> vector<64xi32>
    %d1 = sage.warpgroup_mma %descA1, %descB1, %d0 {mma = ...}
        : i64 -> vector<64xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[I64, VectorOfRank<[1]>]>:$a, I64:$b,
                       Optional<VectorOfRank<[1]>>:$acc, Sage_MmaAttr:$mma);
  let results = (outs VectorOfRank<[1]>:$result);
  let assemblyFormat = [{
    $a `,` $b (`,` $acc^)? attr-dict `:` type($a) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Sage_Tcgen05MmaOp : Sage_Op<"tcgen05_mma", [AttrSizedOperandSegments]> {
  let summary = "one tcgen05.mma, issued by one thread for the CTA";
  let description = [{
    The distributed form of a `sage.qmma` on Blackwell datacenter chips
    (sm_100a; docs/Levels.md, L4): one `tcgen05.mma` of a tcgen05-scope row
    of sage's MMA table (docs/Mma.md), named by `mma`. One thread issues it
    for the CTA. D, `[M, N]`, lives in tensor memory at the address
    `accumulator` (i32: lane in the upper 16 bits, column in the lower);
    B, `[N, K]` K-major, is read from shared memory through its 64-bit
    matrix descriptor `b`; A, `[M, K]` K-major, through its descriptor
    (`a : i64`, a row with `a_source = shared`) or from tensor memory at
    the address `a` (`a : i32`, `a_source = tensor_memory`). A
    block-scaled row reads the scale vectors of A and B from tensor memory
    at `a_scales` and `b_scales`.

    `D = A * B + D` where `accumulate` is true, `D = A * B` where it is
    false. Both operands are K-major and the row fixes every format and
    `M` x `N`, so the lowering builds the instruction descriptor itself.
    The op is asynchronous like the instruction: it completes when a later
    `tcgen05.commit` arrives on its mbarrier, so it is not `Pure` and no
    pass moves it. `convert-sage-to-nvvm` turns it into that one
    instruction (`nvvm.tcgen05.mma`, or `nvvm.tcgen05.mma.block_scale`).

    Example:

    ```mlir
    sage.tcgen05_mma %tmemD, %descQ, %descK, %false {mma = #sage.mma<
        scope = tcgen05, m = 128, n = 64, k = 32, a = i8, a_source = shared,
        b = i8, b_source = shared, acc = i32, scales = none>} : i64
    ```
  }];
  let arguments = (ins I32:$accumulator, AnyTypeOf<[I32, I64]>:$a, I64:$b,
                       I1:$accumulate, Optional<I32>:$a_scales,
                       Optional<I32>:$b_scales, Sage_MmaAttr:$mma);
  let assemblyFormat = [{
    $accumulator `,` $a `,` $b `,` $accumulate
    (`scales` `(` $a_scales^ `,` $b_scales `)`)? attr-dict `:` type($a)
  }];
  let hasVerifier = 1;
}

def Sage_MatrixDescriptorOp : Sage_Op<"matrix_descriptor", [Pure]> {
  let summary = "the 64-bit shared-memory descriptor of an MMA operand tile";
  let description = [{
    The descriptor through which the MMA `mma` names, a wgmma (sm_90a) or a
    tcgen05.mma (sm_100a), reads a K-major operand tile at the
    shared-memory byte `address` (docs/Levels.md, L4): core matrices of 8
    rows x 16 bytes without swizzle, `leading` bytes apart along K and
    `stride` bytes apart from one 8-row group to the next
    (docs/Layouts.md). Both encodings put `address / 16`, `leading / 16`
    and `stride / 16` (14 bits each) at bits 0, 16 and 32; tcgen05's also
    sets its fixed version bit 46. Swizzle mode, base offset and the
    leading-offset mode are 0 (PTX ISA, "Matrix Descriptor" of wgmma and
    "Shared Memory Descriptor" of tcgen05).

    Example:

    ```mlir
    %desc = sage.matrix_descriptor %address {leading = 128 : i64,
        mma = #sage.mma<scope = warpgroup, ...>, stride = 256 : i64}
    ```
  }];
  let arguments = (ins I64:$address, Sage_MmaAttr:$mma, I64Attr:$leading,
                       I64Attr:$stride);
  let results = (outs I64:$descriptor);
  let assemblyFormat = "$address attr-dict";
  let hasVerifier = 1;
}

/// An !llvm.ptr to shared memory (address space 3).
def Sage_SharedPointer : LLVM_PointerInAddressSpace<3>;

def Sage_StageRingOp : Sage_Op<"stage_ring", [Pure]> {
  let summary = "the mbarriers of a ring of shared-memory stages";
  let description = [{
    Names the mbarriers of a ring of stages (`!sage.stage_ring`,
    docs/Levels.md, L4): 8 bytes each at the shared-memory byte `offset`
    (a multiple of 8) of `base`, first the "full" barrier of every stage,
    then, with consumers, their "empty" barriers. The ops on the ring take
    a block index and find its stage and phase: `sage.stage_ring_init`,
    `sage.stage_ring_arm` (the copier, before the block's copies),
    `sage.stage_ring_wait` (the readers), `sage.stage_ring_release` (the
    readers, done) and `sage.stage_ring_acquire` (the copier, before it
    overwrites a stage). Those ops take the ring this op defines, not one
    passed through a loop or a region's arguments: they lower to the
    barriers' addresses, which they find here.

    Example: two stages, released by 128 threads.

    ```mlir
    %ring = sage.stage_ring %staging[%c20480_i32] : !sage.stage_ring<stages = 2, consumers = 128>
    ```
  }];
  let arguments = (ins Sage_SharedPointer:$base, I32:$offset);
  let results = (outs Sage_StageRingType:$ring);
  let assemblyFormat = "$base `[` $offset `]` attr-dict `:` qualified(type($ring))";
  let hasVerifier = 1;
}

class Sage_StageRingBlockOp<string mnemonic, list<Trait> traits = []>
    : Sage_Op<mnemonic, traits> {
  let arguments = (ins Sage_StageRingType:$ring, I32:$block);
  let assemblyFormat = "$ring `[` $block `]` attr-dict `:` qualified(type($ring))";
  let hasVerifier = 1;
}

def Sage_StageRingInitOp : Sage_Op<"stage_ring_init"> {
  let summary = "initializes a stage ring's mbarriers";
  let description = [{
    `mbarrier.init` of each stage's "full" barrier for one arrival (the
    copier's, with the bytes it expects) and of each "empty" barrier for
    the ring's consumers (docs/Levels.md, L4). One thread initializes; a
    `fence.mbarrier_init` and a CTA barrier must follow before any other
    op on the ring.
  }];
  let arguments = (ins Sage_StageRingType:$ring);
  let assemblyFormat = "$ring attr-dict `:` qualified(type($ring))";
  let hasVerifier = 1;
}

def Sage_StageRingArmOp : Sage_Op<"stage_ring_arm"> {
  let summary = "arms the full barrier of a block's stage with its bytes";
  let description = [{
    The copier's arrival on the "full" barrier of `block`'s stage,
    expecting `bytes` bytes of asynchronous copies
    (`mbarrier.arrive.expect_tx`, docs/Levels.md, L4). Returns the
    barrier's address, which the block's bulk copies complete.
  }];
  let arguments = (ins Sage_StageRingType:$ring, I32:$block,
                       ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let results = (outs Sage_SharedPointer:$barrier);
  let assemblyFormat = [{
    $ring `[` $block `]` `,` $bytes attr-dict `:` qualified(type($ring))
  }];
  let hasVerifier = 1;
}

def Sage_StageRingWaitOp : Sage_StageRingBlockOp<"stage_ring_wait"> {
  let summary = "waits until a block has arrived in its stage";
  let description = [{
    Waits on the "full" barrier of `block`'s stage for its phase `block /
    stages` (`mbarrier.try_wait.parity`, docs/Levels.md, L4): the block's
    bytes are then in shared memory, visible to this thread and to the
    async proxy (wgmma).
  }];
}

def Sage_StageRingReleaseOp : Sage_StageRingBlockOp<"stage_ring_release"> {
  let summary = "releases a block's stage";
  let description = [{
    This thread's arrival on the "empty" barrier of `block`'s stage
    (`mbarrier.arrive`, docs/Levels.md, L4): it has read the block. The
    ring must have consumers.
  }];
  let hasVerifier = 1;
}

def Sage_StageRingAcquireOp : Sage_StageRingBlockOp<"stage_ring_acquire"> {
  let summary = "waits until a block's stage is free";
  let description = [{
    The copier's wait before it copies `block` into its stage: for `block`
    >= `stages`, until every consumer released block `block - stages`
    there (the "empty" barrier's phase `block / stages - 1`,
    docs/Levels.md, L4); the first `stages` blocks find their stages free.
    The ring must have consumers.
  }];
}

def Sage_WarpgroupFenceOp : Sage_Op<"warpgroup_fence",
    [RangedTypesMatchWith<"the results have the fragments' types",
                          "fragments", "results", "$_self">,
     MemoryEffects<[MemWrite<Sage_WgmmaQueue>]>]> {
  let summary = "orders a thread's register writes before the wgmmas that "
                "read them";
  let description = [{
    The `wgmma.fence` a warpgroup issues before its wgmmas read registers
    that other instructions wrote (docs/Levels.md, L4). `fragments` are
    those registers (A fragments, accumulators carried in); the wgmmas read
    `results`, the same values, which are defined before the fence: no
    pass or backend can then compute them after it, which the PTX ISA
    leaves undefined. Each fragment is whole 32-bit registers of integer
    or float elements.

    Example:

    ```mlir
    %p = sage.warpgroup_fence(%probs : vector<16xf8E4M3FN>)
    %o = sage.warpgroup_mma %p, %descV {mma = ...}
        : vector<16xf8E4M3FN> -> vector<32xf32>
    ```
  }];
  let arguments = (ins Variadic<VectorOfRank<[1]>>:$fragments);
  let results = (outs Variadic<VectorOfRank<[1]>>:$results);
  // Parenthesized, so that the op without fragments is not read as taking
  // the next op's result name.
  let assemblyFormat = [{
    (`(` $fragments^ `:` type($fragments) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Sage_WarpgroupCommitOp : Sage_Op<"warpgroup_commit",
    [MemoryEffects<[MemWrite<Sage_WgmmaQueue>]>]> {
  let summary = "commits a warpgroup's issued wgmmas as one group";
  let description = [{
    Commits every wgmma the warpgroup issued since its last commit as one
    group (`wgmma.commit_group`, docs/Levels.md, L4) and returns the
    group's token, which the `sage.warpgroup_wait` that makes their results
    readable takes, and nothing else (the token lowers to nothing, so it
    does not cross loops or region boundaries). `accumulators` are the results of the group's wgmmas
    that are read later (the last of each chain), so the commit comes after
    them and the wait can name them.

    Example:

    ```mlir
    %s1 = sage.warpgroup_mma %q1, %k1, %s0 {mma = ...} : i64 -> vector<32xi32>
    %g = sage.warpgroup_commit(%s1 : vector<32xi32>)
    %s = sage.warpgroup_wait 0 on %g, %s1 : vector<32xi32>
    ```
  }];
  let arguments = (ins Variadic<VectorOfRank<[1]>>:$accumulators);
  let results = (outs Sage_WgmmaGroupType:$group);
  let assemblyFormat = [{
    (`(` $accumulators^ `:` type($accumulators) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Sage_WarpgroupWaitOp : Sage_Op<"warpgroup_wait",
    [RangedTypesMatchWith<"the results have the fragments' types",
                          "fragments", "results", "$_self">,
     MemoryEffects<[MemWrite<Sage_WgmmaQueue>]>]> {
  let summary = "waits for a warpgroup's wgmma group; its results are read "
                "after it";
  let description = [{
    Waits until at most `pending` (0 to 7) of the warpgroup's committed
    wgmma groups are still running (`wgmma.wait_group`, docs/Levels.md,
    L4), which must include `group`: groups complete in commit order, so
    `pending` counts the groups committed after it that may still run (in
    one block the verifier counts them). `fragments` are results of the
    wgmmas of `group` or of an earlier group (ones their commits name), or
    registers they read (A fragments, which must not change before they
    complete); `results` are the same values, defined from the wait on:
    readers of `results` cannot be moved before it, where the registers do
    not yet hold them, and the registers passed in stay allocated and
    untouched until it. Each fragment is whole 32-bit registers of integer
    or float elements.

    Example:

    ```mlir
    %g = sage.warpgroup_commit(%s0 : vector<32xi32>)
    %s = sage.warpgroup_wait 0 on %g, %s0 : vector<32xi32>
    // The P V chain's accumulator and the P registers it reads.
    %h = sage.warpgroup_commit(%r0 : vector<32xf32>)
    %r:3 = sage.warpgroup_wait 0 on %h, %r0, %p#0, %p#1
        : vector<32xf32>, vector<16xf8E4M3FN>, vector<16xf8E4M3FN>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>,
                                               IntMaxValue<7>]>:$pending,
                       Sage_WgmmaGroupType:$group,
                       Variadic<VectorOfRank<[1]>>:$fragments);
  let results = (outs Variadic<VectorOfRank<[1]>>:$results);
  let assemblyFormat = [{
    $pending `on` $group (`,` $fragments^ `:` type($fragments))? attr-dict
  }];
  let hasVerifier = 1;
}

def Sage_WarpSpecializeOp : Sage_Op<"warp_specialize",
    [NoTerminator, RecursiveMemoryEffects]> {
  let summary = "one region per warp role, each on its own warps with its "
                "own register budget";
  let description = [{
    Splits a kernel's CTA into roles (docs/Levels.md, L4): role `i` runs
    region `i` on `warps[i]` consecutive warps, after the roles before it,
    with `registers[i]` registers a thread. A region's one block argument
    is the thread's index within its role. The roles talk through
    mbarriers in shared memory (a producer arms a stage's "full" barrier
    and copies into it; its consumers release it on an "empty" barrier),
    made before the op and waited on inside it.

    Register budgets are set per warpgroup (`setmaxnreg`), so each role
    has whole warpgroups; a budget is a multiple of 8 in [24, 256]. The
    budgets decide how many CTAs share an SM (65536 registers over the
    CTA's), and so how many registers a thread starts with (65536 / (CTAs x
    threads), a multiple of 8). `setmaxnreg` only moves registers between
    the warpgroups of a CTA, so the budgets must fit what its threads start
    with, or a `setmaxnreg.inc` waits forever; the verifier checks it. The
    roles' warps make the whole CTA: the enclosing `gpu.func`'s known block
    size, when it has one, is their threads. `convert-sage-to-nvvm` lowers
    the op to one branch per role on the thread index, `setmaxnreg.inc` or
    `.dec` from the starting count to the role's budget, and sets the
    kernel's `nvvm.minctasm` to the CTAs an SM holds, which ptxas needs,
    with `nvvm.maxntid`, to honour `setmaxnreg`.

    Example: a producer warpgroup and two consumer warpgroups.

    ```mlir
    sage.warp_specialize warps = [4, 8] registers = [40, 232] {
    ^bb0(%producerThread: i32):
      ...   // arm the stage barriers, issue the bulk copies
    }, {
    ^bb0(%consumerThread: i32):
      ...   // wait, wgmma, softmax, release the stage
    }
    ```
  }];
  let arguments = (ins DenseI32ArrayAttr:$warps, DenseI32ArrayAttr:$registers);
  let regions = (region VariadicRegion<SizedRegion<1>>:$roles);
  let assemblyFormat = [{
    `warps` `=` $warps `registers` `=` $registers $roles attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The CTA's threads: all roles' warps.
    int64_t getThreadCount();
    /// The registers the roles' budgets take: sum of warps * 32 * budget.
    int64_t getRegisterCount();
    /// The CTAs an SM holds with those budgets (nvvm.minctasm).
    int64_t getCtasPerSm();
    /// The registers a thread starts with, `threads` threads a CTA and
    /// `ctas` CTAs an SM: its share of the 65536 in the multiples of 8
    /// they are allocated in, at most 256. setmaxnreg only moves registers
    /// between a CTA's warpgroups: the budgets must fit `threads` times it.
    static int64_t getEntryRegisters(int64_t threads, int64_t ctas);
    /// The largest budget a role of `roleThreads` threads can take when the
    /// other roles take `otherRegisters` (their warps * 32 * budget), in a
    /// CTA of `threads` threads, `ctas` CTAs an SM: what is left of the
    /// CTA's entry registers, in multiples of 8, at most 256.
    static int64_t getLargestBudget(int64_t threads, int64_t ctas,
                                    int64_t roleThreads,
                                    int64_t otherRegisters);
  }];
}

def Sage_FromLanesOp : Sage_Op<"from_lanes", [NoMemoryEffect]> {
  let summary = "the tile a CTA's lanes hold together, as one value";
  let description = [{
    The distribute level's way back from fragments to a tile
    (docs/Levels.md, distribute): each lane contributes `fragment`, its
    elements of the tile as the fragment encoding `layout` places them
    (`#sage.acc_fragment`, `#sage.row_fragment`, `#sage.replicated`), and
    every lane sees the whole `[rows, columns]` tile. It is collective: all
    the CTA's lanes take part, so it is not speculatable. Its one use
    today is the grid's output, where the stores of the tile become each
    lane's stores of its elements once the grid is bufferized.

    Example:

    ```mlir
    %tile = sage.from_lanes %o {layout = #sage.acc_fragment<mma = #pv, warps = 4>}
      : vector<32xf16> -> tensor<64x64xf16>
    ```
  }];
  let arguments = (ins VectorOfRank<[1]>:$fragment,
                       Sage_FragmentEncodingAttrInterface:$layout);
  let results = (outs AnyRankedTensor:$tile);
  let assemblyFormat = [{
    $fragment attr-dict `:` type($fragment) `->` type($tile)
  }];
  let hasVerifier = 1;
}

def Sage_TileOrBuffer : AnyTypeOf<[AnyRankedTensor, AnyMemRef]>;

def Sage_StageTileOp : Sage_Op<"stage_tile", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let summary = "copy an operand's window into a tile the whole CTA reads";
  let description = [{
    The promote level (docs/Levels.md, L3): `dest[i] = source[m(i)]` where
    `m(i)` lies inside `source`, `padding` elsewhere; `m` is
    `indexing_map`, the identity without it. `source` is a window of an
    operand (the last block's may be short) and `dest` a static tile. A map
    stages the window rearranged: V^T with its keys in the order P's
    accumulator holds them (docs/Layouts.md), so that a lane reads each MMA
    register as one word.

    It is collective: every thread of the CTA executes it, and each sees
    the whole tile afterwards. On tensors it is a copy into `dest`, which
    `sage-promote-tiles` allocates in workgroup memory
    (`bufferization.alloc_tensor` with `memory_space =
    #gpu.address_space<workgroup>`); on buffers `dest` must be there, and
    `sage-lower-staging` splits the copy among the CTA's threads as
    asynchronous copies, waits for them and synchronizes the CTA.

    Example:

    ```mlir
    %buffer = bufferization.alloc_tensor()
        {memory_space = #gpu.address_space<workgroup>} : tensor<64x64xi8>
    %k = sage.stage_tile %window pad(%c0_i8 : i8) into %buffer
        : tensor<?x64xi8> into tensor<64x64xi8> -> tensor<64x64xi8>
    %vt = sage.stage_tile %v_window pad(%zero : f8E4M3FN) into %vt_buffer
        {indexing_map = affine_map<(d, p) -> (p floordiv 32 * 32 + ..., d)>}
        : tensor<?x64xf8E4M3FN> into tensor<64x64xf8E4M3FN>
        -> tensor<64x64xf8E4M3FN>
    ```
  }];
  let arguments = (ins Sage_TileOrBuffer:$source,
                       Optional<AnyType>:$padding,
                       Sage_TileOrBuffer:$dest,
                       OptionalAttr<AffineMapAttr>:$indexing_map);
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $source (`pad` `(` $padding^ `:` type($padding) `)`)? `into` $dest
    attr-dict `:` type($source) `into` type($dest) (`->` type($result)^)?
  }];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDestMutable();
    }
    /// Whether the tile is the window itself, padded (no indexing_map, or
    /// the identity).
    bool isPlainCopy() {
      return !getIndexingMap() || getIndexingMap()->isIdentity();
    }
  }];
  let hasVerifier = 1;
}

def Sage_StageAsyncOp : Sage_Op<"stage_async",
    [NoTerminator, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "stages a group of tiles asynchronously";
  let description = [{
    Issues the stagings of its region as one group (docs/Levels.md, L3):
    `sage.stage_tile` copies into workgroup tiles, and linalg products
    into workgroup tiles that read no workgroup memory (dS), with the pure
    ops computing their windows. Collective like `sage.stage_tile`, but
    the tiles are complete, and visible to every thread of the CTA, only
    after the `sage.stage_await` of the returned group; until then nothing
    may read them, and the work between the two overlaps the copies.
    `sage-pipeline-tiles` issues a loop's block j + 1 this way while block
    j computes; `sage-lower-staging` makes the group one cp.async commit
    group, and the await its wait and a CTA barrier.

    Example:

    ```mlir
    %group = sage.stage_async {
      sage.stage_tile %k_window pad(%c0_i8 : i8) into %k_next
          : memref<?x64xi8, strided<[64, 1], offset: ?>>
          into memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    }
    ... // block j, reading the other stage
    sage.stage_await %group
    ```
  }];
  let results = (outs Sage_StageGroupType:$group);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$body attr-dict";
  let hasVerifier = 1;
}

def Sage_StageAwaitOp : Sage_Op<"stage_await"> {
  let summary = "completes a group of asynchronous stagings";
  let description = [{
    Collective: once every thread of the CTA has reached it, the tiles of
    `group` (a `sage.stage_async` earlier in the same block) are complete
    and every thread reads them. It also orders the CTA's earlier reads of
    workgroup memory before every later write (a CTA barrier).

    Example:

    ```mlir
    sage.stage_await %group
    ```
  }];
  let arguments = (ins Sage_StageGroupType:$group);
  let assemblyFormat = "$group attr-dict";
  let hasVerifier = 1;
}

def Sage_WarpLoadMatricesOp : Sage_Op<"warp_load_matrices", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let summary = "a warp's MMA registers of up to four 8-row matrices of a tile";
  let description = [{
    The fragment level (docs/Levels.md, distribute): a warp reads its MMA
    operand registers of a CTA-wide tile. Matrix `q` is the 8 rows of
    `tile` from row `row + row_offsets[q]`, 16 bytes of each from column
    `column + column_offsets[q]`. Lane `(g, t) = (lane / 4, lane % 4)`
    receives, as elements `[q e, (q + 1) e)` of the result, the
    `e = 32 / bitwidth` elements of matrix `q`'s row `g` from its position
    `e t`: one register of an `m16n8k*` A or B fragment (PTX ISA, "Matrix
    fragments for mma.m16n8k*"; docs/Layouts.md). `row` and `column` are the
    same in every lane of the warp, and every lane of the warp executes the
    op.

    On a buffer in workgroup memory whose matrix rows provably start on
    16-byte boundaries, `sage-lower-staging` makes it one `ldmatrix`
    of `x1`, `x2` or `x4` matrices; elsewhere each lane reads its words
    (`vector.transfer_read`).

    Example (a lane's B registers of one n-tile over K = 64 of an int8 tile,
    for two m16n8k32 MMAs):

    ```mlir
    %b = sage.warp_load_matrices %k[%c8, %c0]
        rows [0, 0, 0, 0] columns [0, 16, 32, 48]
        : tensor<64x64xi8> -> vector<16xi8>
    ```
  }];
  let arguments = (ins Sage_TileOrBuffer:$tile, Index:$row, Index:$column,
                       DenseI64ArrayAttr:$row_offsets,
                       DenseI64ArrayAttr:$column_offsets);
  let results = (outs VectorOfRankAndType<[1], [AnyInteger, AnyFloat]>:$result);
  let assemblyFormat = [{
    $tile `[` $row `,` $column `]` `rows` $row_offsets `columns`
    $column_offsets attr-dict `:` type($tile) `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// The elements of one lane's word of a matrix row.
    int64_t getElementsPerWord() {
      return 32 / getResult().getType().getElementTypeBitWidth();
    }
  }];
  let hasVerifier = 1;
}

def Sage_TileDescriptorOp : Sage_Op<"tile_descriptor", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ConditionallySpeculatable>,
    DeclareOpInterfaceMethods<BufferizableOpInterface,
        ["bufferizesToMemoryRead", "bufferizesToMemoryWrite",
         "getAliasingValues", "bufferize"]>]> {
  let summary = "the shared-memory descriptor of an operand's rows in a tile "
                "of core matrices";
  let description = [{
    The fragment level (docs/Levels.md, distribute) for MMAs that read an
    operand from shared memory (wgmma, tcgen05): the 64-bit descriptor
    through which `mma` reads the `[rows, k]` operand that starts at row
    `row`, element `column` of a `[R, K]` operand held in `tile` as
    K-major core matrices without swizzle (docs/Layouts.md): `tile` is
    `[K / c, R, c]`, `c` elements making 16 bytes, and operand element
    `(r, x)` is `tile[x / c, r, x % c]`, so that a core matrix (8 rows of
    16 bytes) is 128 contiguous bytes. `column` must be a multiple of `c`.
    Every thread of the warpgroup computes the same descriptor.

    On a tensor it names a tile the CTA shares, which `sage-promote-tiles`
    stages in workgroup memory; on a buffer there (static strides, rows
    of 16 bytes) `convert-sage-to-nvvm` makes it the descriptor of the
    address of element `(row, column)`, with the leading byte offset one
    16-byte column (`R * 16`) and the stride byte offset 8 rows (128),
    as `sage.matrix_descriptor`.

    Example (the second k32 chunk of an int8 K tile of 64 rows):

    ```mlir
    %d = sage.tile_descriptor %k[%c0, %c32] {mma = #sage.mma<scope = warpgroup,
        m = 64, n = 64, k = 32, a = i8, a_source = shared, b = i8,
        b_source = shared, acc = i32, scales = none>}
        : tensor<4x64x16xi8> -> i64
    ```
  }];
  let arguments = (ins Sage_TileOrBuffer:$tile, Index:$row, Index:$column,
                       Sage_MmaAttr:$mma);
  let results = (outs I64:$descriptor);
  let assemblyFormat = [{
    $tile `[` $row `,` $column `]` attr-dict `:` type($tile) `->`
    type($descriptor)
  }];
  let extraClassDeclaration = [{
    /// The elements of a core matrix's 16-byte row.
    int64_t getElementsPerRow() {
      return 128 / cast<::mlir::ShapedType>(getTile().getType())
                       .getElementTypeBitWidth();
    }
    /// Where each element of a tile of core matrices comes from: the map
    /// from its position (c, r, x) in `[K / c, R, c]` (`elementsPerRow`
    /// = c) to operand element (r, c * elementsPerRow + x).
    static ::mlir::AffineMap getCoreMatrixMap(::mlir::MLIRContext *context,
                                              int64_t elementsPerRow);
  }];
  let hasVerifier = 1;
}

def Sage_MaskScoresOp : Sage_Op<"mask_scores",
    [Pure, AllTypesMatch<["scores", "result"]>,
     AllTypesMatch<["query_offset", "key_offset", "queries", "keys"]>]> {
  let summary = "set the scores of keys a query does not see to -inf";
  let description = [{
    For a `[rows, columns]` tile of scores whose first row is query
    `query_offset` and first column key `key_offset`, of `queries` queries
    and `keys` keys in all:

      `result[r, c] = -inf` if `key_offset + c >= keys` (a padded key), or,
      with `causal`, if `key_offset + c > query_offset + r + keys - queries`
      (bottom-right alignment, as `sage.attention`), or, with
      `causal_alignment = #sage.causal_alignment<top_left>`, if
      `key_offset + c > query_offset + r`; else `scores[r, c]`.

    Rows past `queries` (padding) are left as they are: their results are
    never stored. A later level can skip the tiles this op masks entirely
    and keep it only on the diagonal ones.

    On fragments (vectors, docs/Levels.md, L4), `scores` is the lane's part
    of one warp's accumulator tiles of the MMA `fragment` names, side by
    side along the keys: `query_offset` is the warp's first row and
    `key_offset` its first column. The lane is the thread's x id modulo 32;
    for m16n8 tiles, lane (g, t) = (lane / 4, lane % 4) holds rows g and
    g + 8 and columns 8j + 2t, 8j + 2t + 1 of tile j.

    Example:

    ```mlir
    %s1 = sage.mask_scores %s at [%q0, %k0] of [%nq, %nk] {causal}
      : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Sage_ScoresTileOrFragment:$scores,
                       Sage_Offset:$query_offset, Sage_Offset:$key_offset,
                       Sage_Offset:$queries, Sage_Offset:$keys,
                       UnitAttr:$causal,
                       OptionalAttr<Sage_CausalAlignmentAttr>:$causal_alignment,
                       OptionalAttr<Sage_MmaAttr>:$fragment);
  let results = (outs Sage_ScoresTileOrFragment:$result);
  let assemblyFormat = [{
    $scores `at` ` ` `[` $query_offset `,` $key_offset `]`
    `of` ` ` `[` $queries `,` $keys `]` attr-dict `:` type($scores)
    `` custom<OffsetType>(type($query_offset), type($key_offset), type($queries),
                       type($keys))
  }];
  let hasVerifier = 1;
}

def Sage_OnlineSoftmaxOp : Sage_Op<"online_softmax", [Pure,
    AllTypesMatch<["scores", "probs"]>,
    AllTypesMatch<["max", "new_max", "rescale"]>,
    AllTypesMatch<["sum", "new_sum"]>]> {
  let summary = "one step of the online softmax over a K/V block";
  let description = [{
    For the scores `S` of one K/V block and the running row max `m` and row
    sum `l` of the previous blocks:

      `m' = max(m, rowmax(S))`, `P~ = exp(S - m')`,
      `alpha = exp(m - m')`, `l' = alpha * l + rowsum(P~)`.

    `alpha` rescales the output buffer (`sage.accumulate`). A row whose
    scores are all `-inf` keeps `m' = -inf` and yields `P~ = 0` and
    `alpha = 1`, never NaN; a NaN score makes its row's `m'` NaN. With
    `base2`, the scores and maxima are in log2 units and every `exp` above
    is `2^x` (the hardware's `ex2`).

    Two optional folds let the lowering spend one `fma` and one `ex2` a
    score (docs/Levels.md, L4):
    * `score_scale`: `S = scores * score_scale`, one positive factor
      (`vector<1xf32>`) every score shares: on fragments the lane's, e.g.
      the scores' dequantization `delta_Q * delta_K * scale * log2 e`
      applied to raw integer products; on tiles the tile's (the softmax
      scale times log2 e, sage-tile-attention), which the distribute level
      gives every lane. A `-inf` score stays `-inf` (the factor must be
      positive: a zero factor would make it NaN).
    * `prob_scale`: `probs = prob_scale * P~`, already in the range P is
      quantized to (e.g. 448 for E4M3); `new_sum` still sums `P~`.

    On tiles, `scores` is `[..., rows, columns]` and the rest one value per
    row. On fragments (vectors, docs/Levels.md, L4), `fragment` names the
    MMA whose accumulator layout the scores have: `scores` is the lane's
    accumulators of whole MMA tiles, one after the other, and `max`, `sum`
    and the results hold the lane's `m / 8` rows. `max`, `new_max` and
    `rescale` are the row's values (equal in the four lanes sharing a row);
    `sum` and `new_sum` are the lane's part of the row sum, whose total is
    over those four lanes.

    `sum` has the type of `max`, except that tiles whose lanes hold the row
    sums in parts say so: `#sage.row_fragment<..., partial_sums = true>`
    (its type is then printed after `max`'s).

    Example:

    ```mlir
    %p, %m1, %l1, %alpha = sage.online_softmax %s, %m0, %l0
      : tensor<128x64xf32>, tensor<128xf32>
    %pf, %mf, %lf, %af = sage.online_softmax %sf, %mf0, %lf0 {base2,
        fragment = #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8,
          a_source = registers, b = i8, b_source = registers, acc = i32,
          scales = none>} : vector<32xf32>, vector<2xf32>
    ```
  }];
  let arguments = (ins Sage_F32TileOrFragment:$scores,
                       Sage_F32TileOrFragment:$max,
                       Sage_F32TileOrFragment:$sum,
                       Optional<VectorOfLengthAndType<[1], [F32]>>:$score_scale,
                       OptionalAttr<Sage_MmaAttr>:$fragment, UnitAttr:$base2,
                       OptionalAttr<F64Attr>:$prob_scale);
  let results = (outs Sage_F32TileOrFragment:$probs,
                      Sage_F32TileOrFragment:$new_max,
                      Sage_F32TileOrFragment:$new_sum,
                      Sage_F32TileOrFragment:$rescale);
  let assemblyFormat = [{
    $scores `,` $max `,` $sum (`scaled` $score_scale^ `:` type($score_scale))?
    attr-dict `:` type($scores) `,` type($max)
    `` custom<SumType>(type($sum), ref(type($max)))
  }];
  let hasVerifier = 1;
}

def Sage_AccumulateOp : Sage_Op<"accumulate",
    [Pure, AllTypesMatch<["buffer", "result"]>]> {
  let summary = "two-level accumulation of a partial P*V product";
  let description = [{
    `result = diag(rescale) * buffer + partial`, in f32: the second level of
    SageAttention2's two-level accumulation. `partial` is the MMA
    accumulator (`R_ij`, f32 or f16 as `scheme` says), `buffer` the FP32
    output buffer, `rescale` the per-row `exp(m_old - m_new)` of
    `sage.online_softmax`.

    On fragments (vectors, docs/Levels.md, L4), `fragment` names the MMA
    whose accumulator layout `partial` and `buffer` have, as for
    `sage.online_softmax`, and accumulates in the scheme's type; `rescale`
    holds the lane's `m / 8` rows. There one op is one flush: with
    `#sage.accum<f16, every = N>` the kernel sums N MMAs in `partial`, and
    a K/V block's later flushes pass a `rescale` of ones. Either way each
    element is one fma, rounded once.

    Example:

    ```mlir
    %o1 = sage.accumulate %r into %o0 rescale %alpha
        {scheme = #sage.accum<f32>} : tensor<128x128xf32>, tensor<128xf32> -> tensor<128x128xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[RankedTensorOf<[F32, F16]>,
                                  VectorOfRankAndType<[1], [F32, F16]>]>:$partial,
                       Sage_F32TileOrFragment:$buffer,
                       Sage_F32TileOrFragment:$rescale,
                       Sage_AccumAttr:$scheme,
                       OptionalAttr<Sage_MmaAttr>:$fragment);
  let results = (outs Sage_F32TileOrFragment:$result);
  let assemblyFormat = [{
    $partial `into` $buffer `rescale` $rescale attr-dict `:` type($partial)
    `,` type($rescale) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// QuantizedAttentionOp
//===----------------------------------------------------------------------===//

def Sage_QuantizedAttentionOp : Sage_Op<"quantized_attention",
    [Pure, AttrSizedOperandSegments]> {
  let summary = "the attention core on quantized Q, K and V";
  let description = [{
    What `sage-decompose-attention` leaves of `sage.attention` once the
    smoothing and quantization steps are explicit: the online-softmax loop
    over K/V blocks of `k_quant.block` tokens, for Q blocks of
    `q_quant.block` rows. Per (batch, head, Q block i, K/V block j):

    1. `S = sage.qmma(Q_hat_i, K_hat_j) * scale` (i32 accumulation, one
       `delta_Q` and one `delta_K` per thread with per_thread scales), plus
       `scale * qbar_i . (K_j - k_mean)` when `q_mean` is given (the
       Q-smoothing correction dS, from the unquantized `key`); masked
       columns (past `Nk`, or causal) are `-inf`; with a `mask`, its
       value is added (`-inf` where an `i1` mask is false).
    2. `P~, m, l, alpha = sage.online_softmax(S, m, l)`.
    3. `P_hat = sage.quantize(P~)` with `p_quant` (static scale 1 / P_r).
    4. `R = sage.qmma(P_hat, V_hat_j^T)` accumulated as `pv_accum` says;
       `O = sage.accumulate(R into O rescale alpha)`.

    At the end `O = O / l * delta_V / P_r (+ v_mean)`. With the
    `int8-fp16` recipe P and V are f16 with unit scales (`p_quant` is
    `#sage.quant<f16, per_tensor, range = 1.0>`, V is rounded to f16 with
    `bound` = its range), so both factors are 1.

    NVFP4 (docs/Algorithm.md section 5) microscales all four operands in
    blocks of 16 along the contractions (Q, K, P along features, V along
    tokens: `#sage.quant<f4E2M1FN, microscale, block = 16, scale =
    f8E4M3FN>`), whose blocks say nothing of the tiles: `block_q` and
    `block_k` give them. Step 1 sums the scaled products in f32; step 3
    is two-level: `s_row = rowmax(P~) / (448 * 6)` over the K/V block, P~
    / s_row microscaled; step 4 adds `R * s_row`; at the end the factor
    is 1.

    Operands are laid
    out `[batch, heads, tokens, features]`; query head `h` reads key/value
    head `h / (Hq / Hkv)`. `causal` and `causal_alignment` mean what they
    mean on `sage.attention`.

    With `v_layout` (`#sage.mma_ordered` along tokens), `v_values` is V
    as the P V MMA reads it, transposed and in that layout's MMA positions:
    `[batch, heads, features, groups, k]`, position `p` of key group `g`
    (at `v_values[.., d, g, p]`) holding key `g k + getIndexAt(p)`, zero
    past the last key; `groups` is `ceil(keys / k)`. Each channel is then
    a row of whole 16-byte pieces in the order the MMA consumes them, so
    a kernel stages V's blocks by plain copies (docs/Layouts.md).

    The optional `mask` is `[batch | 1, heads | 1, queries, keys]`: `i1`
    (true = keep) or additive float in the units of `scale * q . k`, its
    unit batch or heads dimension broadcast.

    The optional `lse` result is `log(sum_j exp(scale * q_i . k_j +
    mask_ij))` of the unsmoothed scores, `[batch, heads, queries]` (-inf for a row that sees
    no key). The loop's scores are shifted per row by smoothing (K's mean
    leaves `-(q_i - qbar_i) . k_mean` in each, qbar_i . k_mean being
    dropped with the dS term), so with `k_smooth` the LSE adds back
    `scale * (q_i - qbar_i) . k_mean`, which needs the unquantized query:
    `lse_query`.

    Example:

    ```mlir
    %o = sage.quantized_attention q(%qv, %qs) k(%kv, %ks) v(%vv, %vs)
        q_smooth(%qbar, %k) k_smooth(%kbar) {
          q_quant = #sage.quant<i8, per_thread, operand = a, block = 64, warp = 16>,
          k_quant = #sage.quant<i8, per_thread, operand = b, block = 64>,
          p_quant = #sage.quant<f8E4M3FN, per_tensor>,
          v_quant = #sage.quant<f8E4M3FN, per_channel>,
          pv_accum = #sage.accum<f32>, scale = 0.125 : f64}
      : (...) -> tensor<2x8x?x64xf16>
    ```
  }];
  let arguments = (ins
    RankedTensorOf<[I8, I<4>, F4E2M1FN]>:$q_values, Sage_ScaleTensor:$q_scales,
    RankedTensorOf<[I8, I<4>, F4E2M1FN]>:$k_values, Sage_ScaleTensor:$k_scales,
    RankedTensorOf<[F8E4M3FN, F16, F4E2M1FN]>:$v_values,
    Sage_ScaleTensor:$v_scales,
    Optional<Sage_F32Tensor>:$q_mean, Optional<Sage_FloatTensor>:$key,
    Optional<Sage_F32Tensor>:$k_mean, Optional<Sage_F32Tensor>:$v_mean,
    Optional<Sage_FloatTensor>:$query,
    Optional<RankedTensorOf<[I1, F16, BF16, F32]>>:$mask,
    Sage_QuantAttr:$q_quant, Sage_QuantAttr:$k_quant,
    Sage_QuantAttr:$p_quant, Sage_QuantAttr:$v_quant,
    Sage_AccumAttr:$pv_accum, F64Attr:$scale, UnitAttr:$causal,
    OptionalAttr<Sage_CausalAlignmentAttr>:$causal_alignment,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block_q,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$block_k,
    OptionalAttr<Sage_MmaOrderedAttr>:$v_layout);
  let results = (outs Sage_FloatTensor:$result,
                     Optional<Sage_F32Tensor>:$lse);
  let assemblyFormat = [{
    `q` `(` $q_values `,` $q_scales `)` `k` `(` $k_values `,` $k_scales `)`
    `v` `(` $v_values `,` $v_scales `)`
    (`q_smooth` `(` $q_mean^ `,` $key `)`)?
    (`k_smooth` `(` $k_mean^ `)`)?
    (`v_smooth` `(` $v_mean^ `)`)?
    (`lse_query` `(` $query^ `)`)?
    (`mask` `(` $mask^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// V's feature dimension (dimension 2 of a `v_layout`-stored V).
    int64_t getValueDim() {
      return getVValues().getType().getDimSize(getVLayout() ? 2 : 3);
    }
  }];
  let hasVerifier = 1;
}

#endif // SAGE_DIALECT_SAGE_IR_SAGEOPS_TD
