//===- AccumulatorFragments.cpp - sage ops on MMA accumulator fragments --===//
//
// sage.mask_scores, sage.online_softmax, sage.quantize and sage.accumulate
// on a lane's fragments of an mma.sync accumulator (docs/Levels.md, L4): lane
// (g, t) holds, of an m16nN tile, rows g + 8r and columns (N / 4) t + c;
// element e is row e / (N / 4), column e % (N / 4). The four lanes t = 0..3 of
// a quad share each row, so a row's maximum is reduced over the quad with two
// butterfly shuffles. Sums stay per lane (the op's documented layout); the
// epilogue reduces them once.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::sage;

namespace {
/// Scalar f32 arithmetic as the kernels write it.
struct F32Builder {
  OpBuilder &b;
  Location loc;

  Value constant(double value) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(float(value)));
  }
  Value add(Value lhs, Value rhs) {
    return arith::AddFOp::create(b, loc, lhs, rhs);
  }
  Value sub(Value lhs, Value rhs) {
    return arith::SubFOp::create(b, loc, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  }
  /// lhs * rhs + addend, rounded once (fma.rn.f32): one instruction where
  /// a multiply and an add would be two (the CPU model rounds l and O with
  /// std::fma likewise; docs/Levels.md, L4).
  Value fma(Value lhs, Value rhs, Value addend) {
    return LLVM::FMAOp::create(b, loc, lhs, rhs, addend);
  }
  /// The larger of the two, NaN if either is (max.NaN.f32: one
  /// instruction, where a compare and a select are two).
  Value max(Value lhs, Value rhs) {
    return LLVM::MaximumOp::create(b, loc, lhs, rhs);
  }
  /// 2^x through ex2.approx.ftz.f32, as the SageAttention kernels do.
  Value exp2(Value value) {
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getF32Type(),
               b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"), ValueRange{value})
        .getResult(0);
  }
  /// The maximum over the four lanes of a quad.
  Value maxOverQuad(Value value) {
    for (int64_t mask : {1, 2})
      value =
          max(value, gpu::ShuffleOp::create(b, loc, value, mask,
                                            /*width=*/32, gpu::ShuffleMode::XOR)
                         .getShuffleResult());
    return value;
  }
  SmallVector<Value> elements(Value vector) {
    SmallVector<Value> values;
    for (int64_t i = 0, e = cast<VectorType>(vector.getType()).getNumElements();
         i < e; ++i)
      values.push_back(vector::ExtractOp::create(b, loc, vector, i));
    return values;
  }
  Value vector(ArrayRef<Value> values) {
    return vector::FromElementsOp::create(
        b, loc, VectorType::get({int64_t(values.size())}, b.getF32Type()),
        values);
  }
};

/// The lane's row of accumulator element `index` of a fragment of `mma`.
int64_t getRowOf(MmaAttr mma, int64_t index) {
  int64_t perTile = mma.getM() * mma.getN() / 32;
  return index % perTile / (mma.getN() / 4);
}

