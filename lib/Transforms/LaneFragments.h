//===- LaneFragments.h - where a lane's elements sit in a tile --*- C++ -*-===//
//
// Shared by the patterns of sage-distribute-tiles (docs/Levels.md,
// distribute): the lane's coordinates in the CTA (thread x = 32 warp +
// 4 g + t) and, for a tile encoded #sage.acc_fragment, #sage.row_fragment
// or #sage.replicated, the tile coordinates of each element of the lane's
// vector.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_LANEFRAGMENTS_H
#define SAGE_LIB_TRANSFORMS_LANEFRAGMENTS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::sage {
class MmaAttr;
class WarpLoadMatricesOp;

/// The warp MMA whose accumulator fragment each warp of `mma` holds: `mma`
/// itself for a warp MMA; for a warpgroup MMA (wgmma m64nN), whose warp w
/// holds rows 16 w .. 16 w + 15 as m16n8 accumulator tiles side by side
/// (PTX ISA, "Matrix fragments for wgmma.mma_async"), the m16n8 row of the
/// same formats. So the ops on its accumulators are those of mma.sync.
MmaAttr getWarpFragmentMma(MmaAttr mma);

/// Whether `slice` takes every row of a static 2-D tile and whole tiles
/// of `n` columns, with unit strides: columns the lanes hold as they hold
/// the tile (an MMA accumulator tile's lanes hold its n-column tiles one
/// after another).
bool isWholeColumnTiles(tensor::ExtractSliceOp slice, int64_t n);

/// The lane's warp in the CTA: thread x / 32.
Value getWarpIndex(OpBuilder &b, Location loc);

/// Index arithmetic on the lane's coordinates: warp = thread x / 32,
/// g = lane / 4, t = lane % 4.
struct LaneIndices {
  OpBuilder &b;
  Location loc;
  Value warp, g, t;

  LaneIndices(OpBuilder &b, Location loc);
  Value constant(int64_t value);
  /// scale * x + offset.
  Value affine(Value x, int64_t scale, int64_t offset);
  Value add(Value x, Value y);
  Value div(Value x, int64_t divisor);
  Value rem(Value x, int64_t divisor);
};

/// The tile coordinates of each element of the lane's vector of a tile of
/// `shape` encoded `encoding`, in vector order. Elements in one row (or
/// column) share the row's (column's) Value.
SmallVector<SmallVector<Value>> getLaneCoordinates(LaneIndices &ix,
                                                   Attribute encoding,
                                                   ArrayRef<int64_t> shape);

/// How many elements of the lane's vector, from a multiple of it, sit at
/// consecutive positions of the tile's last dimension (the first at its
/// getLaneCoordinates): 2 for accumulators (columns 2t, 2t + 1), 1 for
/// rows, a whole row for a replicated tile.
int64_t getLaneRunLength(Attribute encoding, ArrayRef<int64_t> shape);

/// The warps whose lanes hold a tile encoded `encoding`, or nullopt for a
/// tile any number of warps can hold (replicated).
std::optional<int64_t> getEncodingWarps(Attribute encoding);

/// Concatenates 1-D vectors, one vector.shuffle a part.
Value concatVectors(OpBuilder &b, Location loc, ArrayRef<Value> parts);

/// `op`'s registers read by each lane on its own: one vector.transfer_read
/// of a word a matrix, at row `row + row_offsets[q] + g`, column
/// `column + column_offsets[q] + e t` (on a tensor or a buffer alike).
Value readMatricesByLane(OpBuilder &b, WarpLoadMatricesOp op);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_LANEFRAGMENTS_H
