//===- StoreStageOrder.cpp - operands stored as their stages hold them ----===//
//
// After sage-promote-tiles, a window a CTA stages rearranged (a
// sage.stage_tile with an indexing_map: the K-major core matrices a wgmma
// reads through descriptors) is copied piece by piece into the places the
// map sends it. This pass stores each such operand once, before the grid,
// in the order its stages hold it: tile after tile, each tile the bytes
// of its stage (docs/Levels.md, "Operands stored in stage order"). The
// staging then copies a contiguous block as it is, which one bulk copy
// can move, and the operand's out-of-range rows are the zeros the relaid
// copy holds.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGESTORESTAGEORDER
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

namespace {
/// A staged window that is block `block` of an operand defined before the
/// grid: `slice` (of `operand`, unit strides) keeps every element of the
/// operand's dimensions but `blockedDim`, where it starts at `block x
/// blockSize` and holds up to `blockSize` elements (fewer only past the
/// operand's end), and drops the dimensions it takes one element of
/// (batch, head). An optional `collapse` merges its dimensions.
struct BlockWindow {
  tensor::ExtractSliceOp slice;
  tensor::CollapseShapeOp collapse;
  unsigned blockedDim = 0;
  int64_t blockSize = 0;
  Value block;
};
} // namespace

/// Whether `value` is `tensor.dim %operand, %dim`.
static bool isDimOf(Value value, Value operand, unsigned dim) {
  auto dimOp = value.getDefiningOp<tensor::DimOp>();
  std::optional<int64_t> index =
      dimOp ? dimOp.getConstantIndex() : std::nullopt;
  return dimOp && dimOp.getSource() == operand && index == int64_t(dim);
}

/// The block whose first element `offset` is, with blocks of `size`
/// elements: `offset = block x size`.
static Value matchBlockStart(Value offset, int64_t size) {
  auto mul = offset.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return nullptr;
  for (auto [block, factor] : {std::pair(mul.getLhs(), mul.getRhs()),
                               std::pair(mul.getRhs(), mul.getLhs())})
    if (getConstantIntValue(factor) == size)
      return block;
  return nullptr;
}

/// Whether `count` elements from `offset` are `size`, or fewer only where
/// the operand's dimension ends: `min(dim - offset, size)`.
static bool isBlockExtent(OpFoldResult count, Value operand, unsigned dim,
                          Value offset, int64_t size) {
  if (getConstantIntValue(count) == size)
    return true;
  auto countValue = dyn_cast<Value>(count);
  auto min = countValue ? countValue.getDefiningOp<arith::MinSIOp>() : nullptr;
  if (!min)
    return false;
  for (auto [left, bound] : {std::pair(min.getLhs(), min.getRhs()),
                             std::pair(min.getRhs(), min.getLhs())}) {
    auto sub = left.getDefiningOp<arith::SubIOp>();
    if (sub && getConstantIntValue(bound) == size && sub.getRhs() == offset &&
        isDimOf(sub.getLhs(), operand, dim))
      return true;
  }
  return false;
}

/// `source` as a block window of an operand defined before `grid`, or
/// nothing.
static std::optional<BlockWindow>
matchBlockWindow(Value source, Operation *grid, DominanceInfo &dominance) {
  BlockWindow window;
  window.collapse = source.getDefiningOp<tensor::CollapseShapeOp>();
  if (window.collapse) {
    // Each merged group's inner sizes must be static to split a position.
    RankedTensorType expanded = window.collapse.getSrcType();
    for (ReassociationIndices group : window.collapse.getReassociationIndices())
      for (int64_t d : ArrayRef(group).drop_front())
        if (expanded.isDynamicDim(d))
          return std::nullopt;
    source = window.collapse.getSrc();
  }
  window.slice = source.getDefiningOp<tensor::ExtractSliceOp>();
  if (!window.slice || !window.slice.hasUnitStride())
    return std::nullopt;
  Value operand = window.slice.getSource();
  if (!dominance.properlyDominates(operand, grid))
    return std::nullopt;
  auto operandType = cast<RankedTensorType>(operand.getType());
  llvm::SmallBitVector dropped = window.slice.getDroppedDims();
  bool blocked = false;
  for (unsigned d = 0, e = operandType.getRank(); d < e; ++d) {
    if (dropped.test(d))
      continue;
    OpFoldResult offset = window.slice.getMixedOffsets()[d];
    OpFoldResult size = window.slice.getMixedSizes()[d];
    // The whole dimension, of a static size (an element past the window
    // reads index 0 of it, which must exist).
    if (isConstantIntValue(offset, 0) && !operandType.isDynamicDim(d) &&
        operandType.getDimSize(d) > 0 &&
        getConstantIntValue(size) == operandType.getDimSize(d))
      continue;
    // The one dimension cut into blocks.
    auto offsetValue = dyn_cast<Value>(offset);
    if (blocked || !offsetValue)
      return std::nullopt;
    // The block size: a static extent, or the constant of a dynamic one's
    // `min`.
    std::optional<int64_t> blockSize = getConstantIntValue(size);
    if (!blockSize)
      if (auto min = cast<Value>(size).getDefiningOp<arith::MinSIOp>())
        for (Value side : {min.getLhs(), min.getRhs()})
          if (std::optional<int64_t> constant = getConstantIntValue(side))
            blockSize = constant;
    if (!blockSize || *blockSize <= 0)
      return std::nullopt;
    Value block = matchBlockStart(offsetValue, *blockSize);
    if (!block || !isBlockExtent(size, operand, d, offsetValue, *blockSize))
      return std::nullopt;
    blocked = true;
    window.blockedDim = d;
    window.blockSize = *blockSize;
    window.block = block;
  }
  if (!blocked)
    return std::nullopt;
  return window;
}

