//===- LowerQuantizers.cpp - sage.smooth and sage.quantize as linalg ------===//
//
// The host side's first level (docs/Levels.md, "The statistics and
// quantizers"): each tensor-level sage.smooth and sage.quantize outside a
// grid becomes linalg on tensors that computes what the CPU model computes
// (docs/Algorithm.md sections 1 to 3), in its order, so that the kernels
// they become agree with it bit for bit:
//
// * a mean: f64 sums of each group's tokens (all tokens: chunks of
//   sage::ref::kTokensPerChunk in token order, then the chunks' sums in
//   order; blocks: in token order, the tokens padded with zeros to whole
//   blocks and reshaped), divided by the group's count and rounded to f32;
// * a quantizer: the largest magnitude of each token's row (of x - mean in
//   f32 where the input is a sage.smooth's result: the smoothed values
//   are not rounded to the input type in between), the largest over each
//   group's rows (the tokens, padded with zero rows to whole spans, are
//   reshaped so that a group's rows are dimensions of their own), the
//   scale maximum / range, and the values rounded from x / scale.
//
// sage-launch-loops later makes each linalg op a kernel.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Reference/Smoothing.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGELOWERQUANTIZERS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

namespace {
/// Where a quantization's token groups sit: the tokens, padded with zero
/// rows to whole spans, are [spans, split...], and a group is one span and
/// one index of the `split` dimensions that are not `members` (the
/// dimensions a group's rows run over).
struct TokenGroups {
  int64_t span;
  SmallVector<int64_t> split;
  SmallVector<bool> members;

  /// Groups of one span.
  int64_t getGroupsPerSpan() const {
    int64_t groups = 1;
    for (auto [size, member] : llvm::zip(split, members))
      if (!member)
        groups *= size;
    return groups;
  }
  /// The group of token `n` (sage::ref::groupOf).
  AffineExpr getGroupOf(AffineExpr n) const {
    AffineExpr group = n.floorDiv(span) * getGroupsPerSpan();
    AffineExpr local = n % span;
    int64_t stride = span, keptStride = getGroupsPerSpan();
    for (auto [size, member] : llvm::zip(split, members)) {
      stride /= size;
      AffineExpr digit = local.floorDiv(stride) % size;
      if (member)
        continue;
      keptStride /= size;
      group = group + digit * keptStride;
    }
    return group;
  }
};
} // namespace

/// The token groups of `quant`, for the granularities whose groups are
/// sets of whole tokens (one scale per group of rows).
static std::optional<TokenGroups> getTokenGroups(QuantAttr quant) {
  int64_t block = quant.getBlock(), warp = quant.getWarp();
  switch (quant.getGranularity()) {
  case Granularity::PerToken:
    return TokenGroups{1, {1}, {false}};
  case Granularity::PerBlock:
    return TokenGroups{block, {block}, {true}};
  case Granularity::PerWarp:
    return TokenGroups{warp, {warp}, {true}};
  case Granularity::PerThread:
    // Q: the rows of a warp with the same r mod 8 (lane l holds rows
    // l / 4 and l / 4 + 8 of each 16); K: the tokens 8k + 2t, 8k + 2t + 1
    // of a block (lane t's columns).
    if (quant.getOperand() == MmaOperand::A)
      return TokenGroups{
          block, {block / warp, warp / 8, 8}, {false, true, false}};
    return TokenGroups{block, {block / 8, 4, 2}, {true, false, true}};
  default:
    return std::nullopt;
  }
}

/// Why `op` cannot be lowered, or an empty string.
static std::string getQuantizerBlocker(QuantizeOp op) {
  QuantAttr quant = op.getQuant();
  if (quant.getGranularity() == Granularity::Microscale)
    return "microscaling (NVFP4) is not lowered to linalg yet";
  if (OperandLayoutAttrInterface layout = op.getLayoutAttr()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "its values are stored in " << layout
       << ", which this lowering does not write yet";
    return text;
  }
  if (op.getBound()) {
    ArrayRef<int64_t> groups = cast<RankedTensorType>(op.getScales().getType())
                                   .getShape()
                                   .take_back(2);
    if (ShapedType::isDynamic(groups[0]) || ShapedType::isDynamic(groups[1]))
      return "a static bound with a dynamic number of groups has no lowering";
  }
  return "";
}

