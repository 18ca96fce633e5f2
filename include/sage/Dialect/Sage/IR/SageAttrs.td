//===- SageAttrs.td - sage attributes ----------------------*- tablegen -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEATTRS_TD
#define SAGE_DIALECT_SAGE_IR_SAGEATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "sage/Dialect/Sage/IR/SageBase.td"
include "sage/Dialect/Sage/IR/SageEnums.td"
include "mlir/IR/TensorEncoding.td"
include "sage/Dialect/Sage/IR/SageInterfaces.td"

class Sage_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Sage_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// CausalAlignmentAttr
//===----------------------------------------------------------------------===//

def Sage_CausalAlignmentAttr : EnumAttr<Sage_Dialect, Sage_CausalAlignment,
                                        "causal_alignment"> {
  let summary = "where a causal mask's diagonal starts";
  let description = [{
    With `Nq` queries and `Nk` keys, query `i` sees key `j` iff
    `j <= i + shift`: `bottom_right` (the default where an op has no
    alignment) has `shift = Nk - Nq`, so the last query sees every key;
    `top_left` has `shift = 0`, so query `i` sees keys `0..i`, as PyTorch's
    and JAX's `is_causal`. They agree when `Nq = Nk`. Top-left with
    `Nq > Nk` lets the queries past `Nk` see every key; bottom-right leaves
    the first `Nq - Nk` queries with none (their output is 0).
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// QuantAttr
//===----------------------------------------------------------------------===//

def Sage_QuantAttr : Sage_Attr<"Quant", "quant"> {
  let summary = "symmetric quantization of a tensor: format, groups, scale";
  let description = [{
    Describes `x_hat = round(x / delta)`, `delta = max|x in group| / range`,
    where the groups follow `granularity` over the two trailing dimensions
    `[tokens, features]` of the quantized tensor:

    | granularity  | one scale per                                  | keys                  |
    |--------------|------------------------------------------------|-----------------------|
    | `per_tensor` | leading index (e.g. one per head)              |                       |
    | `per_token`  | token                                          | optionally `block` (the tile its tokens are in) |
    | `per_channel`| feature column, over all tokens (V)            |                       |
    | `per_block`  | `block` consecutive tokens                     | `block`               |
    | `per_warp`   | `warp` consecutive tokens                      | `warp`, optionally `block` (the tile its warps are in) |
    | `per_thread` | operand `a` (Q): tokens of one warp's rows with the same `r mod 8`; operand `b` (K): tokens `8k+2t`, `8k+2t+1` of one block | `operand`, `block`, `warp` (a) |
    | `microscale` | `block` consecutive features of one token (`along = tokens`: tokens of one feature) | `block`, `scale`, optionally `along` |

    `per_thread` follows the mma.sync m16n8kX accumulator layout (lane `l`
    holds rows `l/4` and `l/4+8`, columns `2(l%4)` and `2(l%4)+1`), so each
    thread needs one scale of Q and one of K: `warp` must be a multiple of
    the mma M (16) and `block` a multiple of the mma N (8).
    `f16` (P and V of the `int8-fp16` recipes) takes `per_tensor` (the
    unit scale: a rounding) or `per_channel` (V scaled into `range` for an
    f16 accumulator).
    `range` defaults to the largest finite value of the format (127, 7, 448,
    57344, 6, 65504); narrower ranges (e.g. 224 for P with an f16 accumulator) are
    allowed. `scale` is `f32` except for microscaling, where NVFP4 uses
    `f8E4M3FN` scales over 16 elements and MX formats `f8E8M0FNU` over 32.
    Microscale blocks run along the contraction axis of the MMA the values
    feed: features for Q and K, tokens for V (`along = tokens`, the P V
    contraction; its scales are `[tokens / block, features]`). Blocks are
    `block` consecutive MMA positions of the axis: for Q and K, consecutive
    features; for NVFP4's V, whose P comes from the Q K^T accumulator, the
    16 keys of the accumulator order (keys 32h + 8j + 4c + {0..3} of each
    64-key chunk, block 2h + c; docs/Algorithm.md section 5).

    Example:

    ```mlir
    #sage.quant<i8, per_thread, operand = a, block = 128, warp = 32>
    #sage.quant<f8E4M3FN, per_channel>
    #sage.quant<f8E4M3FN, per_tensor, range = 224.0>
    #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN>
    #sage.quant<f4E2M1FN, microscale, block = 16, scale = f8E4M3FN, along = tokens>
    ```
  }];
  let parameters = (ins
    AttrParameter<"::mlir::Type", "quantized format (i8, i4, f8E4M3FN, "
                  "f8E5M2, f4E2M1FN, f16)">:$elementType,
    EnumParameter<Sage_Granularity>:$granularity,
    AttrParameter<"::std::optional<::mlir::sage::MmaOperand>",
                  "mma operand (per_thread): a = rows of Q, b = tokens of K"
                  >:$operand,
    AttrParameter<"int64_t", "tokens per block, or elements per microscale "
                  "block; 0 when unused">:$block,
    AttrParameter<"int64_t", "tokens per warp; 0 when unused">:$warp,
    AttrParameter<"::mlir::Type", "scale type (f32, f8E4M3FN, f8E8M0FNU)"
                  >:$scaleType,
    APFloatParameter<"largest magnitude mapped onto the format">:$range,
    AttrParameter<"::std::optional<::mlir::sage::DimRole>",
                  "microscale: the axis its blocks run along (features when "
                  "unset)">:$along
  );
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::Type":$elementType,
        "Granularity":$granularity, CArg<"int64_t", "0">:$block,
        CArg<"int64_t", "0">:$warp,
        CArg<"::std::optional<MmaOperand>", "std::nullopt">:$operand), [{
      return $_get(elementType.getContext(), elementType, granularity,
                   operand, block, warp,
                   ::mlir::Float32Type::get(elementType.getContext()),
                   ::llvm::APFloat(getLargestFinite(elementType)),
                   ::std::nullopt);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Largest finite magnitude of a supported element format, 0 otherwise.
    static double getLargestFinite(::mlir::Type elementType);
    /// Number of elements of the contraction dimension one mma.sync consumes
    /// for this format (32 bytes: 16 for f16, 32 for 8-bit, 64 for 4-bit).
    int64_t getMmaK() const;
    /// Shape of the scale tensor for an input of `shape` (trailing dims are
    /// [tokens, features]); dynamic extents propagate.
    ::llvm::SmallVector<int64_t> getScaleShape(::llvm::ArrayRef<int64_t> shape) const;
    /// Whether microscale blocks run along tokens (V), not features.
    bool isAlongTokens() const {
      return getAlong() == ::mlir::sage::DimRole::Tokens;
    }
    double getRangeValue() const { return getRange().convertToDouble(); }
  }];
}

//===----------------------------------------------------------------------===//
// AccumAttr
//===----------------------------------------------------------------------===//

def Sage_MmaAttr : Sage_Attr<"Mma", "mma"> {
  let summary = "one tensor-core MMA instruction, by what it computes and where it reads";
  let description = [{
    Names the instruction a `sage.qmma` tile is computed with. Operand
    types, accumulator and chip do not identify an instruction alone (s8
    operands with an i32 accumulator are an `mma.sync` of one warp, a
    `wgmma` of a warpgroup reading shared memory, or a `tcgen05.mma`
    writing tensor memory), so the key is the whole description: the
    issuing `scope`, the shape `m` x `n` x `k`, each operand's element type
    and `source`, the accumulator type and the block-scale kind. Only the
    descriptions of sage's instruction table (docs/Mma.md) verify; the
    table gives each one its PTX instruction, the chips that run it and
    the PTX ISA it needs.

    Example:

    ```mlir
    #sage.mma<scope = warp, m = 16, n = 8, k = 32, a = i8, a_source = registers,
              b = i8, b_source = registers, acc = i32, scales = none>
    #sage.mma<scope = warpgroup, m = 64, n = 64, k = 32, a = f8E4M3FN,
              a_source = registers, b = f8E4M3FN, b_source = shared, acc = f32,
              scales = none>
    ```
  }];
  let parameters = (ins
    EnumParameter<Sage_MmaScope>:$scope,
    "int64_t":$m, "int64_t":$n, "int64_t":$k,
    AttrParameter<"::mlir::Type", "element type of a">:$a,
    EnumParameter<Sage_OperandSource>:$a_source,
    AttrParameter<"::mlir::Type", "element type of b">:$b,
    EnumParameter<Sage_OperandSource>:$b_source,
    AttrParameter<"::mlir::Type", "accumulator type">:$acc,
    EnumParameter<Sage_MmaScaleKind>:$scales
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The table row this attribute names (never null once verified).
    const ::mlir::sage::MmaInstruction *getInstruction() const;
  }];
}

//===----------------------------------------------------------------------===//
// Fragment encodings (tiles spread over a CTA's lanes)
//===----------------------------------------------------------------------===//

class Sage_FragmentEncoding<string name, string attrMnemonic>
    : Sage_Attr<name, attrMnemonic,
        [DeclareAttrInterfaceMethods<Sage_FragmentEncodingAttrInterface>,
         DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]>;

def Sage_AccFragmentAttr : Sage_FragmentEncoding<"AccFragment", "acc_fragment"> {
  let summary = "a tile held as the accumulators of a warp MMA, one row tile a warp";
  let description = [{
    A tensor encoding (docs/Levels.md, distribute). A `[warps * m, C]` tile
    whose rows are split over `warps` warps, warp `w` holding rows
    `w * m .. w * m + m - 1` as `C / n` accumulator tiles of the warp MMA
    `mma`, side by side. Lane `(g, t) = (lane / 4, lane % 4)` of an m16n8
    MMA holds element `4 j + e` of its vector at row `g + 8 (e / 2)`,
    column `8 j + 2 t + e % 2` of its warp's rows: the order of the
    fragment forms of `sage.online_softmax` and the other L4 ops.

    Example:

    ```mlir
    tensor<64x64xf32, #sage.acc_fragment<mma = #sage.mma<scope = warp, m = 16,
        n = 8, k = 32, a = i8, a_source = registers, b = i8,
        b_source = registers, acc = i32, scales = none>, warps = 4>>
    ```
  }];
  let parameters = (ins "MmaAttr":$mma, "int64_t":$warps);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Sage_RowFragmentAttr : Sage_FragmentEncoding<"RowFragment", "row_fragment"> {
  let summary = "one value per row of an accumulator fragment's tile";
  let description = [{
    A tensor encoding (docs/Levels.md, distribute) for the per-row values
    of a tile encoded `#sage.acc_fragment` with MMAs of `m` rows (the
    running max, sum and rescale of the online softmax): a `[warps * m]`
    vector, each lane holding the `m / 8` rows it holds accumulators of
    (rows `g` and `g + 8` for m = 16), in that order. It names no MMA:
    every m16n8 accumulator holds its rows alike.

    With `partial_sums = true` the values are row sums that each lane holds
    in part: the sum over its own columns of the row, whose total is over
    the four lanes sharing the row (the online softmax's running sum `l`,
    which the lanes reduce once, after the K/V loop). A `tensor.cast` to
    the encoding without it is that reduction.

    Example:

    ```mlir
    tensor<64xf32, #sage.row_fragment<m = 16, warps = 4>>
    tensor<64xf32, #sage.row_fragment<m = 16, warps = 4, partial_sums = true>>
    ```
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$warps,
                        DefaultValuedParameter<"bool", "false">:$partial_sums);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The same rows, held whole (false) or as the lanes' partial sums.
    RowFragmentAttr withPartialSums(bool partialSums) const {
      return get(getContext(), getM(), getWarps(), partialSums);
    }
  }];
}

def Sage_ReplicatedAttr : Sage_FragmentEncoding<"Replicated", "replicated"> {
  let summary = "a small tile every thread holds whole";
  let description = [{
    A tensor encoding (docs/Levels.md, distribute): each thread holds every
    element, in row-major order (the one static scale of P, say).

    Example:

    ```mlir
    tensor<1x1xf32, #sage.replicated>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// MmaPackedAttr
//===----------------------------------------------------------------------===//

def Sage_MmaPackedAttr : Sage_Attr<"MmaPacked", "mma_packed",
    [DeclareAttrInterfaceMethods<Sage_OperandLayoutAttrInterface>]> {
  let summary = "an mma.sync operand stored so that a lane loads its registers at once";
  let description = [{
    The layout of a quantized operand of `mma.sync.m16n8kK` (row-major A,
    column-major B) in memory, along its contraction axis `along`. One MMA
    consumes `k` elements of a row (32 bytes, whatever the format: k = 32
    for 8-bit, 64 for 4-bit, 16 for 16-bit elements); lane `t` of a quad
    feeds the two 32-bit registers holding positions `e*t .. e*t+e-1` and
    `k/2 + e*t ..` (`e = k / 8` elements a word). Runs of `chunks`
    consecutive MMA chunks are stored so that these bytes of every chunk
    are contiguous for each lane: one 8-byte (`chunks = 1`) or 16-byte
    (`chunks = 2`) load fetches a lane's registers for all of them. An
    axis is stored padded with zeros to a whole number of groups (D = 80
    takes three groups of 32, the MMA's 96).

    `order = accumulator` permutes the elements within each chunk of 32 into
    the order in which an m16n8 accumulator holds its columns (lane `t`:
    columns `2t`, `2t+1` of each 8-column tile), so that the FP32
    accumulator of Q K^T, quantized to FP8, is the A operand of P V without
    leaving registers; V is stored in the same order along its tokens.
    The layouts are drawn in docs/Layouts.md.

    Example:

    ```mlir
    #sage.mma_packed<along = features, k = 32, chunks = 2>
    #sage.mma_packed<along = tokens, k = 32, chunks = 2, order = accumulator>
    ```
  }];
  let parameters = (ins
    EnumParameter<Sage_DimRole>:$along,
    "int64_t":$k,
    "int64_t":$chunks,
    DefaultValuedParameter<"FragmentOrder", "FragmentOrder::Natural",
                           "element order within an MMA chunk">:$order
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The widest packing for a contraction axis of `extent` elements: two
    /// chunks a group unless that pads the axis further than one chunk.
    static MmaPackedAttr getWidest(::mlir::MLIRContext *context,
                                   DimRole along, int64_t k, int64_t extent,
                                   FragmentOrder order = FragmentOrder::Natural);
  }];
}

def Sage_MmaOrderedAttr : Sage_Attr<"MmaOrdered", "mma_ordered",
    [DeclareAttrInterfaceMethods<Sage_OperandLayoutAttrInterface,
                                 ["getOperandTiling"]>]> {
  let summary = "an MMA operand stored in the order of its MMA positions";
  let description = [{
    The layout of a quantized MMA operand along its contraction axis
    `along` whose MMA positions are stored in order, `k` (one MMA's chunk
    of the axis: 32 for 8-bit elements) at a time. This is the K-major row
    that a wgmma (or tcgen05) shared-memory descriptor and a TMA box read:
    the hardware, not each lane, picks a row's bytes. (A lane would load
    its mma.sync registers from it a 4-byte word at a time; the mma.sync
    kernel does not read it and asks for `#sage.mma_packed`.)

    `order = accumulator` permutes the elements within each chunk of 32 as
    `#sage.mma_packed` does, so that P's accumulator, quantized to FP8 in
    registers, is the A operand of the P V MMA: V is stored in that order
    along its tokens. The layouts are drawn in docs/Layouts.md.

    `tiling = core_matrices` places the rows, a stage's tile at a time, in
    the byte order of the K/V stage in shared memory: no-swizzle core
    matrices of 8 rows x 16 bytes, each 16-byte column of a tile after the
    other. A tile is then contiguous and one bulk copy (the TMA unit's
    `cp.async.bulk`) stages it, with no tensor map. Which rows and columns
    make a tile is the kernel's (for K: `block-k` tokens by all channels;
    for V^T: all channels by `block-k` keys); docs/Layouts.md draws it.

    Example:

    ```mlir
    #sage.mma_ordered<along = features, k = 32>
    #sage.mma_ordered<along = tokens, k = 32, order = accumulator>
    #sage.mma_ordered<along = features, k = 32, tiling = core_matrices>
    ```
  }];
  let parameters = (ins
    EnumParameter<Sage_DimRole>:$along,
    "int64_t":$k,
    DefaultValuedParameter<"FragmentOrder", "FragmentOrder::Natural",
                           "element order within an MMA chunk">:$order,
    DefaultValuedParameter<"OperandTiling", "OperandTiling::Rows",
                           "placement of the rows in memory">:$tiling
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Sage_AccumAttr : Sage_Attr<"Accum", "accum"> {
  let summary = "two-level accumulation scheme of the P*V product";
  let description = [{
    The MMA accumulator of `P_hat * V_hat` is flushed into an FP32 buffer
    `O = diag(alpha) * O + R`:

    * `#sage.accum<f32>`: the f32 accumulator of the FP8 MMA (which keeps
      about 22 bits on hardware) holds one K/V block's product `R_ij` and is
      added to the FP32 buffer once per K/V block (SageAttention2).
    * `#sage.accum<f16, every = N>`: the f16 accumulator is converted and
      added to the FP32 buffer every `N` MMAs (SageAttention2++'s delayed
      buffering, N = 2). One m16n8k32 MMA sums 32 products, so the ranges of
      P and V must satisfy `32 * N * P_r * V_r <= 65504`.

    Example:

    ```mlir
    #sage.accum<f32>
    #sage.accum<f16, every = 2>
    ```
  }];
  let parameters = (ins
    AttrParameter<"::mlir::Type", "MMA accumulator type (f32 or f16)">:$accType,
    DefaultValuedParameter<"unsigned", "0",
                           "MMAs per flush to f32; 0 = once per K/V block"
                           >:$every);
  let assemblyFormat = "`<` $accType (`,` `every` `=` $every^)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Largest P_r * V_r that cannot overflow the MMA accumulator.
    double getMaxRangeProduct() const;
  }];
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

def Sage_LayoutAttr : Sage_Attr<"Layout", "layout"> {
  let summary = "roles of the dimensions of attention operands";
  let description = [{
    Names the role of each dimension of Q, K, V and the output, outermost
    first. `tokens` and `features` are required; `batch` and `heads` are
    optional. No layout is assumed anywhere in sage: passes read the
    positions from this attribute.

    Example:

    ```mlir
    #sage.layout<[batch, heads, tokens, features]>
    #sage.layout<[batch, tokens, heads, features]>
    #sage.layout<[batch, tokens, features]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"DimRole",
                                          "role of each dimension">:$dims);
  let assemblyFormat = "`<` `[` $dims `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Position of `role`, if the layout has it.
    ::std::optional<unsigned> getPosition(DimRole role) const;
    unsigned getRank() const { return getDims().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// RecipeAttr
//===----------------------------------------------------------------------===//

def Sage_RecipeAttr : Sage_Attr<"Recipe", "recipe"> {
  let summary = "quantization recipe of one attention";
  let description = [{
    The variant fixes the formats; the other keys refine it:

    | variant             | Q, K        | P, V                 | PV accumulator        |
    |---------------------|-------------|----------------------|-----------------------|
    | `"int8-fp8"`        | i8 (127)    | f8E4M3FN (448, 448)  | `#sage.accum<f32>`    |
    | `"int4-fp8"`        | i4 (7)      | f8E4M3FN (448, 448)  | `#sage.accum<f32>`    |
    | `"int8-fp8-f16acc"` | i8 (127)    | f8E4M3FN (224, 4.5)  | `#sage.accum<f16, every = 2>` |
    | `"int4-fp8-f16acc"` | i4 (7)      | f8E4M3FN (224, 4.5)  | `#sage.accum<f16, every = 2>` |
    | `"nvfp4"`           | f4E2M1FN, 1x16 blocks, f8E4M3FN scales | same, P with a per-row f32 scale first | `#sage.accum<f32>` |
    | `"int8-fp16"`       | i8 (127)    | f16, unscaled        | `#sage.accum<f32>`    |
    | `"int8-fp16-f16acc"`| i8 (127)    | f16 (1, 1023)        | `#sage.accum<f16, every = 2>` |

    * `qk`: granularity of the Q and K scales (default `per_thread`; `nvfp4`
      requires `microscale`).
    * `smooth`: which of `q`, `k`, `v` are smoothed (default `[q, k]`).
    * `p_range`, `v_range`: the FP8 ranges `P_r`, `V_r` of the FP8 variants
      (`P_hat = P~ * P_r`, `delta_V[d] = max|V[:, d]| / V_r`).

    `int8-fp16` is the official recipe for chips without FP8 (sm_80/86):
    P~ and V are rounded to f16 and multiplied by `mma.sync.m16n8k16` into
    an f32 accumulator; `int8-fp16-f16acc` sums them in an f16 accumulator
    flushed every two MMAs, with V scaled per channel into [-1023, 1023]
    so that 32 products cannot overflow it.

    Example:

    ```mlir
    #sage.recipe<"int8-fp8">
    #sage.recipe<"int4-fp8", qk = per_warp, smooth = [k]>
    #sage.recipe<"int8-fp8-f16acc", p_range = 448.0, v_range = 2.25>
    ```
  }];
  let parameters = (ins
    EnumParameter<Sage_Variant>:$variant,
    EnumParameter<Sage_Granularity>:$qkGranularity,
    AttrParameter<"bool", "subtract the per-block mean of Q">:$smoothQ,
    AttrParameter<"bool", "subtract the mean of K">:$smoothK,
    AttrParameter<"bool", "subtract the mean of V">:$smoothV,
    APFloatParameter<"P_r: P_hat = P~ * P_r">:$pRange,
    APFloatParameter<"V_r: delta_V = max|V[:, d]| / V_r">:$vRange
  );
  let builders = [
    AttrBuilder<(ins "Variant":$variant)>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The defaults the variant implies for `qk`, `p_range` and `v_range`.
    static Granularity getDefaultQKGranularity(Variant variant);
    static double getDefaultPRange(Variant variant);
    static double getDefaultVRange(Variant variant);

    /// Whether P and V are f16 rather than quantized with scales.
    bool hasF16ProbsAndValues() const {
      return getVariant() == Variant::Int8Fp16 ||
             getVariant() == Variant::Int8Fp16F16Acc;
    }
    /// Format of the Q and K values (i8, i4 or f4E2M1FN).
    ::mlir::Type getQKElementType() const;
    /// Accumulation scheme of the P*V product.
    AccumAttr getPVAccum() const;
    /// Quantization of Q (mma operand a), for Q blocks of `block` rows split
    /// into warps of `warp` rows.
    QuantAttr getQueryQuant(int64_t block, int64_t warp) const;
    /// Quantization of K (mma operand b), for K blocks of `block` tokens.
    QuantAttr getKeyQuant(int64_t block) const;
    /// Quantization of P~ and V.
    QuantAttr getProbQuant() const;
    QuantAttr getValueQuant() const;
  }];
}

#endif // SAGE_DIALECT_SAGE_IR_SAGEATTRS_TD
