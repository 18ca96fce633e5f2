//===- FoldLaneReads.cpp - lanes read the operands, not their windows -----===//
//
// After sage-distribute-tiles each lane reads its elements from CTA-wide
// tiles that the tile level built as values: a block's window of an
// operand padded to the tile (tensor.pad), V^T (linalg.transpose, then
// gathered in P's key order) and dS
// (linalg.matvec of the K window and Q's block mean). Materialized in a
// kernel, each would be a buffer every lane fills whole. This pass makes
// every read go to the operand itself (docs/Levels.md, "From lanes to a
// kernel"):
//
// * a read of a padded window reads the unpadded one out of bounds, which
//   yields the padding value (vector.transfer_read's rule), so no lane
//   reads past a tensor's end;
// * a read of a transposed tile reads the tile at the swapped coordinates,
//   and one of another gather (V^T in P's key order) reads each element
//   at its input's coordinates;
// * an element of a matrix-vector product is its row's dot product, summed
//   in order k = 0, 1, ... as linalg.matvec does;
// * a warp's matrix read (sage.warp_load_matrices) of such a tile is each
//   lane's reads of its words;
// * a read of a slice of such a tile (the keys of one f16 flush) reads the
//   tile at the slice's offsets (upstream's subset folding).
//
// Tiles sage-promote-tiles put in workgroup memory stay; the others,
// then unused, fold away. What stays is extract_slice windows
// of the operands, which bufferize to views.
//
//===----------------------------------------------------------------------===//

#include "LaneFragments.h"
#include "Staging.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEFOLDLANEREADS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The source and padding value of `value` if it is a tensor padded at the
/// high end only by a constant (a window of the tile level).
static std::optional<std::pair<Value, Value>> getHighPadded(Value value) {
  auto pad = value.getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.hasZeroLowPad())
    return std::nullopt;
  Value padding = pad.getConstantPaddingValue();
  if (!padding || !padding.getDefiningOp<arith::ConstantOp>())
    return std::nullopt;
  return std::make_pair(pad.getSource(), padding);
}

/// A read of `type` from `source` at `indices` along `map` (a projected
/// permutation) that may overrun any dimension of `source`, reading
/// `padding` there. vector.transfer_read masks only the vector's
/// dimensions, so the read takes every dimension of `source`, the ones
/// `map` drops as leading unit dimensions, and is cast back to `type`.
static Value readMayOverrun(PatternRewriter &rewriter, Location loc,
                            VectorType type, Value source, ValueRange indices,
                            AffineMap map, Value padding) {
  int64_t rank = map.getNumDims();
  SmallVector<AffineExpr> results;
  SmallVector<int64_t> shape;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (map.isFunctionOfDim(dim))
      continue;
    results.push_back(rewriter.getAffineDimExpr(dim));
    shape.push_back(1);
  }
  llvm::append_range(results, map.getResults());
  llvm::append_range(shape, type.getShape());
  auto fullMap = AffineMap::get(rank, 0, results, rewriter.getContext());
  auto fullType = VectorType::get(shape, type.getElementType());
  SmallVector<bool> inBounds(rank, false);
  Value read = vector::TransferReadOp::create(
      rewriter, loc, fullType, source, indices, AffineMapAttr::get(fullMap),
      padding, Value(), rewriter.getBoolArrayAttr(inBounds));
  if (fullType == type)
    return read;
  return vector::ShapeCastOp::create(rewriter, loc, type, read);
}

namespace {

/// tensor.extract of a padded window: a one-element read of the window
/// that may fall out of bounds.
struct ExtractOfPad : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto padded = getHighPadded(op.getTensor());
    if (!padded)
      return failure();
    auto [source, padding] = *padded;
    int64_t rank = op.getIndices().size();
    if (rank == 0 || !VectorType::isValidElementType(op.getType()))
      return failure();
    auto type = VectorType::get({1}, op.getType());
    AffineMap map = AffineMap::getMinorIdentityMap(rank, 1, getContext());
    Value read = readMayOverrun(rewriter, op.getLoc(), type, source,
                                op.getIndices(), map, padding);
    rewriter.replaceOpWithNewOp<vector::ExtractOp>(op, read,
                                                   ArrayRef<int64_t>{0});
    return success();
  }
};

/// vector.transfer_read of a padded window: the same read of the window,
/// out of bounds where the pad was.
struct TransferReadOfPad : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    auto padded = getHighPadded(op.getBase());
    // Broadcast dimensions must stay in bounds: not folded.
    if (!padded || op.getMask() ||
        !op.getPermutationMap().isProjectedPermutation(
            /*allowZeroInResults=*/false))
      return failure();
    auto [source, padding] = *padded;
    // Out-of-bounds elements of the read itself must read as the pad did.
    if (op.hasOutOfBoundsDim() && op.getPadding() != padding)
      return failure();
    rewriter.replaceOp(
        op, readMayOverrun(rewriter, op.getLoc(), op.getVectorType(), source,
                           op.getIndices(), op.getPermutationMap(), padding));
    return success();
  }
};

/// Coordinates of a transposed tile in its input: result dimension i is
/// input dimension perm[i].
static SmallVector<Value> permuteIndices(ValueRange indices,
                                         ArrayRef<int64_t> perm) {
  SmallVector<Value> permuted(indices.size());
  for (auto [i, dim] : llvm::enumerate(perm))
    permuted[dim] = indices[i];
  return permuted;
}