namespace {
/// Builds the linalg ops of one lowering; `lead` is the number of leading
/// dimensions (batch, heads) before [tokens, features].
struct LinalgBuilder {
  OpBuilder &b;
  Location loc;
  int64_t lead;

  MLIRContext *getContext() { return b.getContext(); }
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value floatConstant(Type type, double value) {
    return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
  }
  /// The identity map of `rank` loops and the map to the dims `results`.
  AffineMap map(int64_t rank, ArrayRef<AffineExpr> results) {
    return AffineMap::get(rank, 0, results, getContext());
  }
  /// The loops' leading dims, then `rest`.
  SmallVector<AffineExpr> leading(ArrayRef<AffineExpr> rest = {}) {
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < lead; ++i)
      exprs.push_back(b.getAffineDimExpr(i));
    llvm::append_range(exprs, rest);
    return exprs;
  }
  /// A tensor of `sizes` filled with `value`.
  Value filled(ArrayRef<OpFoldResult> sizes, Type type, double value) {
    Value empty = tensor::EmptyOp::create(b, loc, sizes, type);
    Value constant = floatConstant(type, value);
    return linalg::FillOp::create(b, loc, constant, empty).getResult(0);
  }
  SmallVector<utils::IteratorType> iterators(int64_t rank,
                                             ArrayRef<int64_t> reduced) {
    SmallVector<utils::IteratorType> kinds(rank, utils::IteratorType::parallel);
    for (int64_t dim : reduced)
      kinds[dim] = utils::IteratorType::reduction;
    return kinds;
  }
  /// An f32 of `value` (f16, bf16 or f32).
  Value toF32(OpBuilder &nested, Value value) {
    if (value.getType().isF32())
      return value;
    return arith::ExtFOp::create(nested, loc, nested.getF32Type(), value);
  }
};

/// The input of a quantizer and the mean its rows lose first, if any.
struct QuantizerInput {
  Value input;
  Value mean;
  std::optional<int64_t> meanBlock;

  /// The map of the mean from the loops (lead..., token, feature).
  AffineMap getMeanMap(LinalgBuilder &l) const {
    AffineExpr n = l.b.getAffineDimExpr(l.lead),
               d = l.b.getAffineDimExpr(l.lead + 1);
    AffineExpr group =
        meanBlock ? n.floorDiv(*meanBlock) : l.b.getAffineConstantExpr(0);
    return l.map(l.lead + 2, l.leading({group, d}));
  }
  /// The inputs of a generic over (lead..., token, feature) that reads x.
  SmallVector<Value> getOperands() const {
    if (mean)
      return {input, mean};
    return {input};
  }
  SmallVector<AffineMap> getMaps(LinalgBuilder &l) const {
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(l.lead + 2, l.getContext())};
    if (mean)
      maps.push_back(getMeanMap(l));
    return maps;
  }
  /// x (minus the mean) in f32 at (lead..., token, feature).
  Value readAt(LinalgBuilder &l, OpBuilder &nested, ValueRange lead,
               Value token, Value feature) const {
    SmallVector<Value> at(lead);
    at.append({token, feature});
    Value x =
        l.toF32(nested, tensor::ExtractOp::create(nested, l.loc, input, at));
    if (!mean)
      return x;
    Value group = arith::ConstantIndexOp::create(nested, l.loc, 0);
    if (meanBlock)
      group = arith::DivUIOp::create(
          nested, l.loc, token,
          arith::ConstantIndexOp::create(nested, l.loc, *meanBlock));
    at[l.lead] = group;
    Value m = tensor::ExtractOp::create(nested, l.loc, mean, at);
    return arith::SubFOp::create(nested, l.loc, x, m);
  }
  /// x (minus the mean) in f32, from a generic's block arguments.
  Value read(LinalgBuilder &l, OpBuilder &nested, ValueRange args) const {
    Value x = l.toF32(nested, args[0]);
    if (!mean)
      return x;
    return arith::SubFOp::create(nested, l.loc, x, args[1]);
  }
};
} // namespace

/// Tokens a chunk of a reduction over the tokens holds: the CPU model's
/// means sum in chunks of this many.
static constexpr int64_t kTokensPerChunk = ::sage::ref::kTokensPerChunk;

namespace {
/// An element of a column reduction: x's value at (lead..., token,
/// feature), in the reduction's type.
using ReadElement = function_ref<Value(OpBuilder &, Location, ValueRange lead,
                                       Value token, Value feature)>;
/// The reduction's step: the running result and the next element.
using CombineElement = function_ref<Value(OpBuilder &, Location, Value, Value)>;
} // namespace

