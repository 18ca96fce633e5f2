//===- AttentionFunctions.cpp - functions that are one attention ----------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/Utils/LayoutChains.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::sage;

bool mlir::sage::isAttentionOnlyFunction(func::FuncOp func) {
  if (func.isExternal())
    return false;
  int attentions = 0;
  for (Operation &op : func.getBody().getOps()) {
    if (isa<AttentionOp, QuantizedAttentionOp>(op))
      ++attentions;
    else if (!isLayoutOp(&op) &&
             !isa<SmoothOp, QuantizeOp, tensor::DimOp, tensor::EmptyOp,
                  arith::ConstantOp, func::ReturnOp>(op))
      return false;
  }
  return attentions == 1;
}

bool mlir::sage::holdsAttention(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isa<AttentionOp, QuantizedAttentionOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}
