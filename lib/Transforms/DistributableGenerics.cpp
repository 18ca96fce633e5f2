//===- DistributableGenerics.cpp - generics the lanes compute -------------===//

#include "DistributableGenerics.h"

#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace mlir::sage;

/// A map whose results are loop dimensions or the constant 0.
static bool isProjection(AffineMap map) {
  return map.getNumSymbols() == 0 &&
         llvm::all_of(map.getResults(), [](AffineExpr expr) {
           if (isa<AffineDimExpr>(expr))
             return true;
           auto constant = dyn_cast<AffineConstantExpr>(expr);
           return constant && constant.getValue() == 0;
         });
}

bool mlir::sage::isReadInPlace(linalg::GenericOp op, OpOperand &operand) {
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  return type && type.getShape() == result.getShape() &&
         op.getMatchingIndexingMap(&operand).isIdentity();
}

bool mlir::sage::isDistributableGeneric(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() != 0 ||
      op.getNumResults() == 0)
    return false;
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  if (!result.hasStaticShape())
    return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!isReadInPlace(op, init))
      return false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (type && !isProjection(op.getMatchingIndexingMap(input)))
      return false;
  }
  Block &body = op.getRegion().front();
  for (BlockArgument init :
       body.getArguments().drop_front(op.getNumDpsInputs()))
    if (!init.use_empty())
      return false;
  return llvm::all_of(body.without_terminator(), [](Operation &inner) {
    return OpTrait::hasElementwiseMappableTraits(&inner) &&
           inner.getNumRegions() == 0;
  });
}
