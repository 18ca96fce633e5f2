//===- TileAttention.cpp - quantized attention on tiles -------------------===//
//
// The tile level (docs/Levels.md): sage.quantized_attention becomes an
// scf.forall over (batch, head, Q block) whose body is the K/V loop of
// docs/Algorithm.md sections 1-4 on static tiles, written in sage's own
// building blocks (qmma, mask_scores, online_softmax, quantize, accumulate)
// and upstream linalg for the element-wise steps, then the epilogue of
// section 6. The levels below give every value here a place (registers,
// shared memory) and an instruction; this one fixes only the schedule.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir::sage {
#define GEN_PASS_DEF_SAGETILEATTENTION
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Why the groups of `quant` (the scales of operand `name`) do not fit
/// tiles of `tile` tokens (pass option `option`), or an empty string.
static std::string getGroupMismatch(QuantAttr quant, int64_t tile,
                                    StringRef name, StringRef option) {
  auto mismatch = [&](StringRef what, int64_t extent) {
    return (Twine(name) + " groups of " + Twine(extent) + " tokens (" + what +
            ") do not tile " + option + " = " + Twine(tile))
        .str();
  };
  switch (quant.getGranularity()) {
  case Granularity::PerTensor:
  case Granularity::PerToken:
    return "";
  case Granularity::PerBlock:
  case Granularity::PerThread:
    return tile % quant.getBlock() == 0 ? ""
                                        : mismatch("block", quant.getBlock());
  case Granularity::PerWarp:
    return tile % quant.getWarp() == 0 ? "" : mismatch("warp", quant.getWarp());
  case Granularity::PerChannel:
  case Granularity::Microscale:
    break;
  }
  return (Twine(name) + " scales " +
          stringifyGranularity(quant.getGranularity()) + " are not tiled yet")
      .str();
}

/// The tokens of one of `quant`'s groups (the tile its scales were made
/// for; for Q the smoothing block too), or 64 where its groups have no
/// token block (microscale groups run along the features).
static int64_t getGroupTokens(QuantAttr quant) {
  if (quant.getGranularity() == Granularity::Microscale ||
      quant.getBlock() == 0)
    return 64;
  return quant.getBlock();
}

/// The Q block `tiles` asks for `op`: block-q, or with block-q 0 the
/// tokens of the op's Q groups.
static int64_t getBlockQ(QuantizedAttentionOp op, AttentionTileSizes tiles) {
  return tiles.blockQ != 0 ? tiles.blockQ : getGroupTokens(op.getQQuant());
}

/// The K/V block `tiles` asks for `op`: block-k, or with block-k 0 the
/// tokens of the op's K groups.
static int64_t getBlockK(QuantizedAttentionOp op, AttentionTileSizes tiles) {
  return tiles.blockK != 0 ? tiles.blockK : getGroupTokens(op.getKQuant());
}

/// The keys of one flush of `op`'s f16 P V accumulator: `every` MMAs of k
/// keys (32 for E4M3 P, 16 for f16); 0 with an f32 accumulator (one flush
/// a K/V block).
static int64_t getFlushKeys(QuantizedAttentionOp op) {
  int64_t every = op.getPvAccum().getEvery();
  Type probFormat = op.getPQuant().getElementType();
  if (every == 0 || !probFormat.isIntOrFloat())
    return 0;
  return 256 / probFormat.getIntOrFloatBitWidth() * every;
}

