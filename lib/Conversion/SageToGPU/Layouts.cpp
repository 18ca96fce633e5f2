//===- Layouts.cpp - the operand layouts the kernels read -----------------===//
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

/// Whether `layout` stores each lane's registers of a group as the kernels
/// load them: lane t's bytes of group g start at g * group + t * laneBytes
/// (in elements: 4-bit ones are two a byte) and hold, word by word, halves
/// h = 0, 1 of chunks c = 0, 1, ...
static bool hasLaneLoads(OperandLayoutAttrInterface layout, int64_t extent) {
  int64_t k = layout.getMmaK(), group = layout.getGroupSize();
  int64_t perWord = k / 8, laneElements = layout.getLaneBytes() * perWord / 4;
  for (int64_t position = 0; position < extent; ++position) {
    int64_t g = position / group, inGroup = position % group;
    int64_t c = inGroup / k, kk = inGroup % k;
    int64_t h = kk / (k / 2), t = kk % (k / 2) / perWord, i = kk % perWord;
    int64_t expected = g * group + t * laneElements + perWord * (2 * c + h) + i;
    if (layout.getStorageIndex(position) != expected)
      return false;
  }
  return true;
}

/// Whether `layout` stores the MMA positions of an axis of `extent`
/// elements in order, as the wgmma descriptors read them.
static bool storesPositionsInOrder(OperandLayoutAttrInterface layout,
                                   int64_t extent) {
  for (int64_t position = 0; position < extent; ++position)
    if (layout.getStorageIndex(position) != position)
      return false;
  return true;
}

/// The layout `quantize` names, else the default of `scope` for `extent`
/// elements of its contraction axis: the widest #sage.mma_packed for the
/// lanes' loads of mma.sync, #sage.mma_ordered placed by `tiling` for wgmma
/// (in stage tiles, a K/V block is one bulk copy).
static OperandLayoutAttrInterface getLayout(QuantizeOp quantize, DimRole along,
                                            int64_t extent, FragmentOrder order,
                                            MmaScope scope,
                                            OperandTiling tiling) {
  if (OperandLayoutAttrInterface layout = quantize.getLayoutAttr())
    return layout;
  int64_t k = quantize.getQuant().getMmaK();
  if (scope == MmaScope::Warpgroup)
    return MmaOrderedAttr::get(quantize.getContext(), along, k, order, tiling);
  return MmaPackedAttr::getWidest(quantize.getContext(), along, k, extent,
                                  order);
}

