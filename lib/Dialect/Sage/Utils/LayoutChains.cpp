//===- LayoutChains.cpp - ops that only re-describe an operand ------------===//

#include "sage/Dialect/Sage/Utils/LayoutChains.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::sage;

static bool isTokensHeadsSwap(Operation *op) {
  auto transpose = dyn_cast<linalg::TransposeOp>(op);
  return transpose && transpose.hasPureTensorSemantics() &&
         transpose.getPermutation() == ArrayRef<int64_t>{0, 2, 1, 3};
}

static bool isBatchHeadsReshape(ArrayRef<ReassociationIndices> groups) {
  return groups.size() >= 2 &&
         llvm::all_of(groups.drop_front(), [](const ReassociationIndices &g) {
           return g.size() == 1;
         });
}

static bool isBatchHeadsReshape(Operation *op) {
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return isBatchHeadsReshape(expand.getReassociationIndices());
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return isBatchHeadsReshape(collapse.getReassociationIndices());
  return false;
}

bool mlir::sage::isLayoutOp(Operation *op) {
  return isTokensHeadsSwap(op) || isBatchHeadsReshape(op);
}

/// The operand of layout op `op` that its result re-describes.
static Value getLayoutInput(Operation *op) {
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op))
    return transpose.getInput();
  return op->getOperand(0);
}

/// Adds layout op `op` to `chain`, unless it is a second transpose or a
/// transpose where none is allowed.
static bool extend(LayoutChain &chain, Operation *op, bool allowSwap) {
  if (isTokensHeadsSwap(op)) {
    if (chain.swapped || !allowSwap)
      return false;
    chain.swapped = true;
  }
  chain.ops.push_back(op);
  return true;
}

LayoutChain mlir::sage::traceLayoutChain(Value value, Value stop,
                                         bool allowSwap, bool singleUse) {
  LayoutChain chain;
  while (value != stop) {
    Operation *op = value.getDefiningOp();
    if (!op || !isLayoutOp(op) || (singleUse && !value.hasOneUse()))
      break;
    if (!extend(chain, op, allowSwap))
      break;
    value = getLayoutInput(op);
  }
  chain.source = value;
  return chain;
}

LayoutChain mlir::sage::traceLayoutUsers(Value value, bool allowSwap) {
  LayoutChain chain;
  chain.source = value;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (!isLayoutOp(user) || getLayoutInput(user) != value)
      break;
    if (!extend(chain, user, allowSwap))
      break;
    value = user->getResult(0);
  }
  return chain;
}
