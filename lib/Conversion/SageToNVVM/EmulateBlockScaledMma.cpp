//===- EmulateBlockScaledMma.cpp - NVFP4 mma.sync on any chip -------------===//
//
// A test aid, never a fallback: `sage-emulate-block-scaled-mma` replaces
// each block-scaled `sage.warp_mma` (the NVFP4 m16n8k64 row, sm_120a only)
// by lane arithmetic that computes what the instruction computes from the
// same registers, so that the NVFP4 kernels' quantizers, operand layouts and
// scale registers run, and are checked against the CPU model, on a GPU
// without the instruction (the H200). It models the fragments the kernels
// assume (docs/Mma.md): A register r holds row g + 8 (r % 2) of k = 32
// (r / 2) + 8t + i in nibble i, B register r column g of the same k, A's
// block scales of row g on lane t = 0 and of row g + 8 on t = 1, B's of
// column g on t = 0 (byte b scaling k = 16b .. 16b + 15), D element e
// (row g + 8 (e / 2), column 2t + e % 2). The products are exact in f32;
// each 16-element block is summed, scaled, and added in f32, which need
// not round as the tensor cores do.
//
//===----------------------------------------------------------------------===//

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/Utils/NvFp4.h"
#include "sage/Dialect/Sage/Utils/ScalarBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEEMULATEBLOCKSCALEDMMA
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

namespace {
/// The i32 and f32 arithmetic the emulation is written in, and warp
/// shuffles.
struct Lane : ScalarBuilder {
  /// `value` of lane `source` of the warp.
  Value shuffle(Value value, Value source) {
    return gpu::ShuffleOp::create(b, loc, value, source, i32(32),
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }
  /// E2M1 code (bits 3..0 of `code`) as f32.
  Value decodeE2M1(Value code) { return nvfp4::decodeCode(b, loc, code); }
  /// UE4M3 byte (bits 6..0; the unsigned format has no sign bit) as f32.
  Value decodeE4M3(Value byte) {
    return nvfp4::decodeScale(b, loc, bitAnd(byte, 0x7f));
  }
};

/// The body of the emulating function: D (four f32) from A (four i32), B
/// (two i32), C (four f32) and the scale registers, in the fragments the
/// header describes.
static SmallVector<Value> emulate(Lane &l, ArrayRef<Value> a, ArrayRef<Value> b,
                                  ArrayRef<Value> acc, Value aScales,
                                  Value bScales) {
  OpBuilder &rewriter = l.b;
  Location loc = l.loc;
  Value laneId = arith::IndexCastUIOp::create(
      rewriter, loc, rewriter.getI32Type(),
      gpu::LaneIdOp::create(rewriter, loc, /*upper_bound=*/nullptr));
  Value g = l.shr(laneId, 2), t = l.bitAnd(laneId, 3);
  Value rowLane = l.mul(g, l.i32(4));
  // Rows g and g + 8 (A registers r and r + 1), columns 2t and 2t + 1.
  Value firstColumnLane = l.mul(t, l.i32(8));
  std::array<Value, 2> columnLane = {firstColumnLane,
                                     l.add(firstColumnLane, l.i32(4))};
  std::array<Value, 2> rowScales = {
      l.shuffle(aScales, rowLane),
      l.shuffle(aScales, l.add(rowLane, l.i32(1)))};
  std::array<Value, 2> columnScales = {l.shuffle(bScales, columnLane[0]),
                                       l.shuffle(bScales, columnLane[1])};
  // values[k] of rows (A) and columns (B), k = 32 half + 8 q + i.
  std::array<SmallVector<Value>, 2> rows, columns;
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t q = 0; q < 4; ++q) {
      for (int64_t row = 0; row < 2; ++row) {
        Value word = l.shuffle(a[2 * half + row], l.add(rowLane, l.i32(q)));
        for (int64_t i = 0; i < 8; ++i)
          rows[row].push_back(l.decodeE2M1(l.shr(word, 4 * i)));
      }
      for (int64_t column = 0; column < 2; ++column) {
        Value word = l.shuffle(b[half], l.add(columnLane[column], l.i32(q)));
        for (int64_t i = 0; i < 8; ++i)
          columns[column].push_back(l.decodeE2M1(l.shr(word, 4 * i)));
      }
    }
  SmallVector<Value> result;
  for (int64_t e = 0; e < 4; ++e) {
    int64_t row = e / 2, column = e % 2;
    Value sum = acc[e];
    for (int64_t block = 0; block < 4; ++block) {
      Value blockSum = l.f32(0);
      for (int64_t k = 16 * block; k < 16 * block + 16; ++k)
        blockSum = l.addf(blockSum, l.mulf(rows[row][k], columns[column][k]));
      Value rowScale =
          l.decodeE4M3(l.bitAnd(l.shr(rowScales[row], 8 * block), 0xff));
      Value columnScale =
          l.decodeE4M3(l.bitAnd(l.shr(columnScales[column], 8 * block), 0xff));
      Value scale = l.mulf(rowScale, columnScale);
      sum = l.addf(sum, l.mulf(blockSum, scale));
    }
    result.push_back(sum);
  }
  return result;
}

static constexpr StringLiteral kEmulationName = "sage_emulated_mma_nvfp4";

/// The kernel module's one emulating function (12 registers in, the four
/// accumulators out), created on first use: one copy of the arithmetic,
/// whatever the number of MMAs (inlined, the kernels take minutes to
/// compile), kept out of line.
static func::FuncOp getEmulationFunction(PatternRewriter &rewriter,
                                         Operation *module) {
  SymbolTable symbols(module);
  if (auto existing = symbols.lookup<func::FuncOp>(kEmulationName))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&module->getRegion(0).front());
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  SmallVector<Type> inputs(6, i32);
  inputs.append(4, f32);
  inputs.append(2, i32);
  auto function = func::FuncOp::create(
      rewriter, module->getLoc(), kEmulationName,
      rewriter.getFunctionType(inputs, SmallVector<Type>(4, f32)));
  function.setPrivate();
  function->setAttr("no_inline", rewriter.getUnitAttr());
  Block *body = function.addEntryBlock();
  rewriter.setInsertionPointToStart(body);
  Lane l{{rewriter, module->getLoc()}};
  SmallVector<Value> args(body->getArguments());
  ArrayRef<Value> argRef = args;
  SmallVector<Value> result =
      emulate(l, argRef.take_front(4), argRef.slice(4, 2), argRef.slice(6, 4),
              args[10], args[11]);
  func::ReturnOp::create(rewriter, module->getLoc(), result);
  return function;
}

