//===- DistributeTiles.cpp - tiles with fragment encodings to lane vectors ===//
//
// The second half of the distribute level (docs/Levels.md). A dialect
// conversion: the type converter maps a tile encoded by
// sage-assign-fragments (#sage.acc_fragment, #sage.row_fragment,
// #sage.replicated) to the vector one lane holds of it, and one pattern per
// op rewrites it on those vectors. The sage ops become their fragment forms
// (L4), whose lowering (convert-sage-to-nvvm) already exists; sage.qmma
// becomes warp MMAs (DistributeQMma.cpp). Where a tile leaves the level
// (the grid's output), sage.from_lanes gathers the lanes' fragments.
//
//===----------------------------------------------------------------------===//

#include "DistributableGenerics.h"
#include "DistributePatterns.h"
#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEDISTRIBUTETILES
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The fragment encoding of a tile, if it has one.
static FragmentEncodingAttrInterface getFragmentEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? dyn_cast_or_null<FragmentEncodingAttrInterface>(
                      tensor.getEncoding())
                : FragmentEncodingAttrInterface();
}

/// The MMA whose accumulators the lanes hold of `tile` (checked before the
/// conversion: checkAccumulatorTiles).
static MmaAttr getFragmentMma(Value tile) {
  auto tensor = cast<RankedTensorType>(tile.getType());
  return cast<AccFragmentAttr>(tensor.getEncoding()).getMma();
}

/// A distributable generic reads a broadcast input that the lanes hold only
/// as the rows of its accumulator output (#sage.row_fragment through
/// (d0), spread by a shuffle); other broadcast inputs must be CTA-wide
/// tiles. Fails with a diagnostic otherwise.
static LogicalResult checkBroadcastInputs(linalg::GenericOp op) {
  if (!isDistributableGeneric(op))
    return success();
  auto output = dyn_cast_or_null<AccFragmentAttr>(
      cast<RankedTensorType>(op->getResult(0).getType()).getEncoding());
  for (OpOperand *input : op.getDpsInputOperands()) {
    FragmentEncodingAttrInterface encoding =
        getFragmentEncoding(input->get().getType());
    if (!encoding || isReadInPlace(op, *input))
      continue;
    auto rows = dyn_cast<RowFragmentAttr>(encoding);
    AffineMap map = op.getMatchingIndexingMap(input);
    if (output && rows && !rows.getPartialSums() &&
        rows.getM() == output.getMma().getM() &&
        rows.getWarps() == output.getWarps() && map.getNumResults() == 1 &&
        map.getResult(0) == getAffineDimExpr(0, op.getContext()))
      continue;
    return op.emitOpError()
           << "cannot be distributed: input #" << input->getOperandNumber()
           << " is broadcast through " << AffineMapAttr::get(map)
           << " but held as " << encoding
           << "; only the rows of the accumulator output may be";
  }
  return success();
}

/// The sage ops on encoded tiles take MMA accumulators (their fragment
/// forms name the MMA), and quantize with a static scale: fails with a
/// diagnostic on an op that has encoded types but not those.
/// A slice of a tile the lanes hold as MMA accumulators must be whole
/// column tiles of it, held alike (ExtractColumnsFromFragments).
static LogicalResult checkColumnSlice(tensor::ExtractSliceOp slice) {
  auto source =
      dyn_cast_or_null<AccFragmentAttr>(slice.getSourceType().getEncoding());
  Attribute result = slice.getType().getEncoding();
  if (!source && !getFragmentEncoding(slice.getType()))
    return success();
  if (source && result == source &&
      isWholeColumnTiles(slice, source.getMma().getN()))
    return success();
  return slice.emitOpError()
         << "cannot be distributed: a slice of a tile held as MMA "
            "accumulators takes every row and whole tiles of the MMA's "
            "columns, and keeps the tile's encoding";
}

