//===- RaiseAttention.cpp - raise attention into sage.attention -----------===//

#include "AttentionMatch.h"

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGERAISEATTENTION
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// [tokens, features] -> [1, tokens, features] and back.
static const ReassociationIndices kUnitBatch[] = {{0, 1}, {2}};

static Value addUnitBatch(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto batchedType = RankedTensorType::get(
      {1, type.getDimSize(0), type.getDimSize(1)}, type.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, batchedType, value,
                                       kUnitBatch);
}

/// Replaces `match.result` with a sage.attention on the matched operands.
static void replaceWithAttention(RewriterBase &rewriter, Operation *root,
                                 const AttentionMatch &match,
                                 RecipeAttr recipe) {
  Location loc = root->getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value query = match.query, key = match.key, value = match.value;
  auto resultType = cast<RankedTensorType>(match.result.getType());
  if (match.unbatched) {
    query = addUnitBatch(rewriter, loc, query);
    key = addUnitBatch(rewriter, loc, key);
    value = addUnitBatch(rewriter, loc, value);
    resultType = RankedTensorType::get(
        {1, resultType.getDimSize(0), resultType.getDimSize(1)},
        resultType.getElementType());
  }
  auto layout = LayoutAttr::get(
      ctx, {DimRole::Batch, DimRole::Tokens, DimRole::Features});
  Value result = AttentionOp::create(
      rewriter, loc, resultType, /*lse=*/Type(), query, key, value,
      /*mask=*/Value(), layout, recipe, rewriter.getF64FloatAttr(match.scale),
      /*causal=*/nullptr).getResult();
  if (match.unbatched)
    result = tensor::CollapseShapeOp::create(rewriter, loc, result, kUnitBatch);
  rewriter.replaceAllUsesWith(match.result, result);
}

namespace {
/// Raises attention rooted at the P*V contraction of upstream linalg.
struct RaiseLinalgAttention
    : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  RaiseLinalgAttention(MLIRContext *ctx, RecipeAttr recipe)
      : OpInterfaceRewritePattern<linalg::LinalgOp>(ctx), recipe(recipe) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    AttentionMatch match;
    if (failed(matchLinalgAttention(op, match)))
      return rewriter.notifyMatchFailure(op, match.refusal);
    replaceWithAttention(rewriter, op, match, recipe);
    return success();
  }

private:
  RecipeAttr recipe;
};

struct SageRaiseAttentionPass
    : public sage::impl::SageRaiseAttentionBase<SageRaiseAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    std::optional<Variant> parsedVariant = symbolizeVariant(variant);
    if (!parsedVariant) {
      getOperation()->emitError()
          << "unknown variant '" << variant
          << "'; expected int8-fp8, int4-fp8, int8-fp8-f16acc, "
             "int4-fp8-f16acc or nvfp4";
      return signalPassFailure();
    }
    RewritePatternSet patterns(ctx);
    populateRaiseAttentionPatterns(patterns,
                                   RecipeAttr::get(ctx, *parsedVariant));
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (explain)
      explainRefusals();
  }

  /// Says, once per candidate, why attention that is still there was not
  /// raised. Candidates are contractions fed by a softmax.
  void explainRefusals() {
    getOperation()->walk([](linalg::LinalgOp op) {
      AttentionMatch match;
      if (failed(matchLinalgAttention(op, match)) && match.softmax)
        op->emitRemark("not raised to sage.attention: ") << match.refusal;
    });
  }
};
} // namespace

void sage::populateRaiseAttentionPatterns(RewritePatternSet &patterns,
                                          RecipeAttr recipe) {
  patterns.add<RaiseLinalgAttention>(patterns.getContext(), recipe);
}