struct EmulateBlockScaledMma : OpRewritePattern<WarpMmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpMmaOp op,
                                PatternRewriter &rewriter) const override {
    MmaAttr mma = op.getMma();
    if (mma.getScales() != MmaScaleKind::Ue4m3Block16 || op.getScaleSelectors())
      return rewriter.notifyMatchFailure(op, "not an emulated row");
    // (Parsed IR always has one: the builtin module, or the gpu.module.)
    Operation *module = op->getParentWithTrait<OpTrait::SymbolTable>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "no symbol table to hold the "
                                             "emulating function");
    func::FuncOp function = getEmulationFunction(rewriter, module);
    Location loc = op.getLoc();
    auto elements = [&](Value vector, Type element, int64_t count) {
      if (cast<VectorType>(vector.getType()).getElementType() != element)
        vector = vector::BitCastOp::create(
            rewriter, loc, VectorType::get({count}, element), vector);
      SmallVector<Value> result;
      for (int64_t i = 0; i < count; ++i)
        result.push_back(vector::ExtractOp::create(rewriter, loc, vector, i));
      return result;
    };
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> operands = elements(op.getA(), i32, 4);
    llvm::append_range(operands, elements(op.getB(), i32, 2));
    llvm::append_range(operands,
                       elements(op.getAcc(), rewriter.getF32Type(), 4));
    operands.append({op.getAScales(), op.getBScales()});
    auto call = func::CallOp::create(rewriter, loc, function, operands);
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(
        op, op.getAcc().getType(), call.getResults());
    return success();
  }
};

struct SageEmulateBlockScaledMmaPass
    : public sage::impl::SageEmulateBlockScaledMmaBase<
          SageEmulateBlockScaledMmaPass> {
  void runOnOperation() override {
    WalkResult unsupported = getOperation()->walk([](WarpMmaOp op) {
      if (op.getMma().getScales() != MmaScaleKind::Ue4m3Block16 ||
          !op.getScaleSelectors())
        return WalkResult::advance();
      op.emitOpError("is emulated with the default scale selectors only "
                     "(lanes t = 0 and 1)");
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<EmulateBlockScaledMma>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
