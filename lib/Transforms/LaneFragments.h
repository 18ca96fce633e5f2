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

#include "mlir/IR/Builders.h"

namespace mlir::sage {

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
/// `shape` encoded `encoding`, in vector order.
SmallVector<SmallVector<Value>> getLaneCoordinates(LaneIndices &ix,
                                                   Attribute encoding,
                                                   ArrayRef<int64_t> shape);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_LANEFRAGMENTS_H