/// Why `op` cannot be tiled with `tiles` (block-q and block-k resolved),
/// or an empty string.
static std::string getTilingBlocker(QuantizedAttentionOp op,
                                    AttentionTileSizes tiles) {
  // Checked by the pass where the blocks are given; from the groups, here.
  if (tiles.blockQ % 16 != 0)
    return (Twine("block-q = ") + Twine(tiles.blockQ) +
            " (the Q block of Q's scales) is not a multiple of 16, the MMA's M")
        .str();
  if (tiles.blockK % 32 != 0)
    return (Twine("block-k = ") + Twine(tiles.blockK) +
            " (the K block of K's scales) is not a multiple of 32, the K of "
            "the FP8 P V MMA")
        .str();
  int64_t dim = op.getQValues().getType().getDimSize(3);
  int64_t valueDim = op.getValueDim();
  if (ShapedType::isDynamic(dim) || ShapedType::isDynamic(valueDim))
    return "tiles need static feature dimensions";
  // V stored for the MMA in groups of 32 8-bit keys (which block-k, a
  // multiple of 32, tiles), in P's key order or ascending (put in P's order
  // where the kernel stages it: sage-store-stage-order).
  if (MmaOrderedAttr layout = op.getVLayoutAttr();
      layout && layout.getK() != 32) {
    std::string reason;
    llvm::raw_string_ostream(reason)
        << "V stored in " << layout
        << " is not tiled yet; the tile level reads 8-bit V stored in "
           "groups of k = 32";
    return reason;
  }
  std::string mismatch =
      getGroupMismatch(op.getQQuant(), tiles.blockQ, "Q", "block-q");
  if (mismatch.empty())
    mismatch = getGroupMismatch(op.getKQuant(), tiles.blockK, "K", "block-k");
  if (!mismatch.empty())
    return mismatch;
  Type probFormat = op.getPQuant().getElementType();
  if (!isa<Float8E4M3FNType, Float16Type>(probFormat)) {
    std::string reason;
    llvm::raw_string_ostream(reason)
        << "P in " << probFormat
        << " is not tiled yet; the tile level implements f8E4M3FN and f16 P";
    return reason;
  }
  // Two-level accumulation: one f16 partial per `every` MMAs of k keys
  // (32 for E4M3 P, 16 for f16), a K/V block holding whole flushes.
  AccumAttr scheme = op.getPvAccum();
  int64_t flushKeys = getFlushKeys(op);
  if (flushKeys != 0 && tiles.blockK % flushKeys != 0)
    return (Twine("an f16 accumulator flushed every ") +
            Twine(scheme.getEvery()) + " MMAs of " +
            Twine(flushKeys / scheme.getEvery()) +
            " keys needs block-k a multiple of " + Twine(flushKeys) + ", got " +
            Twine(tiles.blockK))
        .str();
  // Each flush reads a slice of V^T's tile; the promote level stages slices
  // of a transposed window, not of V stored in MMA order.
  if (flushKeys != 0 && tiles.blockK != flushKeys && op.getVLayout())
    return (Twine("V stored in MMA order is read one f16 flush (") +
            Twine(flushKeys) + " keys) at a time only with block-k = " +
            Twine(flushKeys) + ", got " + Twine(tiles.blockK))
        .str();
  if (op.getQMean() && op.getQQuant().getBlock() != tiles.blockQ)
    return (Twine("Q is smoothed per block of ") +
            Twine(op.getQQuant().getBlock()) + " tokens, so block-q must be " +
            Twine(op.getQQuant().getBlock()) + ", got " + Twine(tiles.blockQ))
        .str();
  // A cluster's CTAs take each K/V block together (docs/Levels.md,
  // "Clusters"): their loops must run the same blocks.
  if (tiles.clusterCtas > 1 && op.getCausal())
    return (Twine("a cluster of ") + Twine(tiles.clusterCtas) +
            " CTAs shares each K/V block, but causal Q blocks see different "
            "K/V blocks; use cluster-ctas = 1")
        .str();
  return "";
}

namespace {
/// Builds the index arithmetic and the tile slices of one attention.
struct TileBuilder {
  OpBuilder &b;
  Location loc;

  // Index arithmetic folds as it is built, so static sizes read as
  // constants.
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value mul(Value lhs, int64_t rhs) {
    return b.createOrFold<arith::MulIOp>(loc, lhs, index(rhs));
  }
  Value add(Value lhs, Value rhs) {
    return b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  }
  Value min(Value lhs, Value rhs) {
    return b.createOrFold<arith::MinSIOp>(loc, lhs, rhs);
  }
  Value max(Value lhs, Value rhs) {
    return b.createOrFold<arith::MaxSIOp>(loc, lhs, rhs);
  }
  Value sub(Value lhs, Value rhs) {
    return b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
  }
  Value divu(Value lhs, Value rhs) {
    return b.createOrFold<arith::DivUIOp>(loc, lhs, rhs);
  }
  Value ceilDiv(Value lhs, int64_t rhs) {
    return b.createOrFold<arith::CeilDivUIOp>(loc, lhs, index(rhs));
  }
  Value dim(Value tensor, int64_t d) {
    return b.createOrFold<tensor::DimOp>(loc, tensor, d);
  }
  /// `affine_map<(r, c) -> (results)>` over a [rows, cols] tile.
  AffineMap tileMap(ArrayRef<AffineExpr> results) {
    return AffineMap::get(2, 0, results, b.getContext());
  }
  /// A scalar constant of `type`.
  Value constant(Type type, double value) {
    if (isa<IntegerType>(type))
      return arith::ConstantOp::create(b, loc,
                                       b.getIntegerAttr(type, int64_t(value)));
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
  }
  /// Columns [first, first + count) of the static 2-D `tile`.
  Value columns(Value tile, int64_t first, int64_t count) {
    auto type = cast<RankedTensorType>(tile.getType());
    return tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get({type.getDimSize(0), count},
                              type.getElementType()),
        tile, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(first)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(type.getDimSize(0)),
                               b.getIndexAttr(count)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  }

