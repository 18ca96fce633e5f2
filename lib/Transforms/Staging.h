//===- Staging.h - tiles the promote level puts in workgroup memory -*- C++
//-*-===//
//
// Shared by sage-promote-tiles, which stages CTA-wide tiles in workgroup
// memory, and the passes after it that must leave those tiles where they
// are (docs/Levels.md, L3).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_STAGING_H
#define SAGE_LIB_TRANSFORMS_STAGING_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::sage {

/// Whether the tensor `tile` is computed into workgroup memory: it is, or
/// is computed in place (destination-passing style, slices) into, a
/// bufferization.alloc_tensor in #gpu.address_space<workgroup>.
bool isInWorkgroupMemory(Value tile);

/// If `tile` is the result of a gather (a linalg op on tensors with one
/// tensor input and one init, all loops parallel, the init indexed by them,
/// whose body yields the input element: linalg.transpose, or the generic that
/// puts V^T's keys in P's order) whose map keeps every step of its index
/// arithmetic non-negative, the map from the tile's indices to the
/// input's, and the input.
std::optional<std::pair<AffineMap, Value>> getGatherSource(Value tile);

/// `map` applied to the non-negative indices `indices`, as arith ops
/// (floordiv and mod of non-negative values are unsigned division and
/// remainder); a result that is one of the dims is that index itself.
SmallVector<Value> applyIndexMap(OpBuilder &b, Location loc, AffineMap map,
                                 ValueRange indices);

/// A divisor of the stride of `buffer`'s dimension `dim`: the stride where
/// static; for a row-major buffer the product of the static sizes inside
/// it; for a subview or a collapse of a buffer, what that buffer's strides
/// imply (a window of V stored [.., features, groups, 32]: rows of whole
/// groups); 0 where nothing is known.
int64_t getStrideDivisor(Value buffer, int64_t dim);

/// Whether `buffer` starts `bytes`-aligned (`bytes` at most 16): it is a
/// function argument or a workgroup tile (the runtime's allocations and
/// the kernel's attributions are 16-byte aligned), or a view of one whose
/// offset is a sum of strides that are multiples of `bytes` (whole rows of
/// a tensor; a stage of a multi-buffered tile, sage-pipeline-tiles, at a
/// dynamic index of its first dim).
bool startsAligned(Value buffer, int64_t bytes);

/// An LLVM pointer in `addressSpace` to the element of `buffer` `at`
/// elements past its view's first (the first where `at` is null): the
/// aligned pointer plus the view's offset, in bytes. `at` builds its
/// element count from the buffer's strided metadata.
Value getElementPointer(
    OpBuilder &b, Location loc, Value buffer, unsigned addressSpace,
    llvm::function_ref<Value(memref::ExtractStridedMetadataOp)> at = nullptr);

/// Whether `user` of a workgroup tile takes a view of it at another layout
/// as it takes the tile: sage-lower-staging pads such tiles' rows and
/// sage-pipeline-tiles multi-buffers them (a stage is a strided view).
bool isLayoutFreeTileUser(Operation *user);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_STAGING_H
