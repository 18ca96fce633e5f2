//===- MatrixDescriptors.cpp - sage.matrix_descriptor to its bits ---------===//
//
// The 64-bit shared-memory descriptor of a K-major operand tile without
// swizzle, as wgmma (sm_90a) and tcgen05.mma (sm_100a) read it: the
// address, leading and stride byte offsets in 16-byte units at bits 0, 16
// and 32; tcgen05's fixed version bit 46 (docs/Layouts.md).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
struct MatrixDescriptorToBits : OpRewritePattern<MatrixDescriptorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatrixDescriptorOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(rewriter, loc, value, 64);
    };
    // Shared addresses are below 2^18: 14 bits of 16-byte units.
    Value low = arith::AndIOp::create(rewriter, loc, op.getAddress(),
                                      constant(0x3ffff));
    Value start = arith::ShRUIOp::create(rewriter, loc, low, constant(4));
    int64_t fields = (op.getLeading() >> 4) << 16 | (op.getStride() >> 4) << 32;
    if (op.getMma().getScope() == MmaScope::Tcgen05)
      fields |= int64_t(1) << 46;
    rewriter.replaceOpWithNewOp<arith::OrIOp>(op, start, constant(fields));
    return success();
  }
};
} // namespace

void mlir::sage::populateMatrixDescriptorPatterns(RewritePatternSet &patterns) {
  patterns.add<MatrixDescriptorToBits>(patterns.getContext());
}
