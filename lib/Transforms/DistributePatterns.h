//===- DistributePatterns.h - patterns of sage-distribute-tiles -*- C++ -*-===//

#ifndef SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H
#define SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace sage {
class QMmaOp;

/// A sage.qmma with an encoded result as the lanes' sage.warp_mma chains
/// (DistributeQMma.cpp).
void populateDistributeQMmaPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns);

/// Fails with a diagnostic on a sage.qmma with an encoded result that the
/// pattern cannot distribute: block scales, or scales on an f16 result.
LogicalResult checkDistributableQMma(QMmaOp op);

} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_TRANSFORMS_DISTRIBUTEPATTERNS_H