/// Each column of x reduced over the tokens, [lead..., 1, features] of
/// `type`, starting from `identity` (docs/Levels.md, "The statistics and
/// quantizers"; the means' order: docs/Algorithm.md section 1): first each
/// chunk of sage::ref::kTokensPerChunk tokens of
/// each column, in token order, one parallel point a chunk and column,
/// into [lead..., chunks, features]; then the chunks' results, in chunk
/// order. Tokens past the last add `identity`. (One running reduction
/// over every token is a point a column: a few thousand threads walking
/// 16k tokens each.)
static Value reduceColumnsInChunks(LinalgBuilder &l,
                                   ArrayRef<OpFoldResult> leadSizes,
                                   OpFoldResult tokens, OpFoldResult features,
                                   Type type, double identity, ReadElement read,
                                   CombineElement combine) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  int64_t rank = l.lead + 2;
  Value tokenCount = getValueOrCreateConstantIndexOp(b, loc, tokens);
  Value chunks =
      arith::CeilDivUIOp::create(b, loc, tokenCount, l.index(kTokensPerChunk));
  SmallVector<OpFoldResult> partialSizes(leadSizes);
  partialSizes.push_back(chunks);
  partialSizes.push_back(features);
  Value partialInit = tensor::EmptyOp::create(b, loc, partialSizes, type);
  AffineMap identityMap =
      AffineMap::getMultiDimIdentityMap(rank, l.getContext());
  auto partials = linalg::GenericOp::create(
      b, loc, partialInit.getType(), ValueRange(), partialInit, identityMap,
      l.iterators(rank, {}), [&](OpBuilder &nested, Location loc, ValueRange) {
        SmallVector<Value> lead;
        for (int64_t i = 0; i < l.lead; ++i)
          lead.push_back(linalg::IndexOp::create(nested, loc, i));
        Value chunk = linalg::IndexOp::create(nested, loc, l.lead);
        Value feature = linalg::IndexOp::create(nested, loc, l.lead + 1);
        Value chunkSize =
            arith::ConstantIndexOp::create(nested, loc, kTokensPerChunk);
        Value first = arith::MulIOp::create(nested, loc, chunk, chunkSize);
        Value zero = arith::ConstantIndexOp::create(nested, loc, 0);
        Value one = arith::ConstantIndexOp::create(nested, loc, 1);
        Value start = l.floatConstant(type, identity);
        auto loop = scf::ForOp::create(
            nested, loc, zero, chunkSize, one, start,
            [&](OpBuilder &body, Location loc, Value t, ValueRange acc) {
              Value token = arith::AddIOp::create(body, loc, first, t);
              Value inside = arith::CmpIOp::create(
                  body, loc, arith::CmpIPredicate::ult, token, tokenCount);
              Value readToken =
                  arith::SelectOp::create(body, loc, inside, token, zero);
              Value element = read(body, loc, lead, readToken, feature);
              element =
                  arith::SelectOp::create(body, loc, inside, element, start);
              scf::YieldOp::create(body, loc,
                                   combine(body, loc, acc[0], element));
            });
        linalg::YieldOp::create(nested, loc, loop.getResult(0));
      });

  SmallVector<OpFoldResult> resultSizes(leadSizes);
  resultSizes.push_back(b.getIndexAttr(1));
  resultSizes.push_back(features);
  Value init = l.filled(resultSizes, type, identity);
  AffineExpr d = b.getAffineDimExpr(l.lead + 1);
  return linalg::GenericOp::create(
             b, loc, init.getType(), partials.getResult(0), init,
             {identityMap,
              l.map(rank, l.leading({b.getAffineConstantExpr(0), d}))},
             l.iterators(rank, {l.lead}),
             [&](OpBuilder &nested, Location loc, ValueRange args) {
               linalg::YieldOp::create(nested, loc,
                                       combine(nested, loc, args[1], args[0]));
             })
      .getResult(0);
}