static LogicalResult checkAccumulatorTiles(Operation *root) {
  WalkResult walk = root->walk([](Operation *op) {
    if (auto qmma = dyn_cast<QMmaOp>(op))
      return failed(checkDistributableQMma(qmma)) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return failed(checkBroadcastInputs(generic)) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
      return failed(checkColumnSlice(slice)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    Value tile;
    if (auto mask = dyn_cast<MaskScoresOp>(op))
      tile = mask.getScores();
    else if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op))
      tile = softmax.getScores();
    else if (auto quantize = dyn_cast<QuantizeOp>(op))
      tile = quantize.getInput();
    else if (auto accumulate = dyn_cast<AccumulateOp>(op))
      tile = accumulate.getPartial();
    auto encoded = [](Type type) { return bool(getFragmentEncoding(type)); };
    if (!tile || (llvm::none_of(op->getOperandTypes(), encoded) &&
                  llvm::none_of(op->getResultTypes(), encoded)))
      return WalkResult::advance();
    if (isa_and_nonnull<AccFragmentAttr>(getFragmentEncoding(tile.getType()))) {
      auto quantize = dyn_cast<QuantizeOp>(op);
      if (!quantize || quantize.getBound())
        return WalkResult::advance();
      op->emitOpError() << "cannot be distributed: measured scales need a "
                           "reduction across lanes; only a static `bound` "
                           "is distributed";
      return WalkResult::interrupt();
    }
    op->emitOpError() << "cannot be distributed: expected a tile held as "
                         "MMA accumulators (#sage.acc_fragment), got "
                      << tile.getType();
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace {

/// A tile fully written by its users: its contents never matter.
struct EmptyToPoison : OpConversionPattern<tensor::EmptyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::EmptyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOpWithNewOp<ub::PoisonOp>(op, type);
    return success();
  }
};

/// Whether `type` is held as the lanes' partial row sums.
static bool isPartialSums(Type type) {
  auto rows = dyn_cast_or_null<RowFragmentAttr>(getFragmentEncoding(type));
  return rows && rows.getPartialSums();
}

/// Row values as the lanes' partial sums of them: the value on the quad's
/// first lane (t = 0), zero on the other three.
static Value toPartialSums(OpBuilder &b, Location loc, Value rows) {
  LaneIndices ix(b, loc);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ix.t,
                                      ix.constant(0));
  auto type = cast<VectorType>(rows.getType());
  Value zeros = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  return arith::SelectOp::create(b, loc, first, rows, zeros);
}

/// Partial row sums into the rows' sums: each lane adds the parts of the
/// other three lanes of its quad (shuffles xor 1, then xor 2), as the
/// kernels reduce the online softmax's l once after the K/V loop.
static Value sumOverQuad(OpBuilder &b, Location loc, Value parts) {
  auto type = cast<VectorType>(parts.getType());
  SmallVector<Value> sums;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value sum = vector::ExtractOp::create(b, loc, parts, i);
    for (int32_t offset : {1, 2}) {
      Value other = gpu::ShuffleOp::create(b, loc, sum, offset, /*width=*/32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      sum = arith::AddFOp::create(b, loc, sum, other);
    }
    sums.push_back(sum);
  }
  return vector::FromElementsOp::create(b, loc, type, sums);
}

/// A filled tile is the same value in every element a lane holds (for
/// partial row sums, in the quad's first lane; zero sums need no select).
struct FillToSplat : OpConversionPattern<linalg::FillOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        getTypeConverter()->convertType<VectorType>(op.getResult(0).getType());
    Value scalar = adaptor.getInputs()[0];
    Attribute constant;
    Value splat;
    if (matchPattern(scalar, m_Constant(&constant)))
      splat = arith::ConstantOp::create(rewriter, op.getLoc(), type,
                                        SplatElementsAttr::get(type, constant));
    else
      splat = vector::BroadcastOp::create(rewriter, op.getLoc(), type, scalar);
    if (isPartialSums(op.getResult(0).getType()) &&
        !matchPattern(scalar, m_AnyZeroFloat()))
      splat = toPartialSums(rewriter, op.getLoc(), splat);
    rewriter.replaceOp(op, splat);
    return success();
  }
};

