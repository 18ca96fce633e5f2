//===- DecomposeAttention.cpp - sage.attention into its steps -------------===//
//
// One formula step of docs/Algorithm.md per op: K smoothing (section 1), Q
// smoothing with the dS correction (section 1), per-thread INT quantization
// of Q and K (section 2), per-channel E4M3 V (section 3), or NVFP4
// microscaling of all three (section 5), then the online-softmax core
// (sections 4 and 6).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/KernelSchedules.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEDECOMPOSEATTENTION
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Why `op` cannot be decomposed, or an empty string.
static std::string getDecompositionBlocker(AttentionOp op) {
  ArrayRef<DimRole> dims = op.getLayout().getDims();
  bool canonical = (dims.size() == 4 && dims[0] == DimRole::Batch &&
                    dims[1] == DimRole::Heads && dims[2] == DimRole::Tokens &&
                    dims[3] == DimRole::Features) ||
                   (dims.size() == 3 && dims[0] == DimRole::Batch &&
                    dims[1] == DimRole::Tokens && dims[2] == DimRole::Features);
  if (!canonical)
    return "layout " +
           llvm::join(llvm::map_range(dims, stringifyDimRole), ", ") +
           " is not [batch, (heads,) tokens, features]";
  return "";
}

/// [B, N, D] -> [B, 1, N, D] (a unit heads dimension) and back.
static const ReassociationIndices kUnitHeads[] = {{0, 1}, {2}, {3}};

static RankedTensorType withShape(RankedTensorType type,
                                  ArrayRef<int64_t> shape,
                                  Type elementType = {}) {
  return RankedTensorType::get(shape, elementType ? elementType
                                                  : type.getElementType());
}

/// V's quantized `values` ([batch, heads, tokens, features]) stored as the
/// P V MMA reads them (`layout`, docs/Layouts.md): [batch, heads, features,
/// groups, k], position q of group g holding key k g + layout's index at
/// q, zero past the last key.
static Value storeForMma(PatternRewriter &rewriter, Location loc, Value values,
                         MmaOrderedAttr layout) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t k = layout.getK();
  Value tokenDim = arith::ConstantIndexOp::create(rewriter, loc, 2);
  Value tokens = tensor::DimOp::create(rewriter, loc, values, tokenDim);
  Value groupSize = arith::ConstantIndexOp::create(rewriter, loc, k);
  Value groups = arith::CeilDivUIOp::create(rewriter, loc, tokens, groupSize);
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, values);
  OpFoldResult features = sizes[3];
  sizes[2] = features;
  sizes[3] = groups;
  sizes.push_back(rewriter.getIndexAttr(k));
  Type element = type.getElementType();
  Value init = tensor::EmptyOp::create(rewriter, loc, sizes, element);
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr g = getAffineDimExpr(0, ctx), q = getAffineDimExpr(1, ctx);
  AffineMap keyMap = AffineMap::get(2, 0, g * k + layout.getIndexExpr(q));
  auto stored = linalg::GenericOp::create(
      rewriter, loc, init.getType(), ValueRange(), init,
      AffineMap::getMultiDimIdentityMap(5, ctx),
      SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value batch = linalg::IndexOp::create(b, loc, 0);
        Value head = linalg::IndexOp::create(b, loc, 1);
        Value feature = linalg::IndexOp::create(b, loc, 2);
        Value group = linalg::IndexOp::create(b, loc, 3);
        Value position = linalg::IndexOp::create(b, loc, 4);
        Value key = affine::AffineApplyOp::create(b, loc, keyMap,
                                                  ValueRange{group, position});
        Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             key, tokens);
        // Past the last key (only in the last group): read the first key
        // of that group instead, and write zero.
        Value first = affine::AffineApplyOp::create(
            b, loc, AffineMap::get(1, 0, g * k), ValueRange{group});
        Value read = arith::SelectOp::create(b, loc, inside, key, first);
        Value value = tensor::ExtractOp::create(
            b, loc, values, ValueRange{batch, head, read, feature});
        Value zero =
            arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
        Value result = arith::SelectOp::create(b, loc, inside, value, zero);
        linalg::YieldOp::create(b, loc, result);
      });
  return stored.getResult(0);
}