/// The magnitude of every row, or of every column (`columns`), or of
/// everything (`all`) of x: [lead..., tokens] / [lead..., 1, features] /
/// [lead..., 1, 1], reduced into `init`.
static Value reduceMagnitudes(LinalgBuilder &l, const QuantizerInput &x,
                              Value init, ArrayRef<AffineExpr> outputDims,
                              ArrayRef<int64_t> reduced) {
  int64_t rank = l.lead + 2;
  SmallVector<AffineMap> maps = x.getMaps(l);
  maps.push_back(l.map(rank, l.leading(outputDims)));
  auto generic = linalg::GenericOp::create(
      l.b, l.loc, init.getType(), x.getOperands(), init, maps,
      l.iterators(rank, reduced),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value value = x.read(l, nested, args);
        Value magnitude = math::AbsFOp::create(nested, loc, value);
        // maximumf keeps a NaN, as sage::ref::absMaxStep does.
        Value max =
            arith::MaximumFOp::create(nested, loc, args.back(), magnitude);
        linalg::YieldOp::create(nested, loc, max);
      });
  return generic.getResult(0);
}

/// The largest row magnitude of each token group: [lead..., groups, 1].
static Value reduceTokenGroups(LinalgBuilder &l, const QuantizerInput &x,
                               const TokenGroups &groups,
                               ArrayRef<OpFoldResult> leadSizes,
                               OpFoldResult tokens) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Type f32 = b.getF32Type();
  AffineExpr n = b.getAffineDimExpr(l.lead);
  auto toScaleShape = [&](Value maxima, OpFoldResult groupCount) -> Value {
    SmallVector<ReassociationIndices> expand;
    for (int64_t i = 0; i < l.lead; ++i)
      expand.push_back({i});
    expand.push_back({l.lead, l.lead + 1});
    SmallVector<OpFoldResult> scaleSizes(leadSizes);
    scaleSizes.push_back(groupCount);
    scaleSizes.push_back(b.getIndexAttr(1));
    SmallVector<int64_t> staticScales;
    for (OpFoldResult size : scaleSizes)
      staticScales.push_back(
          getConstantIntValue(size).value_or(ShapedType::kDynamic));
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(staticScales, f32), maxima, expand,
        scaleSizes);
  };
  // One token a group: the row maxima are the groups'.
  if (!llvm::is_contained(groups.members, true)) {
    SmallVector<OpFoldResult> rowSizes(leadSizes);
    rowSizes.push_back(tokens);
    Value init = l.filled(rowSizes, f32, 0.0);
    Value rowMax = reduceMagnitudes(l, x, init, {n}, {l.lead + 1});
    return toScaleShape(rowMax, tokens);
  }

  // Row maxima into the head of a zero-filled [lead..., spans * span].
  Value tokenCount = getValueOrCreateConstantIndexOp(b, loc, tokens);
  Value spans =
      arith::CeilDivUIOp::create(b, loc, tokenCount, l.index(groups.span));
  Value padded = arith::MulIOp::create(b, loc, spans, l.index(groups.span));
  SmallVector<OpFoldResult> paddedSizes(leadSizes);
  paddedSizes.push_back(padded);
  Value zeros = l.filled(paddedSizes, f32, 0.0);
  SmallVector<OpFoldResult> rowSizes(leadSizes), offsets, strides;
  rowSizes.push_back(tokens);
  offsets.assign(l.lead + 1, b.getIndexAttr(0));
  strides.assign(l.lead + 1, b.getIndexAttr(1));
  Value rows =
      tensor::ExtractSliceOp::create(b, loc, zeros, offsets, rowSizes, strides);
  Value rowMax = reduceMagnitudes(l, x, rows, {n}, {l.lead + 1});
  Value allRows = tensor::InsertSliceOp::create(b, loc, rowMax, zeros, offsets,
                                                rowSizes, strides);

  // [lead..., spans, split...]: a group's rows are the member dims.
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t i = 0; i < l.lead; ++i)
    reassociation.push_back({i});
  ReassociationIndices tokenDims;
  for (int64_t i = 0, e = groups.split.size() + 1; i < e; ++i)
    tokenDims.push_back(l.lead + i);
  reassociation.push_back(tokenDims);
  SmallVector<OpFoldResult> splitSizes(leadSizes);
  splitSizes.push_back(spans);
  for (int64_t size : groups.split)
    splitSizes.push_back(b.getIndexAttr(size));
  SmallVector<int64_t> staticSplit;
  for (OpFoldResult size : splitSizes)
    staticSplit.push_back(
        getConstantIntValue(size).value_or(ShapedType::kDynamic));
  Value split = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(staticSplit, f32), allRows, reassociation,
      splitSizes);

  // The maxima over the member dims: [lead..., spans, kept...].
  int64_t rank = l.lead + 1 + groups.split.size();
  SmallVector<AffineExpr> kept = {b.getAffineDimExpr(l.lead)};
  SmallVector<int64_t> reduced;
  SmallVector<OpFoldResult> keptSizes(leadSizes);
  keptSizes.push_back(spans);
  for (auto [i, member] : llvm::enumerate(groups.members)) {
    int64_t dim = l.lead + 1 + i;
    if (member) {
      reduced.push_back(dim);
      continue;
    }
    kept.push_back(b.getAffineDimExpr(dim));
    keptSizes.push_back(b.getIndexAttr(groups.split[i]));
  }
  Value init = l.filled(keptSizes, f32, 0.0);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), split, init,
      {AffineMap::getMultiDimIdentityMap(rank, l.getContext()),
       l.map(rank, l.leading(kept))},
      l.iterators(rank, reduced),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value max = arith::MaximumFOp::create(nested, loc, args[1], args[0]);
        linalg::YieldOp::create(nested, loc, max);
      });

  // [lead..., groups, 1].
  Value groupMax = generic.getResult(0);
  if (kept.size() > 1) {
    SmallVector<ReassociationIndices> collapse;
    for (int64_t i = 0; i < l.lead; ++i)
      collapse.push_back({i});
    ReassociationIndices spanDims;
    for (int64_t i = 0, e = kept.size(); i < e; ++i)
      spanDims.push_back(l.lead + i);
    collapse.push_back(spanDims);
    groupMax = tensor::CollapseShapeOp::create(b, loc, groupMax, collapse);
  }
  Value groupCount =
      arith::MulIOp::create(b, loc, spans, l.index(groups.getGroupsPerSpan()));
  return toScaleShape(groupMax, groupCount);
}