struct OnlineSoftmaxOnFragments : OpRewritePattern<OnlineSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OnlineSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(op.getScores().getType()))
      return rewriter.notifyMatchFailure(op, "on tiles");
    MmaAttr mma = *op.getFragment();
    Location loc = op.getLoc();
    F32Builder f{rewriter, loc};
    SmallVector<Value> scores = f.elements(op.getScores());
    SmallVector<Value> max = f.elements(op.getMax());
    SmallVector<Value> sum = f.elements(op.getSum());
    // S = x * scale (score_scale: the lane's positive factor) or x.
    Value scale;
    if (op.getScoreScale())
      scale = vector::ExtractOp::create(rewriter, loc, op.getScoreScale(), 0);
    // exp(y) = 2^(y log2 e) unless the scores are in log2 units already.
    auto exp = [&](Value x) {
      return f.exp2(op.getBase2() ? x : f.mul(x, f.constant(M_LOG2E)));
    };
    Value negInf = f.constant(-std::numeric_limits<double>::infinity());
    // A row with no visible key keeps m = -inf and uses 0 as its
    // reference, so P~ = 0 and alpha = 1, never NaN.
    int64_t rows = int64_t(max.size());
    SmallVector<Value> reference(rows), alpha(rows), newMax(rows);
    for (int64_t row = 0; row < rows; ++row) {
      // The lane's max of x, scaled once (the factor is positive), then
      // the quad's.
      Value rowMax;
      for (auto [i, score] : llvm::enumerate(scores))
        if (getRowOf(mma, i) == row)
          rowMax = rowMax ? f.max(rowMax, score) : score;
      if (scale)
        rowMax = f.mul(rowMax, scale);
      newMax[row] = f.max(max[row], f.maxOverQuad(rowMax));
      Value empty = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OEQ, newMax[row], negInf);
      reference[row] = arith::SelectOp::create(rewriter, loc, empty,
                                               f.constant(0), newMax[row]);
      alpha[row] =
          arith::SelectOp::create(rewriter, loc, empty, f.constant(1),
                                  exp(f.sub(max[row], reference[row])));
    }
    // probs = prob_scale * exp(S - m'). In log2 units that is
    // 2^(x * scale - (m' - log2 prob_scale)): one fma (or subtraction) and
    // one ex2 a score, the offset computed once a row.
    std::optional<double> probScale;
    if (FloatAttr attr = op.getProbScaleAttr())
      probScale = attr.getValueAsDouble();
    double log2ProbScale = std::log2(probScale.value_or(1.0));
    SmallVector<Value> offset(rows);
    for (int64_t row = 0; row < rows; ++row) {
      offset[row] = reference[row];
      if (op.getBase2() && probScale)
        offset[row] = f.sub(offset[row], f.constant(log2ProbScale));
      if (op.getBase2() && scale)
        offset[row] = arith::NegFOp::create(rewriter, loc, offset[row]);
    }
    SmallVector<Value> probs, rowSum(rows);
    for (auto [i, score] : llvm::enumerate(scores)) {
      int64_t row = getRowOf(mma, i);
      Value prob;
      if (op.getBase2()) {
        prob = f.exp2(scale ? f.fma(score, scale, offset[row])
                            : f.sub(score, offset[row]));
      } else {
        Value exponent =
            f.mul(f.sub(scale ? f.mul(score, scale) : score, offset[row]),
                  f.constant(M_LOG2E));
        if (probScale)
          exponent = f.add(exponent, f.constant(log2ProbScale));
        prob = f.exp2(exponent);
      }
      probs.push_back(prob);
      rowSum[row] = rowSum[row] ? f.add(rowSum[row], prob) : prob;
    }
    // l' = alpha l + rowsum(P~): the sum of probs, unscaled once a row.
    SmallVector<Value> newSum;
    for (int64_t row = 0; row < rows; ++row) {
      Value blockSum = rowSum[row];
      if (probScale)
        blockSum = f.mul(blockSum, f.constant(1 / *probScale));
      newSum.push_back(f.fma(sum[row], alpha[row], blockSum));
    }
    rewriter.replaceOp(op, {f.vector(probs), f.vector(newMax), f.vector(newSum),
                            f.vector(alpha)});
    return success();
  }
};

/// Element `index` of `vector` as an element of the first vector holding
/// it, through the vector.shuffles that concatenate the MMA chains'
/// results into a fragment.
static std::pair<Value, int64_t> getElementSource(Value vector, int64_t index) {
  while (auto shuffle = vector.getDefiningOp<vector::ShuffleOp>()) {
    int64_t position = shuffle.getMask()[index];
    int64_t lhsElements = shuffle.getV1VectorType().getNumElements();
    vector = position < lhsElements ? shuffle.getV1() : shuffle.getV2();
    index = position < lhsElements ? position : position - lhsElements;
  }
  return {vector, index};
}