namespace {
struct DecomposeAttention : public OpRewritePattern<AttentionOp> {
  DecomposeAttention(MLIRContext *ctx, AttentionTiles tiles)
      : OpRewritePattern<AttentionOp>(ctx), tiles(tiles) {}

  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    std::string blocker = getDecompositionBlocker(op);
    if (!blocker.empty())
      return rewriter.notifyMatchFailure(op, blocker);
    Location loc = op.getLoc();
    RecipeAttr recipe = op.getRecipe();
    AttentionTiles tiles = this->tiles;
    if (tiles.schedules) {
      int64_t headDim = op.getQuery().getType().getShape().back();
      std::optional<KernelSchedule> schedule = tiles.schedules->lookup(
          {tiles.chip, headDim, op.getCausal(), recipe.getSmoothQ()});
      if (schedule &&
          (!tiles.sequentialSchedules || schedule->isSequential())) {
        tiles.blockQ = schedule->blockQ;
        tiles.blockK = schedule->blockK;
      }
    }
    bool addHeads = op.getLayout().getRank() == 3;
    auto toRank4 = [&](Value value) -> Value {
      if (!addHeads)
        return value;
      auto type = cast<RankedTensorType>(value.getType());
      ArrayRef<int64_t> s = type.getShape();
      return tensor::ExpandShapeOp::create(
          rewriter, loc, withShape(type, {s[0], 1, s[1], s[2]}), value,
          kUnitHeads);
    };
    Value query = toRank4(op.getQuery());
    Value key = toRank4(op.getKey());
    Value value = toRank4(op.getValue());

    // Mean over all tokens (K, V) or over Q blocks.
    auto smooth = [&](Value input, std::optional<int64_t> block) {
      auto type = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> meanShape =
          SmoothOp::getMeanShape(type.getShape(), block);
      IntegerAttr blockAttr =
          block ? rewriter.getI64IntegerAttr(*block) : IntegerAttr();
      return SmoothOp::create(rewriter, loc, type,
                              withShape(type, meanShape, rewriter.getF32Type()),
                              input, blockAttr);
    };
    // Scales are measured, except for per_tensor f16 (int8-fp16's V),
    // which is rounded with the unit scale: a bound equal to its range.
    auto quantize = [&](Value input, QuantAttr quant) {
      auto type = cast<RankedTensorType>(input.getType());
      FloatAttr bound;
      if (quant.getElementType().isF16() &&
          quant.getGranularity() == Granularity::PerTensor)
        bound = rewriter.getF64FloatAttr(quant.getRangeValue());
      return QuantizeOp::create(
          rewriter, loc,
          withShape(type, type.getShape(), quant.getElementType()),
          withShape(type, quant.getScaleShape(type.getShape()),
                    quant.getScaleType()),
          /*row_scales=*/Type(), input, quant, bound, /*layout=*/nullptr,
          /*fragment=*/nullptr, /*row_range=*/nullptr);
    };

    // K: gamma(K) = K - mean(K); the mean is softmax-invariant (section 1).
    Value keyMean, quantKeyInput = key;
    if (recipe.getSmoothK()) {
      SmoothOp smoothed = smooth(key, std::nullopt);
      quantKeyInput = smoothed.getSmoothed();
      keyMean = smoothed.getMean();
    }
    QuantizeOp quantKey =
        quantize(quantKeyInput, recipe.getKeyQuant(tiles.blockK));

    // Q: gamma(Q_i) = Q_i - qbar_i; dS = qbar_i gamma(K_j)^T is added back.
    Value queryMean, quantQueryInput = query;
    if (recipe.getSmoothQ()) {
      SmoothOp smoothed = smooth(query, tiles.blockQ);
      quantQueryInput = smoothed.getSmoothed();
      queryMean = smoothed.getMean();
    }
    QuantizeOp quantQuery = quantize(
        quantQueryInput, recipe.getQueryQuant(tiles.blockQ, tiles.warpQ));

    // V: optional mean removal (O = P gamma(V) + mean(V)), then E4M3 (f16
    // for int8-fp16).
    Value valueMean, quantValueInput = value;
    if (recipe.getSmoothV()) {
      SmoothOp smoothed = smooth(value, std::nullopt);
      quantValueInput = smoothed.getSmoothed();
      valueMean = smoothed.getMean();
    }
    QuantizeOp quantValue = quantize(quantValueInput, recipe.getValueQuant());
    // Stored for the P V MMA where asked and V is 8-bit (k = 32).
    Value values = quantValue.getValues();
    MmaOrderedAttr valueLayout;
    if (tiles.storeValues &&
        recipe.getValueQuant().getElementType().getIntOrFloatBitWidth() == 8) {
      valueLayout =
          MmaOrderedAttr::get(rewriter.getContext(), DimRole::Tokens, 32,
                              tiles.valueOrder, OperandTiling::Rows);
      values = storeForMma(rewriter, loc, values, valueLayout);
    }