/// The most points getIndexRanges enumerates.
static constexpr int64_t kMaxEnumeratedPoints = int64_t(1) << 20;

/// The largest value each result of `map` (no symbols) takes over the
/// points of a tile of `shape`, or nothing where a result can be negative
/// or the tile is too large to enumerate. Indices that stay in range need
/// no check: the row a thread reads then varies only where the map does.
static std::optional<SmallVector<int64_t>>
getIndexMaxima(AffineMap map, ArrayRef<int64_t> shape) {
  int64_t points = 1;
  for (int64_t size : shape) {
    if (size <= 0 || points > kMaxEnumeratedPoints / size)
      return std::nullopt;
    points *= size;
  }
  SmallVector<int64_t> maxima(map.getNumResults(), 0);
  SmallVector<int64_t> point(shape.size(), 0);
  for (int64_t i = 0; i < points; ++i) {
    for (int64_t r = shape.size() - 1, rest = i; r >= 0; --r) {
      point[r] = rest % shape[r];
      rest /= shape[r];
    }
    for (auto [maximum, value] : llvm::zip_equal(maxima, map.compose(point))) {
      if (value < 0)
        return std::nullopt;
      maximum = std::max(maximum, value);
    }
  }
  return maxima;
}

/// The operand of `window` stored as `op` stages its blocks: `[the
/// operand's dimensions the window drops..., blocks, the tile's
/// dimensions...]`, element `(o, j, t)` being element `t` of the tile `op`
/// stages from block `j` (the padding past the operand's end).
static Value storeInStageOrder(OpBuilder &b, Location loc, BlockWindow window,
                               StageTileOp op) {
  Value operand = window.slice.getSource();
  auto operandType = cast<RankedTensorType>(operand.getType());
  auto tileType = cast<RankedTensorType>(op.getDest().getType());
  Type element = operandType.getElementType();
  llvm::SmallBitVector dropped = window.slice.getDroppedDims();
  SmallVector<Value> dims;
  for (int64_t d = 0, e = operandType.getRank(); d < e; ++d)
    dims.push_back(b.createOrFold<tensor::DimOp>(loc, operand, d));
  SmallVector<OpFoldResult> sizes;
  for (unsigned d : dropped.set_bits())
    sizes.push_back(getAsOpFoldResult(dims[d]));
  sizes.push_back(b.createOrFold<arith::CeilDivUIOp>(
      loc, dims[window.blockedDim],
      arith::ConstantIndexOp::create(b, loc, window.blockSize)));
  for (int64_t size : tileType.getShape())
    sizes.push_back(b.getIndexAttr(size));
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  unsigned outer = dropped.count(), rank = sizes.size();
  AffineMap map = *op.getIndexingMap();
  std::optional<SmallVector<int64_t>> maxima =
      getIndexMaxima(map, tileType.getShape());
  Value padding = op.getPadding();
  auto stored = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange(), init,
      AffineMap::getMultiDimIdentityMap(rank, b.getContext()),
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange) {
        auto constant = [&](int64_t value) -> Value {
          return arith::ConstantIndexOp::create(nb, nl, value);
        };
        auto less = [&](Value lhs, Value rhs) -> Value {
          return arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ult, lhs,
                                       rhs);
        };
        SmallVector<Value> tile;
        for (unsigned i = outer + 1; i < rank; ++i)
          tile.push_back(linalg::IndexOp::create(nb, nl, i));
        // The window's coordinates of tile element t, then the slice's
        // (a merged position split at the static inner sizes).
        SmallVector<Value> windowIndex;
        for (unsigned r = 0; r < map.getNumResults(); ++r)
          windowIndex.push_back(
              affine::AffineApplyOp::create(nb, nl, map.getSubMap({r}), tile));
        SmallVector<Value> sliceIndex = windowIndex;
        SmallVector<std::optional<int64_t>> sliceMaxima(windowIndex.size());
        if (maxima)
          llvm::copy(*maxima, sliceMaxima.begin());
        if (window.collapse) {
          sliceIndex.clear();
          sliceMaxima.clear();
          RankedTensorType expanded = window.collapse.getSrcType();
          for (auto [r, group] :
               llvm::enumerate(window.collapse.getReassociationIndices())) {
            Value position = windowIndex[r];
            std::optional<int64_t> positionMax =
                maxima ? std::optional((*maxima)[r]) : std::nullopt;
            SmallVector<Value> parts(group.size());
            SmallVector<std::optional<int64_t>> partMaxima(group.size());
            for (size_t k = group.size() - 1; k > 0; --k) {
              int64_t size = expanded.getDimSize(group[k]);
              parts[k] =
                  arith::RemUIOp::create(nb, nl, position, constant(size));
              position =
                  arith::DivUIOp::create(nb, nl, position, constant(size));
              partMaxima[k] = size - 1;
              if (positionMax)
                positionMax = *positionMax / size;
            }
            parts[0] = position;
            partMaxima[0] = positionMax;
            llvm::append_range(sliceIndex, parts);
            llvm::append_range(sliceMaxima, partMaxima);
          }
        }
        // The operand's coordinates, and whether they lie in the window
        // (checked where the tile's points can leave it).
        Value inside;
        auto both = [&](Value condition) {
          inside = inside ? arith::AndIOp::create(nb, nl, inside, condition)
                          : condition;
        };
        auto below = [&](std::optional<int64_t> maximum, int64_t bound) {
          return maximum && *maximum < bound;
        };
        SmallVector<Value> index;
        llvm::SmallBitVector checked(operandType.getRank());
        unsigned kept = 0, outerSeen = 0;
        for (int64_t d = 0, e = operandType.getRank(); d < e; ++d) {
          if (dropped.test(d)) {
            index.push_back(linalg::IndexOp::create(nb, nl, outerSeen++));
            continue;
          }
          std::optional<int64_t> maximum = sliceMaxima[kept];
          Value at = sliceIndex[kept++];
          if (d == window.blockedDim) {
            if (!below(maximum, window.blockSize))
              both(less(at, constant(window.blockSize)));
            Value first = arith::MulIOp::create(
                nb, nl, linalg::IndexOp::create(nb, nl, outer),
                constant(window.blockSize));
            at = arith::AddIOp::create(nb, nl, first, at);
            both(less(at, dims[d]));
            checked.set(d);
          } else if (!below(maximum, operandType.getDimSize(d))) {
            both(less(at, dims[d]));
            checked.set(d);
          }
          index.push_back(at);
        }
        // Past the window: read the first element, write the padding. (The
        // blocked dimension is always checked.)
        Value zero = constant(0);
        for (unsigned d : checked.set_bits())
          index[d] = arith::SelectOp::create(nb, nl, inside, index[d], zero);
        Value value = tensor::ExtractOp::create(nb, nl, operand, index);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, inside, value, padding)
                .getResult());
      });
  return stored.getResult(0);
}

