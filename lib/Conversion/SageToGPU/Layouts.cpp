//===- Layouts.cpp - the operand layouts the mma.sync kernels read --------===//
//
// Q and K are stored along their features and V along its tokens in an
// operand layout (docs/Layouts.md); the quantize kernels write through it and
// the attention kernel reads through it. Here the layouts are found and
// checked against what these kernels can read.
//
//===----------------------------------------------------------------------===//

#include "SageToGPUInternal.h"

using namespace mlir;
using namespace mlir::sage;

/// The layout `quantize` names, else the widest #sage.mma_packed for
/// `extent` elements of its contraction axis.
static OperandLayoutAttrInterface getLayout(QuantizeOp quantize, DimRole along,
                                            int64_t extent,
                                            FragmentOrder order) {
  if (OperandLayoutAttrInterface layout = quantize.getLayoutAttr())
    return layout;
  return MmaPackedAttr::getWidest(quantize.getContext(), along,
                                  quantize.getQuant().getMmaK(), extent, order);
}

FailureOr<OperandLayouts>
mlir::sage::getOperandLayouts(QuantizedAttentionOp op, QuantizeOp query,
                              QuantizeOp key, QuantizeOp value, int64_t headDim,
                              int64_t blockK) {
  OperandLayouts layouts;
  layouts.queryKey =
      getLayout(query, DimRole::Features, headDim, FragmentOrder::Natural);
  OperandLayoutAttrInterface keyLayout =
      getLayout(key, DimRole::Features, headDim, FragmentOrder::Natural);
  if (layouts.queryKey != keyLayout)
    return op.emitOpError() << "expected Q and K in one layout (both feed "
                               "the Q K^T contraction), got "
                            << layouts.queryKey << " and " << keyLayout;
  if (layouts.queryKey.getContractionAxis() != DimRole::Features)
    return op.emitOpError() << "expected the Q and K layout along features, "
                               "got "
                            << layouts.queryKey;
  // The quantizer packs four adjacent channels into one 32-bit store.
  for (int64_t c = 0; c < layouts.queryKey.getPaddedExtent(headDim); c += 4)
    for (int64_t i = 1; i < 4; ++i)
      if (getStoredIndex(layouts.queryKey, c + i) !=
          getStoredIndex(layouts.queryKey, c) + i)
        return op.emitOpError()
               << "expected a Q and K layout that keeps four adjacent "
                  "channels together (their quantizer stores them at once), "
                  "got "
               << layouts.queryKey;

  layouts.value =
      getLayout(value, DimRole::Tokens, blockK, FragmentOrder::Accumulator);
  if (layouts.value.getContractionAxis() != DimRole::Tokens)
    return op.emitOpError() << "expected the V layout along tokens (P V "
                               "contracts over keys), got "
                            << layouts.value;
  // P's A fragment is packed from the Q K^T accumulator, where lane t holds
  // columns 2t and 2t + 1 of each 8-column tile: position 16h + 4t + i of a
  // chunk must hold one of those.
  for (int64_t position = 0; position < blockK; ++position) {
    int64_t index = layouts.value.getIndexAt(position) % 8;
    int64_t lane = position % 16 / 4;
    if (index / 2 != lane)
      return op.emitOpError()
             << "expected a V layout in the order of the Q K^T accumulator "
                "(P feeds the P V MMA from registers), got "
             << layouts.value;
  }
  return layouts;
}

int64_t mlir::sage::getStoredIndex(OperandLayoutAttrInterface layout,
                                   int64_t index) {
  return layout.getStorageIndex(layout.getPositionOf(index));
}
