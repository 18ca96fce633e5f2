//===- FoldScoreFactors.cpp - a lane's dequantization in its softmax ------===//
//
// Part of sage-distribute-tiles (docs/Levels.md, "The softmax is in base
// 2"). Where a lane's scores share one dequantization factor f (per-thread
// Q and K scales: rows g and g + 8 share Q's, the columns 2 t and 2 t + 1
// of every n-tile K's), the distributed sage.qmma is `x * broadcast(f)`.
// The softmax already multiplies each score by its score_scale c in the
// fma that subtracts the max, so c * f there is one multiply a lane and a
// block instead of one a score. Masks see the raw x: a masked score is
// -inf either way, the factor being positive.
//
//===----------------------------------------------------------------------===//

#include "DistributePatterns.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

#include <limits>

using namespace mlir;
using namespace mlir::sage;

/// The product `x * broadcast(f)` that `scores` is, seen through
/// sage.mask_scores and the scf.if that masks only some blocks (each
/// branch yielding the same product, masked or not); null if none.
static arith::MulFOp getScaledProduct(Value scores) {
  if (auto mask = scores.getDefiningOp<MaskScoresOp>())
    return getScaledProduct(mask.getScores());
  if (auto branch = scores.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(scores).getResultNumber();
    if (!branch.elseBlock())
      return {};
    arith::MulFOp product =
        getScaledProduct(branch.thenYield().getOperand(index));
    if (!product ||
        getScaledProduct(branch.elseYield().getOperand(index)) != product)
      return {};
    return product;
  }
  auto product = scores.getDefiningOp<arith::MulFOp>();
  if (!product || !product.getRhs().getDefiningOp<vector::BroadcastOp>())
    return {};
  return product;
}

/// Whether every use of `value` leads only to `softmax`'s scores, through
/// masks and the yields of the scf.if that selects among them.
static bool reachesOnly(Value value, OnlineSoftmaxOp softmax) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user == softmax.getOperation()) {
      if (use.getOperandNumber() !=
          softmax.getScoresMutable().getOperandNumber())
        return false;
      continue;
    }
    if (auto mask = dyn_cast<MaskScoresOp>(user)) {
      if (!reachesOnly(mask.getResult(), softmax))
        return false;
      continue;
    }
    auto yield = dyn_cast<scf::YieldOp>(user);
    auto branch = yield ? dyn_cast<scf::IfOp>(yield->getParentOp()) : nullptr;
    if (!branch ||
        !reachesOnly(branch.getResult(use.getOperandNumber()), softmax))
      return false;
  }
  return true;
}

void mlir::sage::foldScoreFactorsIntoSoftmax(Operation *root) {
  SmallVector<OnlineSoftmaxOp> softmaxes;
  root->walk([&](OnlineSoftmaxOp softmax) { softmaxes.push_back(softmax); });
  for (OnlineSoftmaxOp softmax : softmaxes) {
    Value scoreScale = softmax.getScoreScale();
    if (!scoreScale || !isa<VectorType>(softmax.getScores().getType()))
      continue;
    arith::MulFOp product = getScaledProduct(softmax.getScores());
    if (!product || !reachesOnly(product.getResult(), softmax))
      continue;
    Value factor =
        product.getRhs().getDefiningOp<vector::BroadcastOp>().getSource();
    if (!factor.getType().isF32())
      continue;
    OpBuilder b(softmax);
    Location loc = softmax.getLoc();
    // A zero factor (a group of zeros, whose products x are 0 too) would
    // turn the softmax's -inf masked scores into NaN: the smallest normal
    // float instead leaves x * c * f = 0.
    auto scaleType = cast<VectorType>(scoreScale.getType());
    Value smallest = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(std::numeric_limits<float>::min()));
    Value positive = arith::MaximumFOp::create(b, loc, factor, smallest);
    Value laneScale = arith::MulFOp::create(
        b, loc, scoreScale,
        vector::BroadcastOp::create(b, loc, scaleType, positive));
    product.getResult().replaceAllUsesWith(product.getLhs());
    product->erase();
    softmax.getScoreScaleMutable().assign(laneScale);
  }
}