/// One value of `op`'s format from x (f32) and its scale.
static Value quantizeElement(OpBuilder &b, Location loc, QuantizeOp op, Value x,
                             Value scale) {
  QuantAttr quant = op.getQuant();
  Type format = quant.getElementType();
  Type f32 = b.getF32Type();
  if (op.getBound() && format.isF16())
    return arith::TruncFOp::create(b, loc, format, x);
  Value scaled = arith::DivFOp::create(b, loc, x, scale);
  Value zero = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0));
  // A group of zeros has scale 0 and values 0.
  Value noScale =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, scale, zero);
  Value zeroValue =
      arith::ConstantOp::create(b, loc, format, b.getZeroAttr(format));
  if (isa<FloatType>(format)) {
    Value value = arith::TruncFOp::create(b, loc, format, scaled);
    return arith::SelectOp::create(b, loc, noScale, zeroValue, value);
  }
  // Round half to even, clamp to the range, and 0 for a NaN (cvt.rni's
  // answer; sage::ref::quantizeToInt).
  double range = quant.getRangeValue();
  Value rounded = math::RoundEvenOp::create(b, loc, scaled);
  Value low = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(-range));
  Value high = arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(range));
  // Compares and selects: arith.maxnumf / minnumf would become libdevice
  // calls in the kernel.
  Value below =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rounded, low);
  Value raised = arith::SelectOp::create(b, loc, below, low, rounded);
  Value above =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, raised, high);
  Value clamped = arith::SelectOp::create(b, loc, above, high, raised);
  Value value = arith::FPToSIOp::create(b, loc, format, clamped);
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, scaled, scaled);
  Value none = arith::OrIOp::create(b, loc, noScale, isNaN);
  return arith::SelectOp::create(b, loc, none, zeroValue, value);
}

