//===- WarpLoadMatrices.h - a warp's matrix reads as ldmatrix ---*- C++ -*-===//
//
// Part of sage-lower-staging (docs/Levels.md, L3): sage.warp_load_matrices
// on the kernel's workgroup tiles.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_WARPLOADMATRICES_H
#define SAGE_LIB_TRANSFORMS_WARPLOADMATRICES_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {
class WarpLoadMatricesOp;

/// Replaces `op`, on a buffer, by one ldmatrix (nvvm.ldmatrix) where the buffer
/// is in workgroup memory and each matrix row provably starts on a 16-byte
/// boundary (ldmatrix's rule), else by each lane's reads of its words.
void lowerWarpLoadMatrices(RewriterBase &rewriter, WarpLoadMatricesOp op);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_WARPLOADMATRICES_H
