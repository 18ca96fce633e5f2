//===- SoftmaxCandidates.cpp - attention no form matched ------------------===//
//
// The matchers start from P*V (or a frontend's attention op) and say why
// they refuse what they recognize. A chain they do not recognize at all
// would pass in silence; `explain` also looks from the other end: a
// contraction whose result reaches, through elementwise steps, an exp and
// a reduction (a softmax spelled out, or linalg.softmax) is attention
// that was not raised, and the remark names the first step on the way
// that no matcher reads.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::sage;

/// An arith / math op applied to whole tensors.
static bool isTensorElementwise(Operation *op) {
  return op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect());
}

/// Steps the walk follows: the softmax's own and data movement.
static bool isStep(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic.getNumDpsInits() == 1; // elementwise or a reduction
  return isTensorElementwise(op) ||
         isa<linalg::SoftmaxOp, linalg::BroadcastOp, linalg::TransposeOp,
             linalg::FillOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             tensor::CastOp>(op);
}

/// Whether the step computes exp, in its body or on whole tensors.
static bool computesExp(Operation *op) {
  if (isa<math::ExpOp, math::Exp2Op, linalg::SoftmaxOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && !generic.getBody()->getOps<math::ExpOp>().empty();
}

/// Whether the step reduces (a row max or sum).
static bool reduces(Operation *op) {
  if (isa<linalg::SoftmaxOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() > 0;
}

/// Whole-tensor steps the matchers read (casts, scales, a mask, the
/// softmax's own steps), as they read them inside a linalg.generic.
static bool isReadOnWholeTensors(Operation *op) {
  return isa<arith::ExtFOp, arith::TruncFOp, arith::AddFOp, arith::SelectOp,
             arith::SubFOp, arith::DivFOp, arith::MulFOp, math::ExpOp>(op) ||
         getScaleInput(op->getResult(0)).has_value();
}

std::optional<std::string>
sage::explainUnmatchedSoftmax(Operation *contraction,
                              const llvm::DenseSet<Operation *> &explained) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(contraction);
  if (!linalgOp || !linalg::isaContractionOpInterface(linalgOp) ||
      contraction->getNumResults() != 1)
    return std::nullopt;
  llvm::SetVector<Operation *> visited;
  SmallVector<Operation *> worklist = {contraction};
  bool exp = false, reduction = false;
  Operation *unread = nullptr;
  while (!worklist.empty() && visited.size() < 32) {
    Operation *op = worklist.pop_back_val();
    if (!visited.insert(op))
      continue;
    for (Operation *user : op->getUsers()) {
      if (explained.contains(user))
        return std::nullopt; // a matcher already said why (at P*V)
      if (!isStep(user))
        continue;
      exp |= computesExp(user);
      reduction |= reduces(user);
      if (!unread && isTensorElementwise(user) && !isReadOnWholeTensors(user))
        unread = user;
      worklist.push_back(user);
    }
  }
  if (!exp || !reduction)
    return std::nullopt;
  std::string reason =
      "its result reaches a softmax (an exp and a reduction), but no form "
      "sage reads matches the chain";
  if (unread)
    reason += ": '" + unread->getName().getStringRef().str() +
              "' on whole tensors is no step of a form sage reads";
  return reason;
}