/// Lowers a tensor-level sage.quantize.
static LogicalResult lowerQuantize(RewriterBase &rewriter, QuantizeOp op) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  LinalgBuilder l{rewriter, loc, inputType.getRank() - 2};
  QuantizerInput x{op.getInput(), Value(), std::nullopt};
  if (auto smooth = op.getInput().getDefiningOp<SmoothOp>()) {
    x.input = smooth.getInput();
    x.mean = smooth.getMean();
    x.meanBlock = smooth.getBlock();
  }
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, x.input);
  ArrayRef<OpFoldResult> leadSizes = ArrayRef(sizes).take_front(l.lead);
  OpFoldResult tokens = sizes[l.lead], features = sizes[l.lead + 1];
  QuantAttr quant = op.getQuant();
  Type f32 = rewriter.getF32Type();
  double range = quant.getRangeValue();
  AffineExpr n = rewriter.getAffineDimExpr(l.lead),
             d = rewriter.getAffineDimExpr(l.lead + 1);
  AffineExpr zero = rewriter.getAffineConstantExpr(0);

  // The maxima and where each element's scale is.
  Value maxima;
  AffineMap scaleMap;
  int64_t rank = l.lead + 2;
  if (std::optional<APFloat> bound = op.getBound()) {
    // One scale for every group (the blocker asks for static groups).
    SmallVector<OpFoldResult> scaleSizes(leadSizes);
    for (int64_t size : cast<RankedTensorType>(op.getScales().getType())
                            .getShape()
                            .take_back(2))
      scaleSizes.push_back(rewriter.getIndexAttr(size));
    maxima = l.filled(scaleSizes, f32, bound->convertToDouble());
    scaleMap = l.map(rank, l.leading({zero, zero}));
  } else if (std::optional<TokenGroups> groups = getTokenGroups(quant)) {
    maxima = reduceTokenGroups(l, x, *groups, leadSizes, tokens);
    scaleMap = l.map(rank, l.leading({groups->getGroupOf(n), zero}));
  } else {
    bool perChannel = quant.getGranularity() == Granularity::PerChannel;
    if (perChannel) {
      maxima = reduceColumnsInChunks(
          l, leadSizes, tokens, features, f32, 0.0,
          [&](OpBuilder &nested, Location loc, ValueRange lead, Value token,
              Value feature) {
            return math::AbsFOp::create(
                nested, loc, x.readAt(l, nested, lead, token, feature));
          },
          [](OpBuilder &nested, Location loc, Value max, Value magnitude) {
            // maximumf keeps a NaN, as sage::ref::absMaxStep does.
            return arith::MaximumFOp::create(nested, loc, max, magnitude);
          });
    } else {
      SmallVector<OpFoldResult> maxSizes(leadSizes);
      maxSizes.append({rewriter.getIndexAttr(1), rewriter.getIndexAttr(1)});
      Value init = l.filled(maxSizes, f32, 0.0);
      maxima = reduceMagnitudes(l, x, init, {zero, zero}, {l.lead, l.lead + 1});
    }
    scaleMap = l.map(rank, l.leading({zero, perChannel ? d : zero}));
  }

  // scale = maximum / range.
  auto maximaType = cast<RankedTensorType>(maxima.getType());
  int64_t scaleRank = maximaType.getRank();
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(scaleRank, rewriter.getContext());
  Value scaleInit = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, maxima), f32);
  auto scales = linalg::GenericOp::create(
      rewriter, loc, maximaType, maxima, scaleInit, {identity, identity},
      l.iterators(scaleRank, {}),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value rangeValue = l.floatConstant(f32, range);
        Value scale = arith::DivFOp::create(nested, loc, args[0], rangeValue);
        linalg::YieldOp::create(nested, loc, scale);
      });

  // The values.
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  Value valuesInit = tensor::EmptyOp::create(rewriter, loc, sizes,
                                             valuesType.getElementType());
  SmallVector<Value> operands = x.getOperands();
  operands.push_back(scales.getResult(0));
  SmallVector<AffineMap> maps = x.getMaps(l);
  maps.push_back(scaleMap);
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext()));
  auto values = linalg::GenericOp::create(
      rewriter, loc, valuesInit.getType(), operands, valuesInit, maps,
      l.iterators(rank, {}),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value value = x.read(l, nested, args);
        Value scale = args[args.size() - 2];
        Value quantized = quantizeElement(nested, loc, op, value, scale);
        linalg::YieldOp::create(nested, loc, quantized);
      });

  SmallVector<Value> results = {values.getResult(0), scales.getResult(0)};
  for (int64_t i = 0; i < 2; ++i) {
    Type expected = op->getResult(i).getType();
    if (results[i].getType() != expected)
      results[i] = tensor::CastOp::create(rewriter, loc, expected, results[i]);
  }
  rewriter.replaceOp(op, results);
  return success();
}

