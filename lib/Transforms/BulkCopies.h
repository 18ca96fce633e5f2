//===- BulkCopies.h - stagings by the TMA unit's bulk copies ----*- C++ -*-===//
//
// sage-lower-staging's bulk-copies option (docs/Levels.md, "Bulk copies"):
// a plain copy of a contiguous tile into a contiguous workgroup tile is one
// cp.async.bulk, issued by thread 0, that completes on the CTA's staging
// mbarrier; every thread arrives on that barrier when the copies are
// issued and waits for the phase it arrived on when they must be complete.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_BULKCOPIES_H
#define SAGE_LIB_TRANSFORMS_BULKCOPIES_H

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {

/// Whether `op` (on buffers) can be one bulk copy: a plain copy of a static
/// window in global memory of the workgroup tile's shape, both contiguous
/// and 16-byte aligned, of whole bytes, a multiple of 16 of them.
bool isBulkCopy(StageTileOp op);

/// The CTA's staging mbarrier: a workgroup attribution of `kernel` that
/// thread 0 initializes for `threads` arrivals at the kernel's start, before
/// a barrier.
Value createStagingBarrier(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                           int64_t threads);

/// The CTAs of `kernel`'s cluster (its nvvm.cluster_dim), 1 without one.
int64_t getClusterCtas(gpu::GPUFuncOp kernel);

/// Whether every CTA of a cluster stages the same window into the same
/// tile with `op` (its source and destination computed from kernel
/// arguments, constants, y and z block ids, and the induction variables of
/// loops bounded by those), so that one multicast copy serves all of them.
/// Clusters run along x: a window indexed by the x block id is the CTA's
/// own.
bool isSharedByCluster(StageTileOp op);

/// A barrier of every thread of the cluster (`barrier.cluster.arrive`
/// then `.wait`, release and acquire at cluster scope).
void createClusterBarrier(OpBuilder &b, Location loc);

/// Issues `copies` (isBulkCopy) on `barrier`: at the rewriter's insertion
/// point every thread arrives on it, thread 0 expecting the copies' bytes;
/// thread 0 then issues each copy where the op stands. In a cluster of
/// `clusterCtas` > 1, a copy isSharedByCluster lands in every CTA: CTA r's
/// thread 0 issues its r-th piece, multicast to all, each CTA's barrier
/// expecting the whole. Returns the phase each thread arrived on (its
/// mbarrier state); the ops stay.
Value issueBulkCopies(RewriterBase &rewriter, Location loc, Value barrier,
                      Value thread, ArrayRef<StageTileOp> copies,
                      int64_t clusterCtas);

/// Waits at the rewriter's insertion point until the phase `state` of
/// `barrier` has completed: the copies issued with it have landed.
void waitForBulkCopies(RewriterBase &rewriter, Location loc, Value barrier,
                       Value state);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_BULKCOPIES_H