/// The lane's elements of `tile` (a CTA-wide tensor) read through `map` at
/// `coordinates`, the tile coordinates of the lane's output elements.
static Value gather(LaneIndices &ix, Value tile, AffineMap map,
                    ArrayRef<SmallVector<Value>> coordinates) {
  SmallVector<Value> elements;
  Value zero = ix.constant(0);
  for (ArrayRef<Value> at : coordinates) {
    SmallVector<Value> index;
    for (AffineExpr expr : map.getResults())
      index.push_back(isa<AffineDimExpr>(expr)
                          ? at[cast<AffineDimExpr>(expr).getPosition()]
                          : zero);
    elements.push_back(tensor::ExtractOp::create(ix.b, ix.loc, tile, index));
  }
  Type element = cast<RankedTensorType>(tile.getType()).getElementType();
  return vector::FromElementsOp::create(
      ix.b, ix.loc, VectorType::get({int64_t(elements.size())}, element),
      elements);
}

/// A CTA-wide tile the encoded ops take (an operand window, an argument):
/// each lane reads its elements.
struct CastToFragments : OpConversionPattern<tensor::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    FragmentEncodingAttrInterface encoding = getFragmentEncoding(type);
    if (!encoding || !isa<RankedTensorType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a tile into fragments");
    LaneIndices ix(rewriter, op.getLoc());
    auto identity =
        AffineMap::getMultiDimIdentityMap(type.getRank(), op.getContext());
    Value fragment = gather(ix, adaptor.getSource(), identity,
                            getLaneCoordinates(ix, encoding, type.getShape()));
    if (isPartialSums(type))
      fragment = toPartialSums(rewriter, op.getLoc(), fragment);
    rewriter.replaceOp(op, fragment);
    return success();
  }
};

/// A tile ops outside the level take whole (the grid's output, a return):
/// the lanes' fragments together.
struct CastFromFragments : OpConversionPattern<tensor::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FragmentEncodingAttrInterface encoding =
        getFragmentEncoding(op.getSource().getType());
    if (!encoding || !isa<VectorType>(adaptor.getSource().getType()) ||
        getFragmentEncoding(op.getType()))
      return rewriter.notifyMatchFailure(op, "not fragments into a tile");
    Value fragment = adaptor.getSource();
    if (auto rows = dyn_cast<RowFragmentAttr>(encoding);
        rows && rows.getPartialSums()) {
      // The rows' sums, which the lanes hold whole after the reduction.
      fragment = sumOverQuad(rewriter, op.getLoc(), fragment);
      encoding = rows.withPartialSums(false);
    }
    rewriter.replaceOpWithNewOp<FromLanesOp>(op, op.getType(), fragment,
                                             encoding);
    return success();
  }
};

/// Partial row sums into the rows' sums (sumOverQuad).
struct SumOverQuad : OpConversionPattern<tensor::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = dyn_cast_or_null<RowFragmentAttr>(
        getFragmentEncoding(op.getSource().getType()));
    auto to =
        dyn_cast_or_null<RowFragmentAttr>(getFragmentEncoding(op.getType()));
    if (!from || !from.getPartialSums() || to != from.withPartialSums(false))
      return rewriter.notifyMatchFailure(op, "not partial sums into rows");
    rewriter.replaceOp(op,
                       sumOverQuad(rewriter, op.getLoc(), adaptor.getSource()));
    return success();
  }
};