/// An element of a gather (a transpose, or V^T in P's key order) is its
/// input's element at the mapped coordinates.
struct ExtractOfGather : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = getGatherSource(op.getTensor());
    if (!gather)
      return failure();
    auto [map, input] = *gather;
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(
        op, input, applyIndexMap(rewriter, op.getLoc(), map, op.getIndices()));
    return success();
  }
};

/// A 1-D read of a gather that is not a transpose: its elements one by
/// one (ExtractOfGather then reads each from the input).
struct TransferReadOfGather : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = getGatherSource(op.getBase());
    VectorType type = op.getVectorType();
    if (!gather || gather->first.isPermutation() || op.getMask() ||
        type.getRank() != 1 || type.isScalable() ||
        !op.getPermutationMap().isMinorIdentity() || !op.isDimInBounds(0))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> indices = op.getIndices();
    Value first = indices.back();
    SmallVector<Value> elements;
    for (int64_t i = 0; i < type.getNumElements(); ++i) {
      Value offset = arith::ConstantIndexOp::create(rewriter, loc, i);
      indices.back() = arith::AddIOp::create(rewriter, loc, first, offset);
      elements.push_back(
          tensor::ExtractOp::create(rewriter, loc, op.getBase(), indices));
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, type, elements);
    return success();
  }
};

/// A transfer_read of a transposed tile reads the input along the
/// permuted dimensions.
struct TransferReadOfTranspose : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getBase().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || !transpose.hasPureTensorSemantics() || op.getMask())
      return failure();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<AffineExpr> results;
    for (AffineExpr expr : op.getPermutationMap().getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return failure(); // a broadcast dimension
      results.push_back(rewriter.getAffineDimExpr(perm[dim.getPosition()]));
    }
    auto map = AffineMap::get(perm.size(), 0, results, getContext());
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        op, op.getVectorType(), transpose.getInput(),
        permuteIndices(op.getIndices(), perm), AffineMapAttr::get(map),
        op.getPadding(), Value(), op.getInBoundsAttr());
    return success();
  }
};

/// Element i of y = A x (linalg.matvec on floats, a static reduction):
/// init[i] + sum_k A[i, k] x[k], each product in y's type, summed in
/// order (vector.reduction without reassociation).
struct ExtractOfMatvec : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractOp op,
                                PatternRewriter &rewriter) const override {
    auto matvec = op.getTensor().getDefiningOp<linalg::MatvecOp>();
    // A product sage-promote-tiles computes once per CTA stays.
    if (!matvec || !matvec.hasPureTensorSemantics() ||
        isInWorkgroupMemory(matvec.getDpsInits()[0]))
      return failure();
    Value matrix = matvec.getDpsInputs()[0], vector = matvec.getDpsInputs()[1];
    auto matrixType = cast<RankedTensorType>(matrix.getType());
    auto vectorType = cast<RankedTensorType>(vector.getType());
    auto result = dyn_cast<FloatType>(op.getType());
    int64_t k = matrixType.getDimSize(1);
    if (!result || ShapedType::isDynamic(k) || k == 0 ||
        !isa<FloatType>(matrixType.getElementType()) ||
        !isa<FloatType>(vectorType.getElementType()) ||
        vectorType.getDimSize(0) != k)
      return failure();

    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    auto readRow = [&](Value tensor, ValueRange indices) -> Value {
      Type element = cast<RankedTensorType>(tensor.getType()).getElementType();
      Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                                rewriter.getZeroAttr(element));
      Value row = vector::TransferReadOp::create(
          rewriter, loc, VectorType::get({k}, element), tensor, indices,
          padding, ArrayRef<bool>{true});
      if (element == result)
        return row;
      // linalg.matvec casts each operand to the result's type.
      auto type = VectorType::get({k}, result);
      if (element.getIntOrFloatBitWidth() < result.getWidth())
        return arith::ExtFOp::create(rewriter, loc, type, row);
      return arith::TruncFOp::create(rewriter, loc, type, row);
    };
    Value row = readRow(matrix, {op.getIndices()[0], zero});
    Value column = readRow(vector, {zero});
    Value products = arith::MulFOp::create(rewriter, loc, row, column);
    Value init = tensor::ExtractOp::create(
        rewriter, loc, matvec.getDpsInits()[0], op.getIndices());
    rewriter.replaceOpWithNewOp<vector::ReductionOp>(
        op, vector::CombiningKind::ADD, products, init);
    return success();
  }
};

/// A warp's matrix read of a tile outside workgroup memory (a window, a
/// gather of one): each lane reads its words, which the patterns above
/// then fold into reads of the operand.
struct MatricesByLane : OpRewritePattern<WarpLoadMatricesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(WarpLoadMatricesOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getTile().getType()) ||
        isInWorkgroupMemory(op.getTile()))
      return failure();
    rewriter.replaceOp(op, readMatricesByLane(rewriter, op));
    return success();
  }
};

struct FoldLaneReadsPass
    : public sage::impl::SageFoldLaneReadsBase<FoldLaneReadsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExtractOfPad, TransferReadOfPad, ExtractOfGather,
                 TransferReadOfTranspose, TransferReadOfGather, ExtractOfMatvec,
                 MatricesByLane>(&getContext());
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    tensor::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    // An element of dS's zero init is zero.
    linalg::FillOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