  /// A tensor of `shape` filled with `value`.
  Value filled(ArrayRef<int64_t> shape, Type type, double value) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, type);
    return linalg::FillOp::create(b, loc, constant(type, value), empty)
        .getResult(0);
  }

  /// Rows [first, first + count) of the [rows, cols] matrix at (`outer0`,
  /// `outer1`) of a rank-4 tensor, count <= `rows`, padded with zeros to
  /// `rows` rows where `count` may be smaller.
  Value paddedTile(Value source, Value outer0, Value outer1, OpFoldResult first,
                   OpFoldResult count, int64_t rows, int64_t cols) {
    return paddedWindow(source, outer0, outer1, first, count, rows,
                        b.getIndexAttr(0), b.getIndexAttr(cols), cols);
  }

  /// The [rows, cols] window at (`firstRow`, `firstCol`) of the matrix at
  /// (`outer0`, `outer1`) of a rank-4 tensor, `rowCount` x `colCount` of it
  /// read and the rest padded with zeros (no pad where both are whole).
  Value paddedWindow(Value source, Value outer0, Value outer1,
                     OpFoldResult firstRow, OpFoldResult rowCount, int64_t rows,
                     OpFoldResult firstCol, OpFoldResult colCount,
                     int64_t cols) {
    Type element = cast<RankedTensorType>(source.getType()).getElementType();
    auto tileType = RankedTensorType::get({rows, cols}, element);
    auto extent = [](OpFoldResult count, int64_t whole) {
      return getConstantIntValue(count) == whole ? whole : ShapedType::kDynamic;
    };
    auto sliceType = RankedTensorType::get(
        {extent(rowCount, rows), extent(colCount, cols)}, element);
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, sliceType, source,
        ArrayRef<OpFoldResult>{outer0, outer1, firstRow, firstCol},
        ArrayRef<OpFoldResult>{one, one, rowCount, colCount},
        ArrayRef<OpFoldResult>{one, one, one, one});
    if (sliceType == tileType)
      return slice;
    auto padding = [&](OpFoldResult count, int64_t whole) -> OpFoldResult {
      if (getConstantIntValue(count) == whole)
        return zero;
      return sub(index(whole), getValueOrCreateConstantIndexOp(b, loc, count));
    };
    return tensor::PadOp::create(
        b, loc, tileType, slice, ArrayRef<OpFoldResult>{zero, zero},
        ArrayRef<OpFoldResult>{padding(rowCount, rows),
                               padding(colCount, cols)},
        constant(element, 0));
  }

  /// V^T's [valueDim, blockK] tile of keys [first, first + count) of V
  /// stored [batch, heads, keys, features]: a transpose of its window.
  Value valueColumns(Value values, Value outer0, Value outer1, Value first,
                     Value count, int64_t blockK, int64_t valueDim) {
    Value tile =
        paddedTile(values, outer0, outer1, first, count, blockK, valueDim);
    Type element = cast<RankedTensorType>(tile.getType()).getElementType();
    Value init = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{valueDim, blockK}, element);
    return linalg::TransposeOp::create(b, loc, tile, init,
                                       ArrayRef<int64_t>{1, 0})
        .getResult()[0];
  }

  /// V^T's [valueDim, blockK] tile of key block `keyBlock` of V stored in
  /// `layout` ([batch, heads, features, groups, k], MMA positions in
  /// order): the block's groups as [valueDim, positions], zero past the
  /// last group, read at each key's position. Transposed already, and
  /// read in P's key order, the positions are the tile a kernel stages.
  Value storedValueColumns(Value values, MmaOrderedAttr layout, Value outer0,
                           Value outer1, Value keyBlock, int64_t blockK) {
    auto type = cast<RankedTensorType>(values.getType());
    int64_t valueDim = type.getDimSize(2), k = layout.getK();
    int64_t blockGroups = blockK / k;
    Value firstGroup = mul(keyBlock, blockGroups);
    OpFoldResult groupCount = b.getIndexAttr(blockGroups);
    if (type.isDynamicDim(3) || type.getDimSize(3) % blockGroups != 0)
      groupCount = min(index(blockGroups), sub(dim(values, 3), firstGroup));
    std::optional<int64_t> constantCount = getConstantIntValue(groupCount);
    int64_t groups = constantCount ? *constantCount : ShapedType::kDynamic;
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    Value slice = tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get({valueDim, groups, k}, type.getElementType()),
        values, ArrayRef<OpFoldResult>{outer0, outer1, zero, firstGroup, zero},
        ArrayRef<OpFoldResult>{one, one, b.getIndexAttr(valueDim), groupCount,
                               b.getIndexAttr(k)},
        ArrayRef<OpFoldResult>{one, one, one, one, one});
    int64_t positions =
        constantCount ? *constantCount * k : ShapedType::kDynamic;
    Value window = tensor::CollapseShapeOp::create(
        b, loc,
        RankedTensorType::get({valueDim, positions}, type.getElementType()),
        slice, ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    auto tileType =
        RankedTensorType::get({valueDim, blockK}, type.getElementType());
    Value tile = window;
    if (positions != blockK) {
      Value filled =
          mul(getValueOrCreateConstantIndexOp(b, loc, groupCount), k);
      tile = tensor::PadOp::create(
          b, loc, tileType, window, ArrayRef<OpFoldResult>{zero, zero},
          ArrayRef<OpFoldResult>{zero, sub(index(blockK), filled)},
          constant(type.getElementType(), 0));
    }
    // Column `key` of the result is position getPositionOf(key).
    MLIRContext *context = b.getContext();
    AffineExpr row = getAffineDimExpr(0, context),
               key = getAffineDimExpr(1, context);
    return linalg::GenericOp::create(
               b, loc, TypeRange{tileType}, ValueRange{tile},
               ValueRange{tensor::EmptyOp::create(b, loc, tileType.getShape(),
                                                  type.getElementType())},
               ArrayRef<AffineMap>{tileMap({row, layout.getPositionExpr(key)}),
                                   tileMap({row, key})},
               ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                             utils::IteratorType::parallel},
               [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 linalg::YieldOp::create(nested, nestedLoc, args[0]);
               })
        .getResult(0);
  }

  /// The scales of tile `tile` (of `tokens` tokens) of a tensor quantized
  /// with `quant`: the scale rows the tile's groups own, zero-padded where
  /// the last tile is partial.
  Value scaleTile(Value scales, QuantAttr quant, Value outer0, Value outer1,
                  Value tile, int64_t tokens, int64_t features) {
    SmallVector<int64_t> shape = quant.getScaleShape({tokens, features});
    if (quant.getGranularity() == Granularity::PerTensor)
      return paddedTile(scales, outer0, outer1, b.getIndexAttr(0),
                        b.getIndexAttr(1), shape[0], shape[1]);
    Value first = mul(tile, shape[0]);
    // A tile of exactly one block owns whole groups even at the tail.
    bool wholeGroups = quant.getBlock() == tokens &&
                       (quant.getGranularity() == Granularity::PerThread ||
                        quant.getGranularity() == Granularity::PerBlock);
    OpFoldResult count =
        wholeGroups
            ? OpFoldResult(b.getIndexAttr(shape[0]))
            : OpFoldResult(min(index(shape[0]), sub(dim(scales, 2), first)));
    return paddedTile(scales, outer0, outer1, first, count, shape[0], shape[1]);
  }

  /// An element-wise linalg.generic over the [rows, cols] `init` whose
  /// inputs are read through `maps` (the init's map is the identity).
  Value
  elementwise(ValueRange inputs, ArrayRef<AffineMap> maps, Value init,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
    SmallVector<AffineMap> allMaps(maps);
    allMaps.push_back(b.getMultiDimIdentityMap(2));
    return linalg::GenericOp::create(
               b, loc, init.getType(), inputs, init, allMaps,
               {utils::IteratorType::parallel, utils::IteratorType::parallel},
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 linalg::YieldOp::create(nested, nestedLoc,
                                         body(nested, nestedLoc, args));
               })
        .getResult(0);
  }
};

