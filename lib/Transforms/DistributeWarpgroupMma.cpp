//===- DistributeWarpgroupMma.cpp - a sage.qmma tile as wgmma chains ------===//
//
// Part of sage-distribute-tiles (docs/Levels.md, distribute), for the
// warpgroup rows of the MMA table (wgmma, sm_90a). A sage.qmma whose
// result is encoded #sage.acc_fragment becomes, in each warpgroup of 64
// rows, one sage.warpgroup_mma per (N tile, K chunk), chained over the
// chunks, committed as one group and waited for, then the scales. The
// wgmma reads B, and A unless A is P, from shared memory through
// descriptors: the operand tiles are gathered into K-major core matrices
// ([K / c, rows, c], c elements a 16-byte row: docs/Layouts.md), which
// sage-promote-tiles stages in workgroup memory, and each MMA names its
// rows of them with sage.tile_descriptor. P comes from the lanes'
// accumulator registers as with mma.sync: a warp's A registers of a wgmma
// are the m16n8kK fragment, and each warp of a wgmma holds its 16 rows of
// the accumulator as m16n8 tiles side by side, so the encoding and the
// ops on it are those of the warp MMA (getWarpFragmentMma).
//
//===----------------------------------------------------------------------===//

#include "DistributePatterns.h"
#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::sage;

/// The rows of a warpgroup MMA: one warpgroup's.
static constexpr int64_t kWarpgroupRows = 64;

/// `tile` ([rows, K], static) as K-major core matrices: [K / c, rows, c],
/// element (r, x) at [x / c, r, x % c], c elements a 16-byte row.
static Value gatherCoreMatrices(OpBuilder &b, Location loc, Value tile) {
  auto type = cast<RankedTensorType>(tile.getType());
  int64_t c = 128 / type.getElementTypeBitWidth();
  int64_t rows = type.getDimSize(0), columns = type.getDimSize(1);
  MLIRContext *context = b.getContext();
  AffineMap input = TileDescriptorOp::getCoreMatrixMap(context, c);
  auto output = AffineMap::getMultiDimIdentityMap(3, context);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{columns / c, rows, c}, type.getElementType());
  auto gather = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{tile}, ValueRange{init},
      ArrayRef<AffineMap>{input, output},
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  return gather.getResult(0);
}

bool mlir::sage::isCoreMatrixOperand(RankedTensorType type) {
  return type.getRank() == 2 && type.hasStaticShape() &&
         type.getDimSize(1) * type.getElementTypeBitWidth() % 128 == 0;
}

/// The A operands of each K chunk of `op`'s wgmmas, passed through the
/// warpgroup's fence: P's registers, taken from the lane's accumulators
/// in `keyOrder`, or (no `keyOrder`) the descriptors of this warpgroup's
/// rows of A's core matrices.
static SmallVector<Value> fenceAOperands(OpBuilder &b, LaneIndices &ix,
                                         QMmaOp op, Value a,
                                         MmaPackedAttr keyOrder) {
  Location loc = op.getLoc();
  MmaAttr mma = op.getMmaAttr();
  int64_t k = mma.getK();
  int64_t chunks = op.getA().getType().getDimSize(1) / k;
  if (keyOrder) {
    SmallVector<Value> registers;
    for (int64_t c = 0; c < chunks; ++c)
      registers.push_back(getProbabilityFragment(b, loc, a, mma, keyOrder, c));
    auto fence = WarpgroupFenceOp::create(
        b, loc, ValueRange(registers).getTypes(), registers);
    return SmallVector<Value>(fence.getResults());
  }
  WarpgroupFenceOp::create(b, loc, TypeRange{}, ValueRange{});
  Value warpgroup = ix.div(ix.warp, kWarpgroupRows / 16);
  Value firstRow = ix.affine(warpgroup, kWarpgroupRows, 0);
  Value aTile = gatherCoreMatrices(b, loc, a);
  SmallVector<Value> descriptors;
  for (int64_t c = 0; c < chunks; ++c)
    descriptors.push_back(TileDescriptorOp::create(
        b, loc, b.getI64Type(), aTile, firstRow, ix.constant(c * k), mma));
  return descriptors;
}