    // NVFP4's microscale blocks are not the tiles: the core names them.
    IntegerAttr blockQ, blockK;
    if (recipe.getVariant() == Variant::NvFp4) {
      blockQ = rewriter.getI64IntegerAttr(tiles.blockQ);
      blockK = rewriter.getI64IntegerAttr(tiles.blockK);
    }

    // The core's type is the op's result type (what the verifier checked,
    // possibly more static than Q's), with a unit heads dim for rank 3.
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    ArrayRef<int64_t> r = resultType.getShape();
    RankedTensorType coreType =
        addHeads ? withShape(resultType, {r[0], 1, r[1], r[2]}) : resultType;
    // The LSE is [B, H, Nq]; with K smoothing it needs Q itself (see
    // sage.quantized_attention).
    Type coreLseType;
    Value lseQuery;
    if (Value lse = op.getLse()) {
      ArrayRef<int64_t> c = coreType.getShape();
      coreLseType =
          withShape(cast<RankedTensorType>(lse.getType()), {c[0], c[1], c[2]});
      if (keyMean)
        lseQuery = query;
    }
    auto core = QuantizedAttentionOp::create(
        rewriter, loc, coreType, coreLseType, quantQuery.getValues(),
        quantQuery.getScales(), quantKey.getValues(), quantKey.getScales(),
        values, quantValue.getScales(), queryMean, queryMean ? key : Value(),
        keyMean, valueMean, lseQuery,
        op.getMask() ? toRank4(op.getMask()) : Value(), quantQuery.getQuant(),
        quantKey.getQuant(), recipe.getProbQuant(), quantValue.getQuant(),
        recipe.getPVAccum(), rewriter.getF64FloatAttr(op.getScaleValue()),
        op.getCausalAttr(), op.getCausalAlignmentAttr(), blockQ, blockK,
        valueLayout);
    SmallVector<Value> results = {core.getResult()};
    if (Value lse = core.getLse())
      results.push_back(lse);
    if (addHeads) {
      results[0] = tensor::CollapseShapeOp::create(rewriter, loc, resultType,
                                                   results[0], kUnitHeads);
      if (results.size() > 1)
        results[1] = tensor::CollapseShapeOp::create(
            rewriter, loc, op.getLse().getType(), results[1],
            ArrayRef<ReassociationIndices>{{0, 1}, {2}});
    }
    rewriter.replaceOp(op, results);
    return success();
  }

  AttentionTiles tiles;
};

struct SageDecomposeAttentionPass
    : public sage::impl::SageDecomposeAttentionBase<
          SageDecomposeAttentionPass> {
  using Base::Base;

  /// Reads the tuning table once, not once per operation the pass runs on.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (chip.empty() && !tuningTable.empty())
      return emitError(UnknownLoc::get(ctx))
             << "tuning-table needs chip: its rows are keyed on the chip";
    return ScheduleTable::readOption(ctx, tuningTable, table);
  }

  void runOnOperation() override {
    // The per-thread groups follow the m16n8kX layout: a warp's rows are
    // whole 16-row tiles, a K block whole 8-column tiles.
    if (warpQ <= 0 || warpQ % 16 != 0 || blockQ <= 0 || blockQ % warpQ != 0 ||
        blockK <= 0 || blockK % 8 != 0) {
      getOperation()->emitError()
          << "expected warp-q a positive multiple of 16, block-q a multiple "
             "of warp-q and block-k a positive multiple of 8, got block-q = "
          << int64_t(blockQ) << ", warp-q = " << int64_t(warpQ)
          << ", block-k = " << int64_t(blockK);
      return signalPassFailure();
    }
    std::optional<FragmentOrder> order = symbolizeFragmentOrder(valueOrder);
    if (!order) {
      getOperation()->emitError()
          << "expected value-order accumulator or natural, got '" << valueOrder
          << "'";
      return signalPassFailure();
    }
    AttentionTiles tiles{blockQ,  warpQ,       blockK, chip,
                         nullptr, storeValues, *order, sequentialSchedules};
    if (!chip.empty())
      tiles.schedules = table ? &*table : &ScheduleTable::getBuiltin();
    RewritePatternSet patterns(&getContext());
    populateDecomposeAttentionPatterns(patterns, tiles);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Whatever is left could not be decomposed: say why.
    WalkResult result = getOperation()->walk([](AttentionOp op) {
      op.emitOpError("cannot be decomposed: ") << getDecompositionBlocker(op);
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// The table of `tuning-table`, when one is named.
  std::optional<ScheduleTable> table;
};
} // namespace

void sage::populateDecomposeAttentionPatterns(RewritePatternSet &patterns,
                                              AttentionTiles tiles) {
  patterns.add<DecomposeAttention>(patterns.getContext(), tiles);
}