/// The LSE of the Q block's `queryCount` rows from the loop's running max
/// (log2 units) and sum: m ln 2 + ln l, -inf for a row that saw no key (m =
/// -inf, l = 0), plus, with K smoothed, the shift smoothing left in every
/// score of the row, scale * (q - qbar) . mean K (sage.quantized_attention),
/// computed as q . mean K - qbar . mean K: two matrix-vector products of
/// windows, which sage-promote-tiles computes into workgroup memory like
/// dS.
static Value buildLogSumExp(TileBuilder &tb, QuantizedAttentionOp op, Value max,
                            Value sum, Value queryMean, Value batch, Value head,
                            Value kvHead, Value firstQuery, Value queryCount,
                            Value storedCount) {
  OpBuilder &b = tb.b;
  Location loc = tb.loc;
  Type f32 = b.getF32Type();
  int64_t blockQ = cast<RankedTensorType>(max.getType()).getDimSize(0);
  auto rowType = RankedTensorType::get({blockQ}, f32);
  SmallVector<Value> inputs = {max, sum};
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(1));
  Value shift, meanShift;
  if (Value keyMean = op.getKMean()) {
    int64_t dim = op.getQValues().getType().getDimSize(3);
    Value queries = tb.paddedTile(op.getQuery(), batch, head, firstQuery,
                                  queryCount, blockQ, dim);
    Value meanTile = tb.paddedTile(keyMean, batch, kvHead, b.getIndexAttr(0),
                                   b.getIndexAttr(1), 1, dim);
    Value meanK = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({dim}, f32), meanTile,
        ArrayRef<ReassociationIndices>{{0, 1}});
    shift = linalg::MatvecOp::create(b, loc, TypeRange{rowType},
                                     ValueRange{queries, meanK},
                                     ValueRange{tb.filled({blockQ}, f32, 0)})
                .getResult(0);
    inputs.push_back(shift);
    maps.push_back(b.getMultiDimIdentityMap(1));
    if (queryMean) {
      // qbar . mean K, one value every row reads.
      Value meanRow = tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get({1, dim}, f32), queryMean,
          ArrayRef<ReassociationIndices>{{0, 1}});
      meanShift =
          linalg::MatvecOp::create(
              b, loc, TypeRange{RankedTensorType::get({1}, f32)},
              ValueRange{meanRow, meanK}, ValueRange{tb.filled({1}, f32, 0)})
              .getResult(0);
      inputs.push_back(meanShift);
      maps.push_back(AffineMap::get(1, 0, b.getAffineConstantExpr(0)));
    }
  }
  double scale = op.getScale().convertToDouble();
  maps.push_back(b.getMultiDimIdentityMap(1));
  Value lse =
      linalg::GenericOp::create(
          b, loc, rowType, inputs,
          ValueRange{
              tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{blockQ}, f32)},
          maps, {utils::IteratorType::parallel},
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            TileBuilder eb{nb, nl};
            // m is in log2 units: m ln 2 + ln l. One op a statement: the
            // order of ops built in one call's arguments differs between
            // compilers.
            Value logSum = math::LogOp::create(nb, nl, args[1]);
            Value naturalMax =
                arith::MulFOp::create(nb, nl, args[0], eb.constant(f32, M_LN2));
            Value value = arith::AddFOp::create(nb, nl, naturalMax, logSum);
            if (shift) {
              Value rowShift = args[2];
              if (meanShift)
                rowShift = arith::SubFOp::create(nb, nl, rowShift, args[3]);
              Value scaled = arith::MulFOp::create(nb, nl, rowShift,
                                                   eb.constant(f32, scale));
              value = arith::AddFOp::create(nb, nl, value, scaled);
            }
            Value empty =
                arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                      args[1], eb.constant(f32, 0));
            value = arith::SelectOp::create(
                nb, nl, empty,
                eb.constant(f32, -std::numeric_limits<double>::infinity()),
                value);
            linalg::YieldOp::create(nb, nl, value);
          })
          .getResult(0);
  return tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get({ShapedType::kDynamic}, f32), lse,
      ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{storedCount},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// Rewrites one sage.quantized_attention into the tile-level loop nest.