namespace {
struct QMmaToWarpgroupMmas : OpConversionPattern<QMmaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MmaAttr mma = op.getMmaAttr();
    auto resultType =
        getTypeConverter()->convertType<VectorType>(op.getResult().getType());
    if (!mma || mma.getScope() != MmaScope::Warpgroup || !resultType)
      return rewriter.notifyMatchFailure(op, "not a distributed wgmma");
    int64_t n = mma.getN(), k = mma.getK();
    int64_t chunks = op.getA().getType().getDimSize(1) / k;
    int64_t tiles = op.getResult().getType().getDimSize(1) / n;
    // Decided before any op is built: a failing pattern must leave the IR
    // as it was. P from its accumulator registers, in a key order that
    // keeps it in the lane (its warps' m16n8 accumulators, of any MMA);
    // every other operand from core matrices.
    MmaPackedAttr keyOrder;
    if (auto pAcc = dyn_cast_or_null<AccFragmentAttr>(
            op.getA().getType().getEncoding())) {
      FailureOr<MmaPackedAttr> order =
          getProbabilityKeyOrder(op.getContext(), mma);
      if (failed(order) || mma.getASource() != OperandSource::Registers ||
          pAcc.getMma().getM() != 16 || pAcc.getMma().getN() != 8)
        return rewriter.notifyMatchFailure(op, "A not in the lane");
      keyOrder = *order;
    } else if (mma.getASource() != OperandSource::Shared ||
               !isCoreMatrixOperand(
                   cast<RankedTensorType>(adaptor.getA().getType()))) {
      return rewriter.notifyMatchFailure(op, "A not a shared tile");
    }
    if (!isCoreMatrixOperand(cast<RankedTensorType>(adaptor.getB().getType())))
      return rewriter.notifyMatchFailure(op, "B not a shared tile");

    LaneIndices ix(rewriter, loc);
    // B read in P's key order where that permutes the keys: MMA position
    // p of the tile holds key getIndexAt(p).
    Value b = adaptor.getB();
    if (keyOrder && keyOrder.getOrder() == FragmentOrder::Accumulator)
      b = gatherInKeyOrder(rewriter, loc, b, keyOrder);
    Value bTile = gatherCoreMatrices(rewriter, loc, b);
    SmallVector<Value> aOperands =
        fenceAOperands(rewriter, ix, op, adaptor.getA(), keyOrder);

    // Per N tile, the chain over the chunks; the first has no accumulator
    // (D = A B), so nothing writes accumulator registers after the fence.
    auto accType = VectorType::get({kWarpgroupRows * n / 128}, mma.getAcc());
    SmallVector<Value> sums;
    for (int64_t j = 0; j < tiles; ++j) {
      Value acc;
      Value row = ix.constant(j * n);
      for (int64_t c = 0; c < chunks; ++c) {
        Value column = ix.constant(c * k);
        Value bDescriptor = TileDescriptorOp::create(
            rewriter, loc, rewriter.getI64Type(), bTile, row, column, mma);
        acc = WarpgroupMmaOp::create(rewriter, loc, accType, aOperands[c],
                                     bDescriptor, acc, mma);
      }
      sums.push_back(acc);
    }
    // One group, waited for at once (correct before fast); the wait also
    // names P's registers, which the wgmmas read until they complete.
    Value group = WarpgroupCommitOp::create(
        rewriter, loc, WgmmaGroupType::get(rewriter.getContext()), sums);
    SmallVector<Value> waited = sums;
    if (keyOrder)
      llvm::append_range(waited, aOperands);
    auto wait =
        WarpgroupWaitOp::create(rewriter, loc, ValueRange(waited).getTypes(),
                                /*pending=*/0, group, waited);
    replaceWithScaledSum(
        rewriter, ix, op, adaptor.getAcc(), adaptor.getAScales(),
        adaptor.getBScales(),
        concatVectors(rewriter, loc,
                      SmallVector<Value>(wait.getResults().take_front(tiles))),
        resultType);
    return success();
  }
};
} // namespace

void mlir::sage::populateDistributeWarpgroupMmaPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<QMmaToWarpgroupMmas>(converter, patterns.getContext());
}