FailureOr<OperandLayouts> mlir::sage::getOperandLayouts(
    QuantizedAttentionOp op, QuantizeOp query, QuantizeOp key, QuantizeOp value,
    int64_t headDim, int64_t blockK, MmaScope scope, OperandTiling tiling) {
  OperandLayouts layouts;
  layouts.queryKey = getLayout(query, DimRole::Features, headDim,
                               FragmentOrder::Natural, scope, tiling);
  OperandLayoutAttrInterface keyLayout = getLayout(
      key, DimRole::Features, headDim, FragmentOrder::Natural, scope, tiling);
  if (layouts.queryKey != keyLayout)
    return op.emitOpError() << "expected Q and K in one layout (both feed "
                               "the Q K^T contraction), got "
                            << layouts.queryKey << " and " << keyLayout;
  if (layouts.queryKey.getContractionAxis() != DimRole::Features)
    return op.emitOpError() << "expected the Q and K layout along features, "
                               "got "
                            << layouts.queryKey;
  // An 8- or 4-bit P takes V's tokens in the accumulator order; a 16-bit
  // one (m16n8k16) is the accumulator's own order.
  FragmentOrder valueOrder = value.getQuant().getMmaK() == 16
                                 ? FragmentOrder::Natural
                                 : FragmentOrder::Accumulator;
  layouts.value =
      getLayout(value, DimRole::Tokens, blockK, valueOrder, scope, tiling);
  if (layouts.value.getContractionAxis() != DimRole::Tokens)
    return op.emitOpError() << "expected the V layout along tokens (P V "
                               "contracts over keys), got "
                            << layouts.value;
  // V is quantized and staged one K/V block at a time.
  if (blockK % layouts.value.getGroupSize() != 0)
    return op.emitOpError()
           << "expected a V layout whose groups tile the K/V block, got "
           << layouts.value << " (groups of " << layouts.value.getGroupSize()
           << " keys) with block-k = " << blockK;

  // How each kernel family reads the operands: mma.sync lanes load their
  // words of a group at once; wgmma reads Q, K and V^T rows through shared
  // memory descriptors, which take the MMA positions in order.
  int64_t paddedDim = layouts.queryKey.getPaddedExtent(headDim);
  // The quantizer packs a word's adjacent channels (four of 8 bits, eight
  // of 4) into one 32-bit store.
  int64_t perWord = layouts.queryKey.getMmaK() / 8;
  bool wordTogether = true;
  for (int64_t c = 0; c < paddedDim && wordTogether; c += perWord)
    for (int64_t i = 1; i < perWord; ++i)
      wordTogether &= getStoredIndex(layouts.queryKey, c + i) ==
                      getStoredIndex(layouts.queryKey, c) + i;
  if (scope == MmaScope::Warpgroup) {
    // `layout` stores the `extent` positions of `operands` as the
    // descriptors of their wgmma read them.
    auto expectInOrder = [&](OperandLayoutAttrInterface layout, int64_t extent,
                             StringRef operands,
                             StringRef read) -> LogicalResult {
      if (storesPositionsInOrder(layout, extent))
        return success();
      return op.emitOpError()
             << "expected a " << operands
             << " layout that stores the MMA positions in order (wgmma reads "
             << read
             << " through shared-memory descriptors; mma-scope=warp reads "
                "mma.sync packings), got "
             << layout;
    };
    if (failed(
            expectInOrder(layouts.queryKey, paddedDim, "Q and K", "Q and K")))
      return failure();
    if (!wordTogether)
      return op.emitOpError()
             << "expected a Q and K layout that keeps four adjacent channels "
                "together (their quantizer stores them at once), got "
             << layouts.queryKey;
    if (failed(expectInOrder(layouts.value, blockK, "V", "V^T")))
      return failure();
  } else {
    for (OperandLayoutAttrInterface layout : {layouts.queryKey, layouts.value})
      if (layout.getOperandTiling() != OperandTiling::Rows)
        return op.emitOpError()
               << "expected operands stored row after row (the mma.sync "
                  "kernel stages K/V rows with cp.async; tiling = "
                  "core_matrices is for mma-scope=warpgroup), got "
               << layout;
    // The attention kernel loads each lane's words of a group at once.
    bool storable = wordTogether && hasLaneLoads(layouts.queryKey, paddedDim);
    if (!storable)
      return op.emitOpError()
             << "expected a Q and K layout that keeps "
             << (perWord == 4 ? "four" : "eight")
             << " adjacent channels together (their quantizer stores them at "
                "once) and each lane's words of a group adjacent, got "
             << layouts.queryKey;
    if (!hasLaneLoads(layouts.value, blockK))
      return op.emitOpError()
             << "expected a V layout whose lanes load their words of a "
                "group at once (the mma.sync kernel reads V^T so), got "
             << layouts.value;
  }

  // P's A fragment is packed from the Q K^T accumulator, where lane t holds
  // columns 2t and 2t + 1 of each 8-column tile: position (k / 2) h + e t +
  // i of a chunk (e elements a register) must hold lane 0's key of
  // position (k / 2) h + i moved by 2t, one of those two columns (the
  // attention kernel packs P so).
  int64_t valueK = layouts.value.getMmaK(), perRegister = valueK / 8;
  bool fromAccumulator = true;
  for (int64_t position = 0; position < blockK && fromAccumulator; ++position) {
    int64_t t = position % (valueK / 2) / perRegister;
    int64_t laneZero = layouts.value.getIndexAt(position - perRegister * t);
    fromAccumulator = laneZero % 8 < 2 &&
                      layouts.value.getIndexAt(position) == laneZero + 2 * t;
  }
  if (!fromAccumulator)
    return op.emitOpError()
           << "expected a V layout in the order of the Q K^T accumulator "
              "(P feeds the P V MMA from registers), got "
           << layouts.value;
  // One K/V block is staged one way: bulk copies of tiles, or cp.async of
  // rows.
  if (layouts.value.getOperandTiling() != layouts.queryKey.getOperandTiling())
    return op.emitOpError()
           << "expected V placed in memory as Q and K are (a K/V block is "
              "staged one way), got "
           << layouts.queryKey << " and " << layouts.value;
  return layouts;
}

int64_t mlir::sage::getStoredIndex(OperandLayoutAttrInterface layout,
                                   int64_t index) {
  return layout.getStorageIndex(layout.getPositionOf(index));
}

OperandRow::OperandRow(KernelBuilder &kb, OperandTiling tiling, Value head,
                       Value rows, Value row, Value columns, OperandTile tile)
    : kb(kb), tiling(tiling), tile(tile) {
  if (tiling == OperandTiling::Rows) {
    start = linearOffset(kb, head, rows, row, columns, kb.i32(0));
    return;
  }
  // The tiles of a block of tile.rows rows are adjacent: the head's start,
  // then whole blocks of tile.rows * columns bytes.
  Value head64 = kb.toI64(head);
  Value headRows = kb.mul(head64, kb.toI64(rows));
  Value headStart = kb.mul(headRows, kb.toI64(columns));
  Value rowBlock = kb.toI64(kb.divu(row, kb.i32(tile.rows)));
  Value blockBytes = kb.mul(kb.i64(tile.rows), kb.toI64(columns));
  start = kb.add(headStart, kb.mul(rowBlock, blockBytes));
  Value inBlock = kb.remu(row, kb.i32(tile.rows));
  inTile = kb.mul(inBlock, kb.i32(16));
}

Value OperandRow::getOffset(Value storedColumn) const {
  if (tiling == OperandTiling::Rows)
    return kb.add(start, kb.toI64(storedColumn));
  // The column's tile (in i64: a V^T row spans every key of the head),
  // then column c of the tile's row at (c / 16) * tile.rows * 16 + c % 16.
  // (One op a statement: the IR's order must not depend on the compiler's
  // order of evaluating arguments.)
  Value columnBlock = kb.divu(storedColumn, kb.i32(tile.columns));
  Value inColumn = kb.remu(storedColumn, kb.i32(tile.columns));
  Value tileStart = kb.mul(kb.toI64(columnBlock), kb.i64(tile.getBytes()));
  Value chunk = kb.divu(inColumn, kb.i32(16));
  Value chunkStart = kb.mul(chunk, kb.i32(tile.getLeadingBytes()));
  Value inChunk = kb.add(inTile, kb.remu(inColumn, kb.i32(16)));
  Value inTileOffset = kb.add(chunkStart, inChunk);
  Value tileOffset = kb.add(start, tileStart);
  return kb.add(tileOffset, kb.toI64(inTileOffset));
}
