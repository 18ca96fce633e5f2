//===- MicroscaleFragments.cpp - NVFP4's P on accumulator fragments -------===//
//
// sage.quantize in two levels on a lane's m16n8 accumulator fragments
// (docs/Levels.md, L4; docs/Algorithm.md section 5): P' = P~ / s_row with
// s_row = max(row) / row_range, reduced over the quad, then E2M1 codes of
// P' under a UE4M3 scale a 16-key block. In the accumulator order
// (docs/Layouts.md) block 2h + c of a 64-key chunk holds keys 32h + 8j + 4c
// + {0..3}, j = 0..3: those of tiles 4h .. 4h + 3 that lanes t = 2c and
// 2c + 1 hold, so one lane-pair shuffle meets its maximum, and one more
// brings lanes 0 and 1 the other pair's scale bytes for the A scale
// register.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/Utils/NvFp4.h"
#include "sage/Dialect/Sage/Utils/ScalarBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
/// The scalar ops of the lowering, with the float maximum and the lane
/// shuffles it adds.
struct Scalars : ScalarBuilder {
  /// max.NaN.f32, as the quantizers' maxima (a NaN poisons its block).
  Value maximumf(Value x, Value y) {
    return LLVM::MaximumOp::create(b, loc, x, y);
  }
  Value isZero(Value x) {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, f32(0));
  }
  Value shuffleXor(Value value, int64_t mask) {
    return gpu::ShuffleOp::create(b, loc, value, mask, /*width=*/32,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }
};

struct MicroscaleOnFragments : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<VectorType>(op.getInput().getType()) ||
        op.getQuant().getGranularity() != Granularity::Microscale)
      return rewriter.notifyMatchFailure(op, "not NVFP4 on fragments");
    Location loc = op.getLoc();
    Scalars s{{rewriter, loc}};
    SmallVector<Value> p;
    auto input = cast<VectorType>(op.getInput().getType());
    for (int64_t i = 0; i < input.getNumElements(); ++i)
      p.push_back(vector::ExtractOp::create(rewriter, loc, op.getInput(), i));
    // Element e of a tile is row g + 8 (e / 2), key 2t + e % 2: every warp
    // row of the MMA table is m16n8.
    assert(op.getFragment()->getM() == 16 && op.getFragment()->getN() == 8 &&
           "an m16n8 accumulator fragment");
    auto rowOf = [](int64_t element) { return element % 4 / 2; };

    // Level one: s_row over the quad; P' = 0 for a row of zeros.
    double rowRange = op.getRowRange()->convertToDouble();
    std::array<Value, 2> rowScales;
    for (int64_t row = 0; row < 2; ++row) {
      Value rowMax = s.f32(0);
      for (int64_t i = 0; i < int64_t(p.size()); ++i)
        if (rowOf(i) == row)
          rowMax = s.maximumf(rowMax, p[i]);
      for (int64_t mask = 1; mask < 4; mask *= 2)
        rowMax = s.maximumf(rowMax, s.shuffleXor(rowMax, mask));
      Value zero = s.f32(0);
      Value empty = s.isZero(rowMax);
      rowScales[row] = s.divf(rowMax, s.f32(rowRange));
      Value divisor = s.select(empty, s.f32(1), rowScales[row]);
      for (int64_t i = 0; i < int64_t(p.size()); ++i)
        if (rowOf(i) == row)
          p[i] = s.select(empty, zero, s.divf(p[i], divisor));
    }

    // Level two, per 64-key chunk: the lane's scale bytes of blocks 2h + t
    // / 2 a row (h in bits 8h), then the row's word b0 b1 b2 b3 gathered
    // from the lane pairs (lanes 0 and 1 hold blocks 0 and 2, lanes 2 and
    // 3 blocks 1 and 3).
    Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
    Value threadI32 = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI32Type(), thread);
    Value lane = arith::RemUIOp::create(rewriter, loc, threadI32, s.i32(32));
    Value quadLane = arith::RemUIOp::create(rewriter, loc, lane, s.i32(4));
    Value secondRow = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, quadLane, s.i32(1));
    SmallVector<Value> codes(p.size()), words;
    for (int64_t chunk = 0; chunk < int64_t(p.size()) / 32; ++chunk) {
      std::array<Value, 2> lanePair;
      for (int64_t row = 0; row < 2; ++row) {
        lanePair[row] = s.i32(0);
        for (int64_t h = 0; h < 2; ++h) {
          SmallVector<int64_t> members;
          for (int64_t tile = 8 * chunk + 4 * h; tile < 8 * chunk + 4 * h + 4;
               ++tile)
            for (int64_t e = 2 * row; e < 2 * row + 2; ++e)
              members.push_back(4 * tile + e);
          Value blockMax = s.f32(0);
          SmallVector<Value> block;
          for (int64_t i : members) {
            blockMax = s.maximumf(blockMax, p[i]);
            block.push_back(p[i]);
          }
          blockMax = s.maximumf(blockMax, s.shuffleXor(blockMax, 1));
          nvfp4::Block quantized =
              nvfp4::quantizeBlock(rewriter, loc, blockMax, block);
          for (auto [i, code] : llvm::zip_equal(members, quantized.codes))
            codes[i] = code;
          lanePair[row] =
              s.bitOr(lanePair[row], s.shl(quantized.scaleBits, 8 * h));
        }
      }
      std::array<Value, 2> rowWords;
      for (int64_t row = 0; row < 2; ++row) {
        Value mine = lanePair[row];
        Value other = s.shuffleXor(mine, 2);
        Value block0 = s.bitAnd(mine, 0xff);
        Value block1 = s.shl(s.bitAnd(other, 0xff), 8);
        Value block2 = s.shl(s.bitAnd(mine, 0xff00), 8);
        Value block3 = s.shl(s.bitAnd(other, 0xff00), 16);
        Value low = s.bitOr(block0, block1);
        Value high = s.bitOr(block2, block3);
        rowWords[row] = s.bitOr(low, high);
      }
      words.push_back(s.select(secondRow, rowWords[1], rowWords[0]));
    }

    // The codes as E2M1 elements, the words as their four scale bytes.
    SmallVector<Value> nibbles;
    for (Value code : codes)
      nibbles.push_back(arith::TruncIOp::create(
          rewriter, loc, rewriter.getIntegerType(4), code));
    auto valuesType = cast<VectorType>(op.getValues().getType());
    Value packed = vector::FromElementsOp::create(
        rewriter, loc,
        VectorType::get(valuesType.getShape(), rewriter.getIntegerType(4)),
        nibbles);
    Value values = arith::BitcastOp::create(rewriter, loc, valuesType, packed);
    Value wordVector = vector::FromElementsOp::create(
        rewriter, loc,
        VectorType::get({int64_t(words.size())}, rewriter.getI32Type()), words);
    Value scales = vector::BitCastOp::create(
        rewriter, loc, op.getScales().getType(), wordVector);
    Value rows = vector::FromElementsOp::create(
        rewriter, loc, op.getRowScales().getType(), rowScales);
    rewriter.replaceOp(op, {values, scales, rows});
    return success();
  }
};
} // namespace

void mlir::sage::populateMicroscaleFragmentPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MicroscaleOnFragments>(patterns.getContext());
}
