//===- StageTile.cpp - sage.stage_tile: verifier, effects, bufferization --===//
//
// The promote level's copy of an operand window into a CTA-wide tile
// (docs/Levels.md, L3). The op bufferizes itself: it is the only sage op
// that one-shot bufferization rewrites, and implementing the interface on
// the op keeps it working in every tool that loads the dialect (sage-opt,
// mlir-opt through the plugin) without registering external models.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::sage;
using namespace mlir::bufferization;

LogicalResult StageTileOp::verify() {
  auto source = cast<ShapedType>(getSource().getType());
  auto dest = cast<ShapedType>(getDest().getType());
  bool onTensors = isa<RankedTensorType>(source);
  if (onTensors != isa<RankedTensorType>(dest))
    return emitOpError() << "expected source and dest both tensors or both "
                            "buffers, got "
                         << source << " and " << dest;
  if (onTensors && (!getResult() || getResult().getType() != dest))
    return emitOpError() << "on tensors yields the tile, of dest's type "
                         << dest;
  if (!onTensors) {
    if (getResult())
      return emitOpError() << "on buffers yields nothing";
    if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
            cast<MemRefType>(dest)))
      return emitOpError()
             << "stages into workgroup memory "
                "(#gpu.address_space<workgroup>), got dest of type "
             << dest;
  }
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "expected source and dest of one element type, "
                            "got "
                         << source << " and " << dest;
  if (!dest.hasStaticShape())
    return emitOpError() << "expected a tile of static shape, got " << dest;
  if (getPadding() && getPadding().getType() != dest.getElementType())
    return emitOpError() << "expected padding of the element type "
                         << dest.getElementType() << ", got "
                         << getPadding().getType();
  if (std::optional<AffineMap> map = getIndexingMap()) {
    if (map->getNumDims() != dest.getRank() ||
        map->getNumResults() != source.getRank() || map->getNumSymbols())
      return emitOpError() << "expected an indexing_map from the tile's "
                           << dest.getRank() << " indices to the window's "
                           << source.getRank() << ", got "
                           << getIndexingMapAttr();
    // Which tile elements the map sends past the window is known only
    // when the copy runs: they take the padding.
    if (!getPadding())
      return emitOpError() << "needs a padding value with an indexing_map";
    return success();
  }
  if (source.getRank() != dest.getRank())
    return emitOpError() << "expected source and dest of one rank, got "
                         << source << " and " << dest;
  bool whole = source.getShape() == dest.getShape();
  for (auto [window, tile] : llvm::zip(source.getShape(), dest.getShape()))
    if (!ShapedType::isDynamic(window) && window > tile)
      return emitOpError() << "expected a window no larger than the tile "
                           << dest << ", got " << source;
  if (!getPadding() && !whole)
    return emitOpError() << "needs a padding value: the window " << source
                         << " may not fill the tile " << dest;
  return success();
}

void StageTileOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isa<MemRefType>(getSource().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable());
  if (isa<MemRefType>(getDest().getType()))
    effects.emplace_back(MemoryEffects::Write::get(), &getDestMutable());
}

bool StageTileOp::bufferizesToMemoryRead(OpOperand &operand,
                                         const AnalysisState &) {
  return &operand == &getSourceMutable();
}

bool StageTileOp::bufferizesToMemoryWrite(OpOperand &operand,
                                          const AnalysisState &) {
  return &operand == &getDestMutable();
}

AliasingValueList StageTileOp::getAliasingValues(OpOperand &operand,
                                                 const AnalysisState &) {
  if (&operand != &getDestMutable())
    return {};
  return {{getResult(), BufferRelation::Equivalent}};
}

LogicalResult StageTileOp::bufferize(RewriterBase &rewriter,
                                     const BufferizationOptions &options,
                                     BufferizationState &state) {
  FailureOr<Value> source = getBuffer(rewriter, getSource(), options, state);
  if (failed(source))
    return failure();
  FailureOr<Value> dest = getBuffer(rewriter, getDest(), options, state);
  if (failed(dest))
    return failure();
  StageTileOp::create(rewriter, getLoc(), Type(), *source, getPadding(), *dest,
                      getIndexingMapAttr());
  replaceOpWithBufferizedValues(rewriter, *this, *dest);
  return success();
}
