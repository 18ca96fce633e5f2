//===- FuseGatheredProducers.cpp - gathers compute what they read ---------===//
//
// The host side's quantizers, then copies that rearrange what they wrote
// (docs/Levels.md, "The statistics and quantizers"): sage-store-stage-order
// stores Q, K and V^T in the order the wgmma stages hold them, V stored for
// the P V MMA before that. Each copy is a linalg.generic that gathers its
// source element by element (tensor.extract at computed indices). Where
// the source is an elementwise linalg.generic read by nothing but such
// gathers, the gather computes the element itself from the producer's
// inputs: one pass over memory instead of a store and a load of every
// quantized byte, and the intermediate tensor is gone.
//
//===----------------------------------------------------------------------===//

#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEFUSEGATHEREDPRODUCERS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Whether `op`'s one result is an elementwise function of its inputs at
/// its indices: every loop parallel, the output indexed by the identity,
/// the output's element unread, and a body of pure ops (reads of other
/// tensors included: tensor.extract is pure).
static bool isElementwiseProducer(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0)
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isIdentity() ||
      !op.getMatchingBlockArgument(init).use_empty())
    return false;
  return llvm::all_of(op.getBody()->without_terminator(),
                      [](Operation &nested) {
                        return nested.getNumRegions() == 0 && isPure(&nested);
                      });
}

/// Whether every use of `op`'s result is a gather on the host side (a
/// tensor.extract outside any grid) or its shape (tensor.dim).
static bool isOnlyGathered(linalg::GenericOp op) {
  return llvm::all_of(op->getResult(0).getUsers(), [](Operation *user) {
    if (isa<tensor::DimOp>(user))
      return true;
    return isa<tensor::ExtractOp>(user) &&
           !user->getParentOfType<scf::ForallOp>();
  });
}

namespace {
/// tensor.extract %producer[indices] -> the producer's body at `indices`,
/// its inputs read at their indexing maps' images of `indices`.
struct FuseProducerIntoGather : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto producer = extract.getTensor().getDefiningOp<linalg::GenericOp>();
    if (!producer || !isElementwiseProducer(producer) ||
        !isOnlyGathered(producer))
      return rewriter.notifyMatchFailure(extract, "not a gathered producer");
    Location loc = extract.getLoc();
    SmallVector<OpFoldResult> point(extract.getIndices());
    IRMapping mapping;
    for (OpOperand *input : producer.getDpsInputOperands()) {
      BlockArgument argument = producer.getMatchingBlockArgument(input);
      Value value = input->get();
      auto shaped = dyn_cast<RankedTensorType>(value.getType());
      if (!shaped) { // A scalar input is its own element.
        mapping.map(argument, value);
        continue;
      }
      AffineMap map = producer.getMatchingIndexingMap(input);
      SmallVector<Value> indices;
      for (AffineExpr result : map.getResults())
        indices.push_back(getValueOrCreateConstantIndexOp(
            rewriter, loc,
            affine::makeComposedFoldedAffineApply(
                rewriter, loc, AffineMap::get(map.getNumDims(), 0, result),
                point)));
      mapping.map(argument,
                  tensor::ExtractOp::create(rewriter, loc, value, indices));
    }
    Block *body = producer.getBody();
    for (Operation &nested : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
        mapping.map(index.getResult(), extract.getIndices()[index.getDim()]);
        continue;
      }
      rewriter.clone(nested, mapping);
    }
    Value element = body->getTerminator()->getOperand(0);
    rewriter.replaceOp(extract, mapping.lookupOrDefault(element));
    return success();
  }
};

/// tensor.dim of a gathered producer's result -> tensor.dim of its output
/// operand (the same shape), so that the producer can go once its
/// elements are all computed where they are gathered.
struct DimOfGatheredProducer : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::DimOp dim,
                                PatternRewriter &rewriter) const override {
    auto producer = dim.getSource().getDefiningOp<linalg::GenericOp>();
    if (!producer || !isElementwiseProducer(producer) ||
        !isOnlyGathered(producer))
      return rewriter.notifyMatchFailure(dim, "not a gathered producer");
    rewriter.modifyOpInPlace(dim, [&] {
      dim.getSourceMutable().assign(producer.getDpsInitOperand(0)->get());
    });
    return success();
  }
};

struct SageFuseGatheredProducersPass
    : public sage::impl::SageFuseGatheredProducersBase<
          SageFuseGatheredProducersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseProducerIntoGather, DimOfGatheredProducer>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