/// A distributable generic: its body, once, on the lane's vectors. Inputs
/// held like the output are the lane's vectors; per-row values held as
/// #sage.row_fragment are spread over the row's elements; other broadcast
/// inputs are read at the lane's coordinates; scalars are broadcast.
struct GenericToVectors : OpConversionPattern<linalg::GenericOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(linalg::GenericOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isDistributableGeneric(op))
      return rewriter.notifyMatchFailure(op, "not distributable");
    auto resultTile = cast<RankedTensorType>(op->getResult(0).getType());
    FragmentEncodingAttrInterface encoding = getFragmentEncoding(resultTile);
    auto resultType =
        getTypeConverter()->convertType<VectorType>(op->getResult(0).getType());
    if (!encoding || !resultType)
      return rewriter.notifyMatchFailure(op, "output not distributed");
    int64_t elements = resultType.getNumElements();
    Location loc = op.getLoc();
    Block &body = op.getRegion().front();
    std::optional<LaneIndices> ix;
    SmallVector<SmallVector<Value>> coordinates;
    auto getCoordinates = [&]() -> ArrayRef<SmallVector<Value>> {
      if (!ix) {
        ix.emplace(rewriter, loc);
        coordinates = getLaneCoordinates(*ix, encoding, resultTile.getShape());
      }
      return coordinates;
    };

    // Checked before any op is built: a failing pattern must leave the IR
    // as it was (checkBroadcastInputs diagnoses these before the
    // conversion).
    for (auto [operand, input] :
         llvm::zip(op.getDpsInputOperands(), adaptor.getInputs())) {
      if (!isa<ShapedType>(input.getType()))
        continue;
      bool held = isa<VectorType>(input.getType());
      bool inPlace = isReadInPlace(op, *operand);
      AffineMap map = op.getMatchingIndexingMap(operand);
      bool rowsOfOutput = isa<AccFragmentAttr>(encoding) &&
                          map.getNumResults() == 1 &&
                          map.getResult(0) == rewriter.getAffineDimExpr(0);
      if ((inPlace && !held) || (!inPlace && held && !rowsOfOutput))
        return rewriter.notifyMatchFailure(op, "input not held as expected");
    }

    IRMapping vectors;
    for (auto [operand, input] :
         llvm::zip(op.getDpsInputOperands(), adaptor.getInputs())) {
      BlockArgument arg = body.getArgument(operand->getOperandNumber());
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (!isa<ShapedType>(input.getType())) {
        vectors.map(arg,
                    vector::BroadcastOp::create(
                        rewriter, loc,
                        VectorType::get({elements}, input.getType()), input));
      } else if (isReadInPlace(op, *operand)) {
        vectors.map(arg, input);
      } else if (isa<VectorType>(input.getType())) {
        // Rows (d0) held as #sage.row_fragment: accumulator element 4j + e
        // is in row g + 8 (e / 2), the lane's row e / 2.
        SmallVector<int64_t> rows;
        for (int64_t x = 0; x < elements; ++x)
          rows.push_back((x % 4) / 2);
        vectors.map(
            arg, vector::ShuffleOp::create(rewriter, loc, input, input, rows));
      } else {
        ArrayRef<SmallVector<Value>> at = getCoordinates();
        vectors.map(arg, gather(*ix, input, map, at));
      }
    }
    auto lookup = [&](Value scalar) -> Value {
      if (Value vector = vectors.lookupOrNull(scalar))
        return vector;
      auto type = VectorType::get({elements}, scalar.getType());
      return vector::BroadcastOp::create(rewriter, loc, type, scalar);
    };
    for (Operation &inner : body.without_terminator()) {
      SmallVector<Value> operands = llvm::map_to_vector(
          inner.getOperands(), [&](Value v) { return lookup(v); });
      SmallVector<Type> types =
          llvm::map_to_vector(inner.getResultTypes(), [&](Type t) -> Type {
            return VectorType::get({elements}, t);
          });
      OperationState state(inner.getLoc(), inner.getName(), operands, types,
                           inner.getAttrs());
      vectors.map(inner.getResults(), rewriter.create(state)->getResults());
    }
    SmallVector<Value> results =
        llvm::map_to_vector(body.getTerminator()->getOperands(),
                            [&](Value v) { return lookup(v); });
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The first row of the lane's warp: `first` + m * (thread x / 32). The
/// warps of the CTA hold consecutive row tiles (#sage.acc_fragment).
static Value getWarpFirstRow(OpBuilder &b, Location loc, Value first,
                             int64_t m) {
  Value warp = getWarpIndex(b, loc);
  if (!first.getType().isIndex())
    warp = arith::IndexCastOp::create(b, loc, first.getType(), warp);
  Value rows =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(first.getType(), m));
  Value warpRows = arith::MulIOp::create(b, loc, warp, rows);
  return arith::AddIOp::create(b, loc, first, warpRows);
}