struct TileAttention : public OpRewritePattern<QuantizedAttentionOp> {
  TileAttention(MLIRContext *ctx, AttentionTileSizes tiles)
      : OpRewritePattern<QuantizedAttentionOp>(ctx), tiles(tiles) {}

  LogicalResult matchAndRewrite(QuantizedAttentionOp op,
                                PatternRewriter &rewriter) const override {
    AttentionTileSizes tiles = this->tiles;
    tiles.blockQ = getBlockQ(op, tiles);
    tiles.blockK = getBlockK(op, tiles);
    std::string blocker = getTilingBlocker(op, tiles);
    if (!blocker.empty())
      return rewriter.notifyMatchFailure(op, blocker);
    Location loc = op.getLoc();
    TileBuilder tb{rewriter, loc};
    MLIRContext *ctx = rewriter.getContext();
    Type f32 = rewriter.getF32Type();
    int64_t blockQ = tiles.blockQ, blockK = tiles.blockK;
    int64_t dim = op.getQValues().getType().getDimSize(3);
    int64_t valueDim = op.getValueDim();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());

    Value batches = tb.dim(op.getQValues(), 0);
    Value heads = tb.dim(op.getQValues(), 1);
    Value queries = tb.dim(op.getQValues(), 2);
    Value keys = tb.dim(op.getKValues(), 2);
    Value headRatio = tb.divu(heads, tb.dim(op.getKValues(), 1));
    Value queryBlocks = tb.ceilDiv(queries, blockQ);
    Value keyBlocks = tb.ceilDiv(keys, blockK);
    // A cluster's CTAs are consecutive Q blocks (#gpu.block<x>): the grid
    // has a whole number of clusters, the last one's spare blocks
    // recomputing the last Q block and storing none of it.
    Value gridBlocks = queryBlocks;
    if (tiles.clusterCtas > 1)
      gridBlocks =
          tb.mul(tb.ceilDiv(queryBlocks, tiles.clusterCtas), tiles.clusterCtas);
    // The result is [batch, heads, queries, value features].
    SmallVector<Value> dynamicSizes,
        sizes = {batches, heads, queries, tb.index(valueDim)};
    for (auto [d, size] : llvm::enumerate(sizes))
      if (resultType.isDynamicDim(d))
        dynamicSizes.push_back(size);
    Value result =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), dynamicSizes);
    // The LSE is [batch, heads, queries] f32.
    SmallVector<Value> outs = {result};
    if (Value lse = op.getLse()) {
      auto lseType = cast<RankedTensorType>(lse.getType());
      SmallVector<Value> lseSizes;
      for (int64_t d = 0; d < 3; ++d)
        if (lseType.isDynamicDim(d))
          lseSizes.push_back(sizes[d]);
      outs.push_back(tensor::EmptyOp::create(rewriter, loc, lseType.getShape(),
                                             f32, lseSizes));
    }

    // One workgroup per (batch, head, Q block), as the kernels launch them.
    ArrayAttr mapping = rewriter.getArrayAttr(
        {gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimZ),
         gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimY),
         gpu::GPUBlockMappingAttr::get(ctx, gpu::MappingId::DimX)});
    auto grid = scf::ForallOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{batches, heads, gridBlocks}, outs,
        mapping);
    if (tiles.clusterCtas > 1)
      grid->setAttr(kClusterCtasAttrName,
                    rewriter.getI64IntegerAttr(tiles.clusterCtas));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(grid.getBody());
    Value batch = grid.getInductionVar(0), head = grid.getInductionVar(1);
    Value gridBlock = grid.getInductionVar(2);
    Value queryBlock = gridBlock;
    if (gridBlocks != queryBlocks)
      queryBlock = tb.min(gridBlock, tb.sub(queryBlocks, tb.index(1)));
    Value kvHead = tb.divu(head, headRatio);
    Value firstQuery = tb.mul(queryBlock, blockQ);
    Value queryCount = tb.min(tb.index(blockQ), tb.sub(queries, firstQuery));
    // The rows this grid point stores: none for a spare block, whose
    // first row is then the end of the queries.
    Value storedFirst = firstQuery, storedCount = queryCount;
    if (gridBlocks != queryBlocks) {
      storedFirst = tb.min(tb.mul(gridBlock, blockQ), queries);
      storedCount = tb.min(tb.index(blockQ), tb.sub(queries, storedFirst));
    }

    // The Q tile, its scales and its block mean stay for the whole K/V loop.
    QuantAttr queryQuant = op.getQQuant(), keyQuant = op.getKQuant();
    Value queryTile = tb.paddedTile(op.getQValues(), batch, head, firstQuery,
                                    queryCount, blockQ, dim);
    Value queryScales = tb.scaleTile(op.getQScales(), queryQuant, batch, head,
                                     queryBlock, blockQ, dim);
    Value queryMean;
    if (op.getQMean()) {
      Value mean = tb.paddedTile(op.getQMean(), batch, head, queryBlock,
                                 rewriter.getIndexAttr(1), 1, dim);
      queryMean = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({dim}, f32), mean,
          ArrayRef<ReassociationIndices>{{0, 1}});
    }
    // P V is summed unscaled, as the MMA sums it (an f16 accumulator's
    // range bound holds for P_hat V_hat); delta_V / P_r applies once, in
    // the epilogue (section 6).
    Value unitScale = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(RankedTensorType::get({1, 1}, f32),
                               rewriter.getF32FloatAttr(1.0)));

    // Causal: the last K/V block a row of this Q block sees (row r sees
    // keys <= r + Nk - Nq, or <= r when aligned top-left).
    Value keyBlockEnd = keyBlocks;
    if (op.getCausal()) {
      Value visible = tb.add(firstQuery, tb.index(blockQ));
      if (!isTopLeft(op.getCausalAlignment()))
        visible = tb.add(visible, tb.sub(keys, queries));
      visible = tb.min(tb.max(visible, tb.index(0)), keys);
      keyBlockEnd = tb.ceilDiv(visible, blockK);
    }

    double inf = std::numeric_limits<double>::infinity();
    SmallVector<Value> init = {tb.filled({blockQ, valueDim}, f32, 0),
                               tb.filled({blockQ}, f32, -inf),
                               tb.filled({blockQ}, f32, 0)};
    auto loop = scf::ForOp::create(
        rewriter, loc, tb.index(0), keyBlockEnd, tb.index(1), init,
        [&](OpBuilder &b, Location loc, Value keyBlock, ValueRange carried) {
          TileBuilder lb{b, loc};
          Value firstKey = lb.mul(keyBlock, blockK);
          Value keyCount = lb.min(lb.index(blockK), lb.sub(keys, firstKey));
          Value keyTile = lb.paddedTile(op.getKValues(), batch, kvHead,
                                        firstKey, keyCount, blockK, dim);
          Value keyScales = lb.scaleTile(op.getKScales(), keyQuant, batch,
                                         kvHead, keyBlock, blockK, dim);

          // S = (Q_hat K_hat^T * scales + dS) * scale, dS_j = qbar_i . K_j
          // (section 1; the row-constant qbar_i . mean K is
          // softmax-invariant and dropped), in log2 units (times log2 e):
          // the softmax is base2, one fma and one ex2 a score. dS is the
          // product's initial value, so that a score's dequantization and
          // correction lower to one FMA (sage-distribute-tiles).
          AffineExpr r, c;
          bindDims(b.getContext(), r, c);
          Value scoresInit = lb.filled({blockQ, blockK}, f32, 0);
          if (queryMean) {
            Value rawKeys = lb.paddedTile(op.getKey(), batch, kvHead, firstKey,
                                          keyCount, blockK, dim);
            Value correction =
                linalg::MatvecOp::create(
                    b, loc, TypeRange{RankedTensorType::get({blockK}, f32)},
                    ValueRange{rawKeys, queryMean},
                    ValueRange{lb.filled({blockK}, f32, 0)})
                    .getResult(0);
            scoresInit = lb.elementwise(
                {correction}, {lb.tileMap({c})},
                tensor::EmptyOp::create(b, loc,
                                        ArrayRef<int64_t>{blockQ, blockK}, f32),
                [](OpBuilder &, Location, ValueRange args) { return args[0]; });
          }
          Value scores =
              QMmaOp::create(
                  b, loc, RankedTensorType::get({blockQ, blockK}, f32),
                  queryTile, queryScales, keyTile, keyScales, scoresInit,
                  TypeAttr::get(b.getI32Type()), queryQuant, keyQuant,
                  /*mma=*/MmaAttr())
                  .getResult();
          double log2Scale = op.getScale().convertToDouble() * M_LOG2E;
          // Without an additive mask (which is in the scaled scores' units)
          // the softmax takes the scale as its score_scale, so that a
          // score's scaling and the max's subtraction are one fma; a
          // masked (-inf) score stays -inf, the scale being positive.
          Value mask = op.getMask();
          bool additiveMask = mask && !cast<RankedTensorType>(mask.getType())
                                           .getElementType()
                                           .isInteger(1);
          Value scoreScale;
          Value scaled = scores;
          if (additiveMask || !(log2Scale > 0)) {
            scaled = lb.elementwise(
                {scores}, {lb.tileMap({r, c})},
                tensor::EmptyOp::create(b, loc,
                                        ArrayRef<int64_t>{blockQ, blockK}, f32),
                [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                  return arith::MulFOp::create(
                      nb, nl, args[0],
                      TileBuilder{nb, nl}.constant(f32, log2Scale));
                });
          } else {
            auto factorType = VectorType::get({1}, f32);
            scoreScale = arith::ConstantOp::create(
                b, loc, factorType,
                DenseElementsAttr::get(factorType,
                                       b.getF32FloatAttr(log2Scale)));
          }
          // The mask: an additive one in the scaled scores' units (log2:
          // times log2 e), added; an i1 one puts -inf where it drops the
          // key (as the kernels do, before sage.mask_scores hides padded
          // and causal keys).
          if (mask) {
            auto maskType = cast<RankedTensorType>(mask.getType());
            Value maskBatch = maskType.getDimSize(0) == 1 ? lb.index(0) : batch;
            Value maskHead = maskType.getDimSize(1) == 1 ? lb.index(0) : head;
            Value maskTile =
                lb.paddedWindow(mask, maskBatch, maskHead, firstQuery,
                                queryCount, blockQ, firstKey, keyCount, blockK);
            scaled = lb.elementwise(
                {scaled, maskTile}, {lb.tileMap({r, c}), lb.tileMap({r, c})},
                tensor::EmptyOp::create(b, loc,
                                        ArrayRef<int64_t>{blockQ, blockK}, f32),
                [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
                  TileBuilder nested{nb, nl};
                  Value bias = args[1];
                  if (bias.getType().isInteger(1))
                    return arith::SelectOp::create(
                        nb, nl, bias, args[0],
                        nested.constant(
                            f32, -std::numeric_limits<double>::infinity()));
                  if (bias.getType() != f32)
                    bias = arith::ExtFOp::create(nb, nl, f32, bias);
                  bias = arith::MulFOp::create(nb, nl, bias,
                                               nested.constant(f32, M_LOG2E));
                  return arith::AddFOp::create(nb, nl, args[0], bias);
                });
          }
          Value masked = MaskScoresOp::create(
              b, loc, scaled.getType(), scaled, firstQuery, firstKey, queries,
              keys, op.getCausalAttr(), op.getCausalAlignmentAttr(),
              /*fragment=*/nullptr);

          // P~, m', l', alpha (section 4), m in log2 units; the probs
          // come out as P_r P~, P_r folded into the exponent's offset.
          QuantAttr probQuant = op.getPQuant();
          double probRange = probQuant.getRangeValue();
          auto rowType = RankedTensorType::get({blockQ}, f32);
          auto softmax = OnlineSoftmaxOp::create(
              b, loc, masked.getType(), rowType, rowType, rowType, masked,
              carried[1], carried[2], scoreScale,
              /*fragment=*/nullptr, /*base2=*/true,
              probRange == 1.0 ? nullptr : b.getF64FloatAttr(probRange));
          // P_hat = P_r P~: a static scale, as P~ <= 1 (section 3), applied
          // by the softmax already (bound = range: no multiply).
          auto probs = QuantizeOp::create(
              b, loc,
              RankedTensorType::get({blockQ, blockK},
                                    probQuant.getElementType()),
              RankedTensorType::get(probQuant.getScaleShape({blockQ, blockK}),
                                    probQuant.getScaleType()),
              /*row_scales=*/Type(), softmax.getProbs(), probQuant,
              b.getF64FloatAttr(probRange), /*layout=*/nullptr,
              /*fragment=*/nullptr, /*row_range=*/nullptr);

          // R = P_hat V_hat_j with V as the b operand ([channels, keys]).
          Value valueColumns =
              op.getVLayout()
                  ? lb.storedValueColumns(op.getVValues(), *op.getVLayout(),
                                          batch, kvHead, keyBlock, blockK)
                  : lb.valueColumns(op.getVValues(), batch, kvHead, firstKey,
                                    keyCount, blockK, valueDim);
          AccumAttr scheme = op.getPvAccum();
          Type accType = scheme.getAccType();
          // O = diag(alpha) O + R in the FP32 buffer (two-level), R summed
          // by the MMAs of one flush: the block's keys at once (f32), or
          // each `every` MMAs' keys (f16), the later flushes rescaled by
          // ones (sage.accumulate).
          int64_t flushKeys = getFlushKeys(op);
          if (flushKeys == 0)
            flushKeys = blockK;
          Value out = carried[0];
          for (int64_t first = 0; first < blockK; first += flushKeys) {
            Value flushProbs = probs.getValues();
            Value flushValues = valueColumns;
            if (flushKeys != blockK) {
              flushProbs = lb.columns(flushProbs, first, flushKeys);
              flushValues = lb.columns(flushValues, first, flushKeys);
            }
            Value partial =
                QMmaOp::create(
                    b, loc, RankedTensorType::get({blockQ, valueDim}, accType),
                    flushProbs, unitScale, flushValues, unitScale,
                    lb.filled({blockQ, valueDim}, accType, 0),
                    TypeAttr::get(accType), QuantAttr(), QuantAttr(),
                    /*mma=*/MmaAttr())
                    .getResult();
            Value rescale =
                first == 0 ? softmax.getRescale() : lb.filled({blockQ}, f32, 1);
            out = AccumulateOp::create(b, loc, out.getType(), partial, out,
                                       rescale, scheme, /*fragment=*/nullptr);
          }
          scf::YieldOp::create(
              b, loc,
              ValueRange{out, softmax.getNewMax(), softmax.getNewSum()});
        });

    // O / l * delta_V / P_r (+ mean V) in the output type; rows that see
    // no key are 0 (section 6).
    Value out = loop.getResult(0), sum = loop.getResult(2);
    AffineExpr r, c;
    bindDims(ctx, r, c);
    AffineExpr first = rewriter.getAffineConstantExpr(0);
    // delta_V per channel, or one (f16 V's unit scale).
    bool scalePerChannel =
        op.getVQuant().getGranularity() == Granularity::PerChannel;
    Value valueScales = tb.paddedTile(
        op.getVScales(), batch, kvHead, rewriter.getIndexAttr(0),
        rewriter.getIndexAttr(1), 1, scalePerChannel ? valueDim : 1);
    SmallVector<Value> inputs = {out, sum, valueScales};
    SmallVector<AffineMap> maps = {
        tb.tileMap({r, c}), tb.tileMap({r}),
        tb.tileMap({first, scalePerChannel ? c : first})};
    bool addMean = bool(op.getVMean());
    if (addMean) {
      inputs.push_back(tb.paddedTile(op.getVMean(), batch, kvHead,
                                     rewriter.getIndexAttr(0),
                                     rewriter.getIndexAttr(1), 1, valueDim));
      maps.push_back(tb.tileMap({first, c}));
    }
    double probRange = op.getPQuant().getRangeValue();
    Type outElement = resultType.getElementType();
    Value normalized = tb.elementwise(
        inputs, maps,
        tensor::EmptyOp::create(
            rewriter, loc, ArrayRef<int64_t>{blockQ, valueDim}, outElement),
        [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
          TileBuilder eb{nb, nl};
          Value zero = eb.constant(f32, 0);
          Value value = arith::DivFOp::create(nb, nl, args[0], args[1]);
          Value delta = arith::DivFOp::create(nb, nl, args[2],
                                              eb.constant(f32, probRange));
          value = arith::MulFOp::create(nb, nl, value, delta);
          if (addMean)
            value = arith::AddFOp::create(nb, nl, value, args[3]);
          Value empty = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                              args[1], zero);
          value = arith::SelectOp::create(nb, nl, empty, zero, value);
          if (outElement != f32)
            value = arith::TruncFOp::create(nb, nl, outElement, value);
          return value;
        });
    Value rows = tensor::ExtractSliceOp::create(
        rewriter, loc,
        RankedTensorType::get({ShapedType::kDynamic, valueDim}, outElement),
        normalized,
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0),
                               rewriter.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{storedCount, rewriter.getIndexAttr(valueDim)},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1),
                               rewriter.getIndexAttr(1)});
    Value lseRows;
    if (op.getLse())
      lseRows =
          buildLogSumExp(tb, op, loop.getResult(1), sum, queryMean, batch, head,
                         kvHead, firstQuery, queryCount, storedCount);
    rewriter.setInsertionPointToStart(grid.getTerminator().getBody());
    OpFoldResult one = rewriter.getIndexAttr(1);
    tensor::ParallelInsertSliceOp::create(
        rewriter, loc, rows, grid.getRegionIterArgs()[0],
        ArrayRef<OpFoldResult>{batch, head, storedFirst,
                               rewriter.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{one, one, storedCount,
                               rewriter.getIndexAttr(valueDim)},
        ArrayRef<OpFoldResult>{one, one, one, one});
    if (lseRows)
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, lseRows, grid.getRegionIterArgs()[1],
          ArrayRef<OpFoldResult>{batch, head, storedFirst},
          ArrayRef<OpFoldResult>{one, one, storedCount},
          ArrayRef<OpFoldResult>{one, one, one});
    rewriter.replaceOp(op, grid.getResults());
    return success();
  }

  AttentionTileSizes tiles;
};

