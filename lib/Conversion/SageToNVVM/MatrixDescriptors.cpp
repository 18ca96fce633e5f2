//===- MatrixDescriptors.cpp - sage.matrix_descriptor to its bits ---------===//
//
// The 64-bit shared-memory descriptor of a K-major operand tile without
// swizzle, as wgmma (sm_90a) and tcgen05.mma (sm_100a) read it: the
// address, leading and stride byte offsets in 16-byte units at bits 0, 16
// and 32; tcgen05's fixed version bit 46 (docs/Layouts.md). A
// sage.tile_descriptor of a workgroup buffer of core matrices is the
// descriptor of its element's address.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// A tile's descriptor as sage.matrix_descriptor of the address of element
/// (row, column): core matrix column column / c, row `row`, 16 bytes a
/// row; the next 16-byte column is the leading offset, 8 rows the stride.
struct TileDescriptorToMatrixDescriptor : OpRewritePattern<TileDescriptorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TileDescriptorOp op,
                                PatternRewriter &rewriter) const override {
    auto tile = dyn_cast<MemRefType>(op.getTile().getType());
    if (!tile)
      return rewriter.notifyMatchFailure(op, "not bufferized");
    Location loc = op.getLoc();
    int64_t bytes = tile.getElementTypeBitWidth() / 8;
    int64_t columnStride = tile.getStridesAndOffset().first[0];
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    // One op a statement: the IR must not depend on the order in which
    // the host compiler evaluates a call's arguments.
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getTile());
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                                op.getTile());
    Value column = arith::DivUIOp::create(rewriter, loc, op.getColumn(),
                                          index(op.getElementsPerRow()));
    Value columnStart =
        arith::MulIOp::create(rewriter, loc, column, index(columnStride));
    Value rowStart = arith::MulIOp::create(rewriter, loc, op.getRow(),
                                           index(op.getElementsPerRow()));
    Value element =
        arith::AddIOp::create(rewriter, loc, metadata.getOffset(), columnStart);
    element = arith::AddIOp::create(rewriter, loc, element, rowStart);
    Value offset = arith::MulIOp::create(rewriter, loc, element, index(bytes));
    Value address = arith::AddIOp::create(rewriter, loc, base, offset);
    Value address64 = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI64Type(), address);
    IntegerAttr leading = rewriter.getI64IntegerAttr(columnStride * bytes);
    IntegerAttr eightRows = rewriter.getI64IntegerAttr(8 * 16);
    rewriter.replaceOpWithNewOp<MatrixDescriptorOp>(
        op, rewriter.getI64Type(), address64, op.getMma(), leading, eightRows);
    return success();
  }
};
} // namespace

void mlir::sage::populateMatrixDescriptorPatterns(RewritePatternSet &patterns) {
  patterns.add<MatrixDescriptorToBits, TileDescriptorToMatrixDescriptor>(
      patterns.getContext());
}