struct AccumulateOnFragments : OpRewritePattern<AccumulateOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AccumulateOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(op.getBuffer().getType()))
      return rewriter.notifyMatchFailure(op, "on tiles");
    MmaAttr mma = *op.getFragment();
    Location loc = op.getLoc();
    F32Builder f{rewriter, loc};
    // Each element's fma goes right after the op that computes its part
    // (an MMA chain of P V) where the buffer and the rescale are defined
    // by then: each chain's fresh accumulator then dies at its chain
    // rather than after the last one (64 f32 registers a lane at D = 128,
    // which ptxas does not reorder away). Elsewhere, at the op.
    DominanceInfo dominance(op->getParentOp());
    // The last fma placed after each producer, so that its fmas keep the
    // elements' order.
    DenseMap<Operation *, Operation *> lastAfter;
    // Sets the insertion point for the fma of `part`; returns the producer
    // it follows, or null where it goes at the op.
    auto insertAfterPart = [&](Value part) -> Operation * {
      Operation *producer = part.getDefiningOp();
      if (producer && producer->getBlock() == op->getBlock() &&
          producer->isBeforeInBlock(op)) {
        Operation *last = lastAfter.lookup(producer);
        Operation *next = (last ? last : producer)->getNextNode();
        if (dominance.properlyDominates(op.getBuffer(), next) &&
            dominance.properlyDominates(op.getRescale(), next)) {
          rewriter.setInsertionPoint(next);
          return producer;
        }
      }
      rewriter.setInsertionPoint(op);
      return nullptr;
    };
    int64_t elements =
        cast<VectorType>(op.getBuffer().getType()).getNumElements();
    SmallVector<Value> result;
    for (int64_t i = 0; i < elements; ++i) {
      auto [part, index] = getElementSource(op.getPartial(), i);
      Operation *producer = insertAfterPart(part);
      Value value = vector::ExtractOp::create(rewriter, loc, part, index);
      // An f16 partial (one flush of SageAttention2++'s delayed
      // buffering) widens exactly, so the fma still rounds once.
      if (value.getType().isF16())
        value =
            arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), value);
      Value buffer =
          vector::ExtractOp::create(rewriter, loc, op.getBuffer(), i);
      Value rescale = vector::ExtractOp::create(rewriter, loc, op.getRescale(),
                                                getRowOf(mma, i));
      result.push_back(f.fma(buffer, rescale, value));
      if (producer)
        lastAfter[producer] = result.back().getDefiningOp();
    }
    rewriter.setInsertionPoint(op);
    rewriter.replaceOp(op, f.vector(result));
    return success();
  }
};
struct MaskScoresOnFragments : OpRewritePattern<MaskScoresOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaskScoresOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(op.getScores().getType()))
      return rewriter.notifyMatchFailure(op, "on tiles");
    MmaAttr mma = *op.getFragment();
    Location loc = op.getLoc();
    F32Builder f{rewriter, loc};
    // Positions in the offsets' type (index or i32).
    Type type = op.getKeys().getType();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(rewriter, loc, type,
                                       rewriter.getIntegerAttr(type, value));
    };
    auto add = [&](Value lhs, Value rhs) -> Value {
      return arith::AddIOp::create(rewriter, loc, lhs, rhs);
    };
    auto compare = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
      return arith::CmpIOp::create(rewriter, loc, predicate, lhs, rhs);
    };
    Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    if (!type.isIndex())
      thread = arith::IndexCastUIOp::create(rewriter, loc, type, thread);
    Value lane = arith::RemUIOp::create(rewriter, loc, thread, constant(32));
    Value group = arith::DivUIOp::create(rewriter, loc, lane, constant(4));
    Value quadLane = arith::RemUIOp::create(rewriter, loc, lane, constant(4));
    int64_t columnsPerLane = mma.getN() / 4,
            perTile = mma.getM() * mma.getN() / 32;
    Value laneColumn = arith::MulIOp::create(rewriter, loc, quadLane,
                                             constant(columnsPerLane));
    // Each comparison puts the lane's one position on the left and what
    // changes with the block on the right, so that nothing per element is
    // loop-invariant: written as key >= keys, LLVM hoisted the lane's
    // 2 x tiles columns out of the K/V loop and kept them live across it
    // (16 i64 values at 64 keys with index positions).
    auto minus = [&](Value value, int64_t amount) -> Value {
      return amount == 0 ? value : add(value, constant(-amount));
    };
    auto sub = [&](Value lhs, Value rhs) -> Value {
      return arith::SubIOp::create(rewriter, loc, lhs, rhs);
    };
    // Key (key offset + c + lane column) is padded iff
    // lane column >= keys - key offset - c.
    Value keysLeft = sub(op.getKeys(), op.getKeyOffset());
    // Key j is right of row i's diagonal iff j > i + shift (sage.mask_scores);
    // row r of the lane is g + 8r of the warp's tile, so iff
    // lane column - g > query offset + shift - key offset + 8r - c.
    Value laneSkew, diagonalBase;
    if (op.getCausal()) {
      laneSkew = sub(laneColumn, group);
      diagonalBase = sub(op.getQueryOffset(), op.getKeyOffset());
      if (!isTopLeft(op.getCausalAlignment()))
        diagonalBase = add(diagonalBase, sub(op.getKeys(), op.getQueries()));
    }
    Value negInf = f.constant(-std::numeric_limits<double>::infinity());
    SmallVector<Value> result;
    for (auto [i, score] : llvm::enumerate(f.elements(op.getScores()))) {
      int64_t tile = int64_t(i) / perTile, e = int64_t(i) % perTile;
      int64_t column = tile * mma.getN() + e % columnsPerLane;
      Value masked = compare(arith::CmpIPredicate::sge, laneColumn,
                             minus(keysLeft, column));
      if (op.getCausal())
        masked = arith::OrIOp::create(
            rewriter, loc, masked,
            compare(arith::CmpIPredicate::sgt, laneSkew,
                    minus(diagonalBase, column - 8 * getRowOf(mma, i))));
      result.push_back(
          arith::SelectOp::create(rewriter, loc, masked, negInf, score));
    }
    rewriter.replaceOp(op, f.vector(result));
    return success();
  }
};
struct QuantizeOnFragments : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(op.getInput().getType()))
      return rewriter.notifyMatchFailure(op, "on tiles");
    if (op.getQuant().getGranularity() == Granularity::Microscale)
      return rewriter.notifyMatchFailure(op, "NVFP4: MicroscaleFragments.cpp");
    Location loc = op.getLoc();
    F32Builder f{rewriter, loc};
    MLIRContext *ctx = getContext();
    // x_hat = x * range / bound, rounded to nearest and saturated, two
    // elements at a time: cvt puts its first operand in the upper byte.
    // (No multiply where the input is in range already: bound = range.)
    double bound = op.getBound()->convertToDouble();
    double ratio = op.getQuant().getRangeValue() / bound;
    Value factor = f.constant(ratio);
    auto scaled = [&](Value x) { return ratio == 1 ? x : f.mul(x, factor); };
    SmallVector<Value> input = f.elements(op.getInput());
    Value scale = f.vector({f.constant(bound / op.getQuant().getRangeValue())});
    auto valuesType = cast<VectorType>(op.getValues().getType());
    // f16: a rounding of each element.
    if (valuesType.getElementType().isF16()) {
      SmallVector<Value> halves;
      for (Value x : input)
        halves.push_back(arith::TruncFOp::create(
            rewriter, loc, rewriter.getF16Type(), scaled(x)));
      rewriter.replaceOp(op, {vector::FromElementsOp::create(
                                  rewriter, loc, valuesType, halves),
                              scale});
      return success();
    }
    SmallVector<Value> pairs;
    for (size_t i = 0; i < input.size(); i += 2) {
      Value low = scaled(input[i]), high = scaled(input[i + 1]);
      pairs.push_back(NVVM::ConvertF32x2ToF8x2Op::create(
          rewriter, loc, rewriter.getI16Type(), high, low,
          NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN),
          NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE),
          rewriter.getBoolAttr(false),
          TypeAttr::get(Float8E4M3FNType::get(ctx))));
    }
    Value packed = vector::FromElementsOp::create(
        rewriter, loc,
        VectorType::get({int64_t(pairs.size())}, rewriter.getI16Type()), pairs);
    Value values = vector::BitCastOp::create(rewriter, loc, valuesType, packed);
    rewriter.replaceOp(op, {values, scale});
    return success();
  }
};
} // namespace

void mlir::sage::populateAccumulatorFragmentPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MaskScoresOnFragments, OnlineSoftmaxOnFragments,
               QuantizeOnFragments, AccumulateOnFragments>(
      patterns.getContext());
}
