//===- ScalarMath.cpp - the quantizers' scalar math in a kernel -----------===//
//
// The scalar ops of sage-lower-quantizers' kernels (docs/Levels.md) that
// the upstream conversions would not lower here:
//
// * arith.truncf to E4M3 or E5M2: LLVM has no 8-bit float type. It
//   becomes the cvt that converts a pair, rounding to nearest even and
//   saturating to the largest finite value (where arith.truncf leaves an
//   out-of-range value unspecified), and its low byte.
// * math.absf and math.roundeven on f32: convert-gpu-to-nvvm makes them
//   libdevice calls, which resolve only where a CUDA toolkit's libdevice is
//   found at compile time. They become the LLVM intrinsics, which NVPTX
//   selects as abs.f32 and cvt.rni.f32.f32.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
struct TruncateToFloat8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type format = op.getType();
    if (!isa<Float8E4M3FNType, Float8E5M2Type>(format) ||
        !op.getIn().getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32 to FP8");
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Value zero = arith::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                           rewriter.getF32FloatAttr(0));
    // cvt puts its first operand in the upper byte.
    Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
        rewriter, loc, rewriter.getI16Type(), zero, op.getIn(),
        NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN),
        NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE),
        rewriter.getBoolAttr(false), TypeAttr::get(format));
    Value low =
        arith::TruncIOp::create(rewriter, loc, rewriter.getI8Type(), pair);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, format, low);
    return success();
  }
};
/// `Op` on f32 as a call of the LLVM intrinsic `name`.
template <typename Op> struct ScalarIntrinsic : OpRewritePattern<Op> {
  ScalarIntrinsic(MLIRContext *ctx, StringRef name)
      : OpRewritePattern<Op>(ctx), name(name) {}

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32");
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), op.getType(), rewriter.getStringAttr(name),
        op->getOperands());
    rewriter.replaceOp(op, call.getResults());
    return success();
  }

  std::string name;
};
} // namespace

void mlir::sage::populateScalarMathPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<TruncateToFloat8>(ctx);
  patterns.add<ScalarIntrinsic<math::AbsFOp>>(ctx, "llvm.fabs.f32");
  patterns.add<ScalarIntrinsic<math::RoundEvenOp>>(ctx, "llvm.roundeven.f32");
}