/// Whether a warp's [rows, `columns`] tile of scores from row `firstRow`
/// and key `firstKey` has anything for `op` to mask: a padded key (its last
/// key past the end) or, causal, a key right of the diagonal of its first
/// row, which sees the fewest.
static Value hasMaskedScores(OpBuilder &b, Location loc, MaskScoresOp op,
                             Value firstRow, Value firstKey, Value queries,
                             Value keys, int64_t columns) {
  Type type = keys.getType();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, type,
                                     b.getIntegerAttr(type, value));
  };
  Value lastKey =
      arith::AddIOp::create(b, loc, firstKey, constant(columns - 1));
  Value masked =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, lastKey, keys);
  if (!op.getCausal())
    return masked;
  // Row r sees keys <= r + (Nk - Nq) aligned bottom-right, <= r top-left.
  Value limit = firstRow;
  if (!isTopLeft(op.getCausalAlignment()))
    limit = arith::AddIOp::create(b, loc, limit,
                                  arith::SubIOp::create(b, loc, keys, queries));
  Value right =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, lastKey, limit);
  return arith::OrIOp::create(b, loc, masked, right);
}

/// sage.mask_scores on the lane's fragment, where the warp's tile has
/// anything to mask: the other K/V blocks (all but the last and, causal,
/// the diagonal ones) skip the compares and selects, a warp-uniform
/// branch (docs/Levels.md, distribute: "Masks skip whole tiles").
struct MaskScoresToFragments : OpConversionPattern<MaskScoresOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaskScoresOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MmaAttr mma = getFragmentMma(op.getScores());
    Value firstRow =
        getWarpFirstRow(rewriter, loc, adaptor.getQueryOffset(), mma.getM());
    int64_t columns =
        cast<RankedTensorType>(op.getScores().getType()).getDimSize(1);
    Value masked =
        hasMaskedScores(rewriter, loc, op, firstRow, adaptor.getKeyOffset(),
                        adaptor.getQueries(), adaptor.getKeys(), columns);
    Value scores = adaptor.getScores();
    auto ifMasked = scf::IfOp::create(rewriter, loc, scores.getType(), masked,
                                      /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&ifMasked.getThenRegion().front());
    Value maskedScores = MaskScoresOp::create(
        rewriter, loc, scores.getType(), scores, firstRow,
        adaptor.getKeyOffset(), adaptor.getQueries(), adaptor.getKeys(),
        op.getCausalAttr(), op.getCausalAlignmentAttr(), mma);
    scf::YieldOp::create(rewriter, loc, maskedScores);
    rewriter.setInsertionPointToStart(&ifMasked.getElseRegion().front());
    scf::YieldOp::create(rewriter, loc, scores);
    rewriter.replaceOp(op, ifMasked.getResults());
    return success();
  }
};

/// Whole MMA tiles of columns of a tile the lanes hold (sage-assign-
/// fragments gives the slice its source's encoding): the lane's elements
/// of those tiles, which come n-tile after n-tile in its vector.
struct ExtractColumnsFromFragments
    : OpConversionPattern<tensor::ExtractSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tensor::ExtractSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // checkColumnSlice made every slice of such a tile whole column tiles.
    auto sourceEncoding =
        dyn_cast_or_null<AccFragmentAttr>(op.getSourceType().getEncoding());
    if (!sourceEncoding || !isa<VectorType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not columns of fragments");
    MmaAttr mma = sourceEncoding.getMma();
    int64_t perTile = mma.getM() * mma.getN() / 32;
    int64_t first = op.getStaticOffsets()[1] / mma.getN() * perTile;
    int64_t count = op.getStaticSizes()[1] / mma.getN() * perTile;
    rewriter.replaceOpWithNewOp<vector::ExtractStridedSliceOp>(
        op, adaptor.getSource(), ArrayRef<int64_t>{first},
        ArrayRef<int64_t>{count}, ArrayRef<int64_t>{1});
    return success();
  }
};

