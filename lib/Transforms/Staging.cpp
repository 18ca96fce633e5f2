//===- Staging.cpp - tiles the promote level puts in workgroup memory -----===//
//
// What sage-promote-tiles and the passes around it ask of CTA-wide tiles
// (docs/Levels.md, L3): whether one lives in workgroup memory, and
// whether one is a gather of another, and which users take any layout.
//
//===----------------------------------------------------------------------===//

#include "Staging.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sage;

bool mlir::sage::isInWorkgroupMemory(Value tile) {
  while (Operation *op = tile.getDefiningOp()) {
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
      return alloc.getMemorySpace() &&
             gpu::GPUDialect::isWorkgroupMemoryAddressSpace(
                 *alloc.getMemorySpace());
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      tile = slice.getSource();
    } else if (auto slice = dyn_cast<tensor::InsertSliceOp>(op)) {
      tile = slice.getDest();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      auto result = cast<OpResult>(tile);
      tile = dps.getDpsInitOperand(result.getResultNumber())->get();
    } else {
      return false;
    }
  }
  return false;
}

/// Whether `expr` is non-negative wherever its dims are, each step too:
/// no negative constant or factor, divisions by positive constants.
static bool isNonNegative(AffineExpr expr) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() >= 0;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return isa<AffineDimExpr>(expr);
  if (expr.getKind() != AffineExprKind::Add &&
      expr.getKind() != AffineExprKind::Mul) {
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (!divisor || divisor.getValue() <= 0)
      return false;
  }
  return isNonNegative(binary.getLHS()) && isNonNegative(binary.getRHS());
}

std::optional<std::pair<AffineMap, Value>>
mlir::sage::getGatherSource(Value tile) {
  auto op = tile.getDefiningOp<linalg::LinalgOp>();
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  // A fill's input is a scalar.
  if (!isa<RankedTensorType>(input->get().getType()) ||
      !op.getMatchingIndexingMap(init).isIdentity())
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getValues().size() != 1 ||
      yield.getValues()[0] != body->getArgument(0))
    return std::nullopt;
  // applyIndexMap divides unsigned.
  AffineMap map = op.getMatchingIndexingMap(input);
  if (!llvm::all_of(map.getResults(), isNonNegative))
    return std::nullopt;
  return std::make_pair(map, input->get());
}

/// `expr` of `dims` as arith ops on indices.
static Value expandIndexExpr(OpBuilder &b, Location loc, AffineExpr expr,
                             ValueRange dims) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dims[dim.getPosition()];
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(b, loc, constant.getValue());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = expandIndexExpr(b, loc, binary.getLHS(), dims);
  Value rhs = expandIndexExpr(b, loc, binary.getRHS(), dims);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return arith::DivUIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::Mod:
    return arith::RemUIOp::create(b, loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return arith::CeilDivUIOp::create(b, loc, lhs, rhs);
  default:
    llvm_unreachable("not a binary affine expression");
  }
}

SmallVector<Value> mlir::sage::applyIndexMap(OpBuilder &b, Location loc,
                                             AffineMap map,
                                             ValueRange indices) {
  SmallVector<Value> results;
  for (AffineExpr expr : map.getResults())
    results.push_back(expandIndexExpr(b, loc, expr, indices));
  return results;
}

bool mlir::sage::hasOffsetMultipleOf(Value buffer, int64_t elements) {
  auto type = cast<MemRefType>(buffer.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  if (!ShapedType::isDynamic(offset))
    return offset % elements == 0;
  auto view = buffer.getDefiningOp<memref::SubViewOp>();
  if (!view || !hasOffsetMultipleOf(view.getSource(), elements))
    return false;
  auto [sourceStrides, sourceOffset] =
      view.getSourceType().getStridesAndOffset();
  for (auto [at, stride] : llvm::zip(view.getMixedOffsets(), sourceStrides)) {
    std::optional<int64_t> constant = getConstantIntValue(at);
    if (constant && *constant == 0)
      continue;
    if (ShapedType::isDynamic(stride))
      return false;
    if (constant ? *constant * stride % elements : stride % elements)
      return false;
  }
  return true;
}

bool mlir::sage::isLayoutFreeTileUser(Operation *user) {
  return isa<StageTileOp, WarpLoadMatricesOp, memref::LoadOp, memref::StoreOp,
             vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
             vector::TransferWriteOp, linalg::LinalgOp, memref::DimOp>(user);
}
