//===- DistributableGenerics.h - generics the lanes compute -----*- C++ -*-===//

#ifndef SAGE_LIB_TRANSFORMS_DISTRIBUTABLEGENERICS_H
#define SAGE_LIB_TRANSFORMS_DISTRIBUTABLEGENERICS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::sage {

/// True for a linalg.generic each lane can compute on the elements it
/// holds of its output: all loops parallel, outputs read and written
/// through the identity, a body of element-wise ops that does not read the
/// outputs, and inputs that are scalars or tensors read through a
/// projection of the loops (the identity, one row or column of a
/// broadcast: (d0), (d1), (0, d1), ...). The lanes read broadcast inputs
/// at the coordinates of their elements.
bool isDistributableGeneric(linalg::GenericOp op);

/// Whether `operand` of such a generic is read through the identity: its
/// value is held the way the output is.
bool isReadInPlace(linalg::GenericOp op, OpOperand &operand);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_DISTRIBUTABLEGENERICS_H