/// Lowers a tensor-level sage.smooth: its mean, and its smoothed values
/// (rounded to the input type) where anything still reads them.
static void lowerSmooth(RewriterBase &rewriter, SmoothOp op) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  LinalgBuilder l{rewriter, loc, inputType.getRank() - 2};
  int64_t rank = l.lead + 2;
  Type f32 = rewriter.getF32Type(), f64 = rewriter.getF64Type();
  std::optional<int64_t> block = op.getBlock();
  AffineExpr n = rewriter.getAffineDimExpr(l.lead),
             d = rewriter.getAffineDimExpr(l.lead + 1);
  Value tokens = tensor::DimOp::create(rewriter, loc, op.getInput(), l.lead);

  // f64 sums of each group's tokens (sage::ref::columnMean).
  SmallVector<OpFoldResult> meanSizes =
      tensor::getMixedSizes(rewriter, loc, op.getInput());
  if (block)
    meanSizes[l.lead] =
        arith::CeilDivUIOp::create(rewriter, loc, tokens, l.index(*block))
            .getResult();
  else
    meanSizes[l.lead] = rewriter.getIndexAttr(1);
  AffineExpr group =
      block ? n.floorDiv(*block) : rewriter.getAffineConstantExpr(0);
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
  auto addToSum = [&](OpBuilder &nested, Location loc, ValueRange args) {
    Value x = arith::ExtFOp::create(nested, loc, f64, args[0]);
    Value sum = arith::AddFOp::create(nested, loc, args[1], x);
    linalg::YieldOp::create(nested, loc, sum);
  };
  Value sums;
  if (!block) {
    // Chunks of tokens, then the chunks' sums (sage::ref::columnMean).
    sums = reduceColumnsInChunks(
        l, ArrayRef(meanSizes).take_front(l.lead), tokens,
        meanSizes[l.lead + 1], f64, 0.0,
        [&](OpBuilder &nested, Location loc, ValueRange lead, Value token,
            Value feature) -> Value {
          SmallVector<Value> at(lead);
          at.append({token, feature});
          Value x = tensor::ExtractOp::create(nested, loc, op.getInput(), at);
          return arith::ExtFOp::create(nested, loc, f64, x);
        },
        [](OpBuilder &nested, Location loc, Value sum, Value x) -> Value {
          return arith::AddFOp::create(nested, loc, sum, x);
        });
  } else {
    // Blocks: the tokens padded with zeros (which add nothing) to whole
    // blocks, [lead..., blocks, block, features], summed over the block
    // dimension: each block's sum is its own, not one running over all
    // tokens.
    Value blockCount =
        getValueOrCreateConstantIndexOp(rewriter, loc, meanSizes[l.lead]);
    Value blockSize = l.index(*block);
    Value paddedTokens =
        arith::MulIOp::create(rewriter, loc, blockCount, blockSize);
    Value high = arith::SubIOp::create(rewriter, loc, paddedTokens, tokens);
    SmallVector<OpFoldResult> low(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> highPad(rank, rewriter.getIndexAttr(0));
    highPad[l.lead] = high;
    Type element = inputType.getElementType();
    Value zero = l.floatConstant(element, 0.0);
    SmallVector<int64_t> paddedShape(inputType.getShape());
    paddedShape[l.lead] = ShapedType::kDynamic;
    Value padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(paddedShape, element),
        op.getInput(), low, highPad, zero);
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t i = 0; i < l.lead; ++i)
      reassociation.push_back({i});
    reassociation.push_back({l.lead, l.lead + 1});
    reassociation.push_back({l.lead + 2});
    SmallVector<OpFoldResult> blockSizes(meanSizes);
    blockSizes.insert(blockSizes.begin() + l.lead + 1,
                      rewriter.getIndexAttr(*block));
    SmallVector<int64_t> blockShape;
    for (OpFoldResult size : blockSizes)
      blockShape.push_back(
          getConstantIntValue(size).value_or(ShapedType::kDynamic));
    Value blocks = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(blockShape, element), padded,
        reassociation, blockSizes);
    Value sumInit = l.filled(meanSizes, f64, 0.0);
    AffineExpr g = rewriter.getAffineDimExpr(l.lead),
               feature = rewriter.getAffineDimExpr(l.lead + 2);
    sums =
        linalg::GenericOp::create(
            rewriter, loc, sumInit.getType(), blocks, sumInit,
            {AffineMap::getMultiDimIdentityMap(rank + 1, rewriter.getContext()),
             l.map(rank + 1, l.leading({g, feature}))},
            l.iterators(rank + 1, {l.lead + 1}), addToSum)
            .getResult(0);
  }

  // mean = sum / count, rounded to f32; a trailing partial block counts
  // only its tokens.
  Value meanInit = tensor::EmptyOp::create(rewriter, loc, meanSizes, f32);
  auto mean = linalg::GenericOp::create(
      rewriter, loc, meanInit.getType(), sums, meanInit, {identity, identity},
      l.iterators(rank, {}),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value count = tokens;
        if (block) {
          Value g = linalg::IndexOp::create(nested, loc, l.lead);
          Value blockSize = arith::ConstantIndexOp::create(nested, loc, *block);
          Value start = arith::MulIOp::create(nested, loc, g, blockSize);
          Value left = arith::SubIOp::create(nested, loc, tokens, start);
          count = arith::MinUIOp::create(nested, loc, left, blockSize);
        }
        Value count64 = arith::IndexCastUIOp::create(
            nested, loc, nested.getI64Type(), count);
        Value divisor = arith::UIToFPOp::create(nested, loc, f64, count64);
        Value quotient = arith::DivFOp::create(nested, loc, args[0], divisor);
        Value mean = arith::TruncFOp::create(nested, loc, f32, quotient);
        linalg::YieldOp::create(nested, loc, mean);
      });

  // The smoothed values, x - mean rounded to x's type.
  Value smoothedInit = tensor::EmptyOp::create(
      rewriter, loc, tensor::getMixedSizes(rewriter, loc, op.getInput()),
      inputType.getElementType());
  auto smoothed = linalg::GenericOp::create(
      rewriter, loc, inputType, ValueRange{op.getInput(), mean.getResult(0)},
      smoothedInit, {identity, l.map(rank, l.leading({group, d})), identity},
      l.iterators(rank, {}),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value x = l.toF32(nested, args[0]);
        Value value = arith::SubFOp::create(nested, loc, x, args[1]);
        if (!inputType.getElementType().isF32())
          value = arith::TruncFOp::create(nested, loc,
                                          inputType.getElementType(), value);
        linalg::YieldOp::create(nested, loc, value);
      });
  Value meanResult = mean.getResult(0);
  if (meanResult.getType() != op.getMean().getType())
    meanResult = tensor::CastOp::create(rewriter, loc, op.getMean().getType(),
                                        meanResult);
  rewriter.replaceOp(op, {smoothed.getResult(0), meanResult});
}