namespace {
struct SageStoreStageOrder
    : public sage::impl::SageStoreStageOrderBase<SageStoreStageOrder> {
  void runOnOperation() override {
    SmallVector<StageTileOp> rearranged;
    getOperation()->walk([&](StageTileOp op) {
      if (op.getResult() && op.getPadding() && !op.isPlainCopy())
        rearranged.push_back(op);
    });
    DominanceInfo dominance(getOperation());
    IRRewriter rewriter(&getContext());
    for (StageTileOp op : rearranged) {
      auto grid = op->getParentOfType<scf::ForallOp>();
      while (grid)
        if (auto outer = grid->getParentOfType<scf::ForallOp>())
          grid = outer;
        else
          break;
      // The stored copy is made before the grid from the operand, the map
      // and the padding alone.
      if (!grid || op.getIndexingMap()->getNumSymbols() != 0 ||
          !dominance.properlyDominates(op.getPadding(), grid))
        continue;
      std::optional<BlockWindow> window =
          matchBlockWindow(op.getSource(), grid, dominance);
      if (!window)
        continue;
      rewriter.setInsertionPoint(grid);
      Value stored = storeInStageOrder(rewriter, op.getLoc(), *window, op);

      // The stage's tile: block `block` of the stored operand, at the
      // window's dropped coordinates, copied as it is.
      rewriter.setInsertionPoint(op);
      auto tileType = cast<RankedTensorType>(op.getDest().getType());
      SmallVector<OpFoldResult> offsets, sizes;
      llvm::SmallBitVector dropped = window->slice.getDroppedDims();
      for (unsigned d : dropped.set_bits())
        offsets.push_back(window->slice.getMixedOffsets()[d]);
      offsets.push_back(window->block);
      sizes.append(offsets.size(), rewriter.getIndexAttr(1));
      for (int64_t size : tileType.getShape()) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(rewriter.getIndexAttr(size));
      }
      SmallVector<OpFoldResult> strides(offsets.size(),
                                        rewriter.getIndexAttr(1));
      Value block = tensor::ExtractSliceOp::create(
          rewriter, op.getLoc(), tileType, stored, offsets, sizes, strides);
      rewriter.replaceOpWithNewOp<StageTileOp>(
          op, op.getResult().getType(), block, op.getPadding(), op.getDest(),
          /*indexing_map=*/AffineMapAttr());
      if (window->collapse && window->collapse->use_empty())
        rewriter.eraseOp(window->collapse);
      if (window->slice->use_empty())
        rewriter.eraseOp(window->slice);
    }
  }
};
} // namespace
