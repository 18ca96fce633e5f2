//===- WarpLoadMatrices.cpp - sage.warp_load_matrices ---------------------===//
//
// A warp's read of its MMA operand registers, matrix by matrix, from a
// CTA-wide tile (docs/Levels.md, distribute): verifier, effects and
// bufferization (like sage.stage_tile, the op bufferizes itself).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"

using namespace mlir;
using namespace mlir::sage;
using namespace mlir::bufferization;

LogicalResult WarpLoadMatricesOp::verify() {
  auto tile = cast<ShapedType>(getTile().getType());
  VectorType result = getResult().getType();
  if (tile.getRank() != 2)
    return emitOpError() << "expected a 2-D tile, got " << tile;
  Type element = tile.getElementType();
  if (result.getElementType() != element)
    return emitOpError() << "expected a result of the tile's element type "
                         << element << ", got " << result;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16)
    return emitOpError() << "expected 8- or 16-bit elements (four lanes' "
                            "words make a matrix row of 16 bytes), got "
                         << element;
  ArrayRef<int64_t> rows = getRowOffsets(), columns = getColumnOffsets();
  int64_t count = rows.size();
  if (columns.size() != rows.size() || !llvm::is_contained({1, 2, 4}, count))
    return emitOpError() << "expected 1, 2 or 4 matrices, as many row as "
                            "column offsets, got "
                         << rows.size() << " and " << columns.size();
  int64_t words = getElementsPerWord();
  if (result.getNumElements() != count * words)
    return emitOpError() << "expected " << count * words << " elements ("
                         << count << " matrices of a " << words
                         << "-element word a lane), got " << result;
  // A matrix row is 4 words: 16 bytes.
  int64_t rowElements = 4 * words;
  for (auto [q, row, column] : llvm::enumerate(rows, columns)) {
    if (column % rowElements != 0)
      return emitOpError() << "expected column offsets on 16-byte boundaries "
                              "(multiples of "
                           << rowElements << "), got " << column
                           << " for matrix " << q;
    if (row < 0 || column < 0 ||
        (!tile.isDynamicDim(0) && row + 8 > tile.getDimSize(0)) ||
        (!tile.isDynamicDim(1) && column + rowElements > tile.getDimSize(1)))
      return emitOpError() << "matrix " << q << " at offsets (" << row << ", "
                           << column << ") is not inside the tile " << tile;
  }
  return success();
}

void WarpLoadMatricesOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isa<MemRefType>(getTile().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getTileMutable());
}

// On a tensor, a read of a value: it may leave a loop (Q's registers leave
// the K/V loop, sage-promote-tiles).
Speculation::Speculatability WarpLoadMatricesOp::getSpeculatability() {
  return isa<RankedTensorType>(getTile().getType())
             ? Speculation::Speculatable
             : Speculation::NotSpeculatable;
}

bool WarpLoadMatricesOp::bufferizesToMemoryRead(OpOperand &operand,
                                                const AnalysisState &) {
  return &operand == &getTileMutable();
}

bool WarpLoadMatricesOp::bufferizesToMemoryWrite(OpOperand &,
                                                 const AnalysisState &) {
  return false;
}

AliasingValueList WarpLoadMatricesOp::getAliasingValues(OpOperand &,
                                                        const AnalysisState &) {
  return {};
}

LogicalResult WarpLoadMatricesOp::bufferize(RewriterBase &rewriter,
                                            const BufferizationOptions &options,
                                            BufferizationState &state) {
  FailureOr<Value> tile = getBuffer(rewriter, getTile(), options, state);
  if (failed(tile))
    return failure();
  Value loaded = WarpLoadMatricesOp::create(
      rewriter, getLoc(), getResult().getType(), *tile, getRow(), getColumn(),
      getRowOffsetsAttr(), getColumnOffsetsAttr());
  replaceOpWithBufferizedValues(rewriter, *this, loaded);
  return success();
}