struct OnlineSoftmaxToFragments : OpConversionPattern<OnlineSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OnlineSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MmaAttr mma = getFragmentMma(op.getScores());
    Type rows = adaptor.getMax().getType();
    rewriter.replaceOpWithNewOp<OnlineSoftmaxOp>(
        op, adaptor.getScores().getType(), rows, rows, rows,
        adaptor.getScores(), adaptor.getMax(), adaptor.getSum(),
        adaptor.getScoreScale(), mma, op.getBase2(), op.getProbScaleAttr());
    return success();
  }
};

/// P's quantization with a static scale (the only one the assignment
/// encodes): element-wise on the lane's probabilities.
struct QuantizeToFragments : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MmaAttr mma = getFragmentMma(op.getInput());
    const TypeConverter *converter = getTypeConverter();
    rewriter.replaceOpWithNewOp<QuantizeOp>(
        op, converter->convertType(op.getValues().getType()),
        converter->convertType(op.getScales().getType()),
        /*row_scales=*/Type(), adaptor.getInput(), op.getQuant(),
        op.getBoundAttr(), /*layout=*/nullptr, mma,
        /*row_range=*/nullptr);
    return success();
  }
};

struct AccumulateToFragments : OpConversionPattern<AccumulateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AccumulateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MmaAttr mma = getFragmentMma(op.getPartial());
    rewriter.replaceOpWithNewOp<AccumulateOp>(
        op, adaptor.getBuffer().getType(), adaptor.getPartial(),
        adaptor.getBuffer(), adaptor.getRescale(), op.getScheme(), mma);
    return success();
  }
};

struct DistributeTilesPass
    : public sage::impl::SageDistributeTilesBase<DistributeTilesPass> {
  void runOnOperation() override {
    if (failed(checkAccumulatorTiles(getOperation())))
      return signalPassFailure();
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](RankedTensorType type) -> std::optional<Type> {
      FragmentEncodingAttrInterface encoding = getFragmentEncoding(type);
      if (!encoding)
        return std::nullopt;
      return encoding.getLaneType(type.getShape(), type.getElementType());
    });
    // Between a converted value and an op that still takes the tile.
    auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                   Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    converter.addSourceMaterialization(cast);
    converter.addTargetMaterialization(cast);

    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<tensor::EmptyOp, linalg::FillOp, QMmaOp,
                                 MaskScoresOp, OnlineSoftmaxOp, QuantizeOp,
                                 AccumulateOp, tensor::ExtractSliceOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<tensor::CastOp>([&](tensor::CastOp op) {
      return converter.isLegal(op.getOperation());
    });
    target.addDynamicallyLegalOp<linalg::GenericOp>([&](linalg::GenericOp op) {
      return !isDistributableGeneric(op) || converter.isLegal(op);
    });

    RewritePatternSet patterns(context);
    patterns.add<EmptyToPoison, FillToSplat, CastToFragments, CastFromFragments,
                 SumOverQuad, GenericToVectors, MaskScoresToFragments,
                 OnlineSoftmaxToFragments, QuantizeToFragments,
                 AccumulateToFragments, ExtractColumnsFromFragments>(converter,
                                                                     context);
    populateDistributeQMmaPatterns(converter, patterns);
    populateDistributeWarpgroupMmaPatterns(converter, patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    foldScoreFactorsIntoSoftmax(getOperation());
    // The outputs of fills and generics, which their vectors do not need.
    getOperation()->walk([](ub::PoisonOp poison) {
      if (poison->use_empty())
        poison->erase();
    });
  }
};

} // namespace
