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
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

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

/// A divisor of the stride of `type`'s dimension `dim`: the stride where
/// static, else (row-major layouts) the product of the static sizes
/// inside it; 0 where nothing is known.
static int64_t getStrideFactor(MemRefType type, int64_t dim) {
  auto [strides, offset] = type.getStridesAndOffset();
  if (!ShapedType::isDynamic(strides[dim]))
    return strides[dim];
  if (!type.getLayout().isIdentity())
    return 0;
  int64_t factor = 1;
  for (int64_t size : type.getShape().drop_front(dim + 1))
    if (!ShapedType::isDynamic(size))
      factor *= size;
  return factor;
}

/// What the view that defines `buffer` implies of its dimension `dim`'s
/// stride (see getStrideDivisor), 0 where nothing.
static int64_t getViewStrideDivisor(Value buffer, int64_t dim) {
  // A collapsed dimension steps as the innermost non-unit one of its group.
  if (auto view = buffer.getDefiningOp<memref::CollapseShapeOp>()) {
    ReassociationIndices group = view.getReassociationIndices()[dim];
    ArrayRef<int64_t> sizes = view.getSrcType().getShape();
    int64_t inner = group.back();
    for (int64_t source : llvm::reverse(group)) {
      inner = source;
      if (sizes[source] != 1)
        break;
    }
    return getStrideDivisor(view.getSrc(), inner);
  }
  // An expanded dimension steps as its group's source dimension times the
  // sizes inside it in the group.
  if (auto view = buffer.getDefiningOp<memref::ExpandShapeOp>()) {
    SmallVector<ReassociationIndices> groups = view.getReassociationIndices();
    for (auto [source, group] : llvm::enumerate(groups)) {
      if (!llvm::is_contained(group, dim))
        continue;
      int64_t inner = 1;
      for (int64_t expanded : group) {
        if (expanded <= dim)
          continue;
        int64_t size = view.getResultType().getDimSize(expanded);
        if (ShapedType::isDynamic(size))
          return 0;
        inner *= size;
      }
      return getStrideDivisor(view.getSrc(), source) * inner;
    }
  }
  // A subview's dimension steps as its source's, times the subview's step.
  if (auto view = buffer.getDefiningOp<memref::SubViewOp>()) {
    llvm::SmallBitVector dropped = view.getDroppedDims();
    int64_t source = 0;
    for (int64_t kept = -1;; ++source)
      if (!dropped[source] && ++kept == dim)
        break;
    std::optional<int64_t> step =
        getConstantIntValue(view.getMixedStrides()[source]);
    return getStrideDivisor(view.getSource(), source) * (step ? *step : 1);
  }
  return 0;
}

int64_t mlir::sage::getStrideDivisor(Value buffer, int64_t dim) {
  // Both are divisors of the stride, so is their least common multiple.
  int64_t own = getStrideFactor(cast<MemRefType>(buffer.getType()), dim);
  int64_t viewed = getViewStrideDivisor(buffer, dim);
  if (own == 0 || viewed == 0)
    return own + viewed;
  return std::lcm(own, viewed);
}

bool mlir::sage::startsAligned(Value buffer, int64_t bytes) {
  while (Operation *op = buffer.getDefiningOp()) {
    if (auto view = dyn_cast<memref::CollapseShapeOp>(op)) {
      buffer = view.getSrc();
    } else if (auto view = dyn_cast<memref::ExpandShapeOp>(op)) {
      buffer = view.getSrc();
    } else if (auto view = dyn_cast<memref::TransposeOp>(op)) {
      buffer = view.getIn();
    } else if (auto view = dyn_cast<memref::SubViewOp>(op)) {
      MemRefType source = view.getSourceType();
      int64_t bits = source.getElementTypeBitWidth();
      for (auto [dim, offset] : llvm::enumerate(view.getMixedOffsets())) {
        if (isZeroInteger(offset))
          continue;
        std::optional<int64_t> constant = getConstantIntValue(offset);
        int64_t factor = getStrideDivisor(view.getSource(), dim) *
                         (constant ? *constant : 1);
        if (factor == 0 || factor * bits % (8 * bytes))
          return false;
      }
      buffer = view.getSource();
    } else {
      return isa<memref::AllocOp>(op);
    }
  }
  // An argument: its buffer is aligned, its own offset must keep that.
  auto type = cast<MemRefType>(buffer.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  return !ShapedType::isDynamic(offset) &&
         offset * type.getElementTypeBitWidth() % (8 * bytes) == 0;
}

Value mlir::sage::getElementPointer(
    OpBuilder &b, Location loc, Value buffer, unsigned addressSpace,
    llvm::function_ref<Value(memref::ExtractStridedMetadataOp)> at) {
  auto type = cast<MemRefType>(buffer.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  Value element = metadata.getOffset();
  if (at)
    element = arith::AddIOp::create(b, loc, element, at(metadata));
  Value bytes =
      arith::MulIOp::create(b, loc, element,
                            arith::ConstantIndexOp::create(
                                b, loc, type.getElementTypeBitWidth() / 8));
  Value address = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, bytes));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace),
      address);
}

bool mlir::sage::isLayoutFreeTileUser(Operation *user) {
  // A descriptor takes the tile's outer stride and offset from its type;
  // its verifier requires the 16-byte rows to stay contiguous (a padded
  // view would fail it, not give a wrong descriptor).
  return isa<StageTileOp, WarpLoadMatricesOp, TileDescriptorOp, memref::LoadOp,
             memref::StoreOp, vector::LoadOp, vector::StoreOp,
             vector::TransferReadOp, vector::TransferWriteOp, linalg::LinalgOp,
             memref::DimOp>(user);
}
