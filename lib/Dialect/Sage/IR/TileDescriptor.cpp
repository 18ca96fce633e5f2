//===- TileDescriptor.cpp - sage.tile_descriptor --------------------------===//
//
// The descriptor through which a wgmma or tcgen05 reads an operand from a
// tile of core matrices (docs/Levels.md, distribute; docs/Layouts.md):
// verifier, effects and bufferization (like sage.warp_load_matrices, the
// op bufferizes itself).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::sage;
using namespace mlir::bufferization;

/// Whether `type`'s memory space is workgroup memory (gpu's attribute, or
/// NVVM's 3 once sage-nvvm-address-spaces renumbered it).
static bool isWorkgroupMemory(MemRefType type) {
  Attribute space = type.getMemorySpace();
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  auto number = dyn_cast_or_null<IntegerAttr>(space);
  return number && number.getInt() == 3;
}

AffineMap TileDescriptorOp::getCoreMatrixMap(MLIRContext *context,
                                             int64_t elementsPerRow) {
  AffineExpr column = getAffineDimExpr(0, context),
             row = getAffineDimExpr(1, context),
             inRow = getAffineDimExpr(2, context);
  return AffineMap::get(3, 0, {row, column * elementsPerRow + inRow}, context);
}

LogicalResult TileDescriptorOp::verify() {
  MmaAttr mma = getMma();
  if (mma.getScope() == MmaScope::Warp)
    return emitOpError() << "describes shared memory for wgmma or tcgen05, "
                            "but its mma is an mma.sync, which reads "
                            "registers";
  auto tile = cast<ShapedType>(getTile().getType());
  Type element = tile.getElementType();
  bool aShared = mma.getASource() == OperandSource::Shared;
  if (element != mma.getB() && !(aShared && element == mma.getA())) {
    InFlightDiagnostic diag = emitOpError()
                              << "expected a tile of an operand the MMA "
                                 "reads from shared memory ("
                              << mma.getB() << " B";
    if (aShared)
      diag << ", " << mma.getA() << " A";
    return diag << "), got " << element;
  }
  unsigned bits = element.getIntOrFloatBitWidth();
  // Sub-byte elements are stored two or more a byte: their addresses are
  // not element offsets times a byte count, which the lowering computes.
  if (bits < 8)
    return emitOpError() << "describes tiles of whole bytes; " << element
                         << " elements (stored " << 8 / bits
                         << " a byte) are not supported yet";
  if (tile.getRank() != 3 || tile.isDynamicDim(1) || tile.isDynamicDim(2) ||
      tile.getDimSize(2) * bits != 128)
    return emitOpError() << "expected a tile of core matrices [K / "
                         << 128 / bits << ", rows, " << 128 / bits
                         << "] (16-byte rows of " << element
                         << ", static), got " << tile;
  std::optional<int64_t> column = getConstantIntValue(getColumn());
  if (column && *column % tile.getDimSize(2) != 0)
    return emitOpError() << "starts at column " << *column
                         << ", which is not on a core matrix's 16-byte "
                            "column (a multiple of "
                         << tile.getDimSize(2) << ")";
  auto buffer = dyn_cast<MemRefType>(tile);
  if (!buffer)
    return success();
  auto [strides, offset] = buffer.getStridesAndOffset();
  if (!isWorkgroupMemory(buffer) || ShapedType::isDynamic(strides[0]) ||
      strides[1] != tile.getDimSize(2) || strides[2] != 1)
    return emitOpError() << "expected a buffer in workgroup memory whose "
                            "16-byte rows are contiguous and one after "
                            "another, at a static column stride, got "
                         << buffer;
  return success();
}

void TileDescriptorOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The MMA reads the tile through the descriptor: no write to it may move
  // past this op.
  if (isa<MemRefType>(getTile().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getTileMutable());
}

// On a tensor, a name of a value: it may leave a loop (Q's descriptors
// leave the K/V loop).
Speculation::Speculatability TileDescriptorOp::getSpeculatability() {
  return isa<RankedTensorType>(getTile().getType())
             ? Speculation::Speculatable
             : Speculation::NotSpeculatable;
}

bool TileDescriptorOp::bufferizesToMemoryRead(OpOperand &operand,
                                              const AnalysisState &) {
  return &operand == &getTileMutable();
}

bool TileDescriptorOp::bufferizesToMemoryWrite(OpOperand &,
                                               const AnalysisState &) {
  return false;
}

AliasingValueList TileDescriptorOp::getAliasingValues(OpOperand &,
                                                      const AnalysisState &) {
  return {};
}

LogicalResult TileDescriptorOp::bufferize(RewriterBase &rewriter,
                                          const BufferizationOptions &options,
                                          BufferizationState &state) {
  FailureOr<Value> tile = getBuffer(rewriter, getTile(), options, state);
  if (failed(tile))
    return failure();
  Value descriptor =
      TileDescriptorOp::create(rewriter, getLoc(), rewriter.getI64Type(), *tile,
                               getRow(), getColumn(), getMma());
  replaceOpWithBufferizedValues(rewriter, *this, descriptor);
  return success();
}
