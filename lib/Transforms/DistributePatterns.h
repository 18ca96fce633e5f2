//===- DistributePatterns.h - patterns of sage-distribute-tiles -*- C++ -*-===//

#ifndef SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H
#define SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H

#include "sage/Dialect/Sage/IR/SageAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class ConversionPatternRewriter;
class RewritePatternSet;
class TypeConverter;
namespace sage {
class QMmaOp;
struct LaneIndices;

/// A sage.qmma with an encoded result as the lanes' sage.warp_mma chains
/// (DistributeQMma.cpp).
void populateDistributeQMmaPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// A sage.qmma of a warpgroup MMA with an encoded result as each
/// warpgroup's sage.warpgroup_mma chains on the descriptors of its
/// operand tiles' core matrices (DistributeWarpgroupMma.cpp).
void populateDistributeWarpgroupMmaPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns);

/// Whether a wgmma can read `type` ([rows, K]) from shared memory as core
/// matrices: static, its rows whole 16-byte rows.
bool isCoreMatrixOperand(RankedTensorType type);

/// The order in which P, taken from its accumulator registers, feeds the
/// MMA positions of a K chunk of `mma` (the natural one, or the
/// accumulator order: docs/Layouts.md); fails where neither keeps P in
/// the lane.
FailureOr<MmaPackedAttr> getProbabilityKeyOrder(MLIRContext *context,
                                                MmaAttr mma);

/// B (`[N, keys]`) with its keys in `order`'s MMA positions: column p of
/// the result is key getIndexAt(p) of `tile` (a linalg.generic).
Value gatherInKeyOrder(OpBuilder &b, Location loc, Value tile,
                       MmaPackedAttr order);

/// The lane's A fragment of K chunk `chunk` of `mma` taken from `p`, the
/// lane's accumulators of P, with the keys in `order`: a warp's 16 rows as
/// the m16n8kK A fragment (a wgmma's A registers, per warp, too).
Value getProbabilityFragment(OpBuilder &b, Location loc, Value p, MmaAttr mma,
                             MmaPackedAttr order, int64_t chunk);

/// Replaces `op` by acc + sum * delta_a(row) * delta_b(column), `sum` the
/// lane's MMA results in `op`'s accumulator order, converted to the
/// element type of `resultType`.
void replaceWithScaledSum(ConversionPatternRewriter &rewriter, LaneIndices &ix,
                          QMmaOp op, Value acc, Value aScales, Value bScales,
                          Value sum, VectorType resultType);

/// Folds the scores' dequantization into the softmax where it is one
/// factor a lane (the lane's scores `x * broadcast(f)`, read only by masks
/// on their way to a sage.online_softmax with a score_scale `c`): the
/// softmax takes the raw `x`, scaled by `c * f` (FoldScoreFactors.cpp).
void foldScoreFactorsIntoSoftmax(Operation *root);

/// Fails with a diagnostic on a sage.qmma with an encoded result that the
/// pattern cannot distribute: block scales, or scales on an f16 result.
LogicalResult checkDistributableQMma(QMmaOp op);

} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H