struct SageTileAttentionPass
    : public sage::impl::SageTileAttentionBase<SageTileAttentionPass> {
  using Base::Base;

  void runOnOperation() override {
    if (clusterCtas < 1 || clusterCtas > kMaxClusterCtas) {
      getOperation()->emitError()
          << "expected cluster-ctas from 1 to " << kMaxClusterCtas
          << " (the CTAs of a portable cluster), got " << int64_t(clusterCtas);
      return signalPassFailure();
    }
    if (blockQ < 0 || blockQ % 16 != 0 || blockK < 0 || blockK % 32 != 0) {
      getOperation()->emitError()
          << "expected block-q 0 (each op's Q groups) or a positive multiple "
             "of 16 (the MMA's M) and block-k 0 (each op's K groups) or a "
             "positive multiple of 32 (the K of the FP8 P V MMA), got "
             "block-q = "
          << int64_t(blockQ) << ", block-k = " << int64_t(blockK);
      return signalPassFailure();
    }
    AttentionTileSizes tiles{blockQ, blockK, clusterCtas};
    RewritePatternSet patterns(&getContext());
    populateTileAttentionPatterns(patterns, tiles);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Whatever is left could not be tiled: say why.
    WalkResult result = getOperation()->walk([&](QuantizedAttentionOp op) {
      AttentionTileSizes opTiles = tiles;
      opTiles.blockQ = getBlockQ(op, tiles);
      opTiles.blockK = getBlockK(op, tiles);
      op.emitOpError("cannot be tiled: ") << getTilingBlocker(op, opTiles);
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void sage::populateTileAttentionPatterns(RewritePatternSet &patterns,
                                         AttentionTileSizes tiles) {
  patterns.add<TileAttention>(patterns.getContext(), tiles);
}