/// Whether `op` is one of a grid's own ops (P's quantizer), which the tile
/// level lowers.
static bool isInGrid(Operation *op) {
  return op->getParentOfType<scf::ForallOp>() ||
         op->getParentOfType<scf::ForOp>();
}

namespace {
struct SageLowerQuantizersPass
    : public mlir::sage::impl::SageLowerQuantizersBase<
          SageLowerQuantizersPass> {
  void runOnOperation() override {
    SmallVector<QuantizeOp> quantizers;
    SmallVector<SmoothOp> smooths;
    getOperation()->walk([&](Operation *op) {
      if (isInGrid(op))
        return;
      if (auto quantize = dyn_cast<QuantizeOp>(op);
          quantize && isa<RankedTensorType>(quantize.getInput().getType()))
        quantizers.push_back(quantize);
      if (auto smooth = dyn_cast<SmoothOp>(op))
        smooths.push_back(smooth);
    });
    // Quantizers first: they read a sage.smooth's input and mean
    // themselves, before the smooth becomes linalg.
    IRRewriter rewriter(&getContext());
    for (QuantizeOp op : quantizers) {
      std::string blocker = getQuantizerBlocker(op);
      if (!blocker.empty()) {
        op.emitOpError("cannot be lowered to linalg: ") << blocker;
        return signalPassFailure();
      }
      if (failed(lowerQuantize(rewriter, op)))
        return signalPassFailure();
    }
    for (SmoothOp op : smooths) {
      // A block's sum runs in token order: the CPU model's, up to a chunk.
      if (std::optional<int64_t> block = op.getBlock();
          block && *block > kTokensPerChunk) {
        op.emitOpError("cannot be lowered to linalg: blocks of ")
            << *block << " tokens are summed in chunks of " << kTokensPerChunk
            << " by the CPU model, which this lowering does not do yet";
        return signalPassFailure();
      }
      lowerSmooth(rewriter, op);
    }
  }
};
} // namespace
