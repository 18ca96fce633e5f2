//===- ElementwiseTiles.h - generics the distribute level takes -*- C++ -*-===//

#ifndef SAGE_LIB_TRANSFORMS_ELEMENTWISETILES_H
#define SAGE_LIB_TRANSFORMS_ELEMENTWISETILES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::sage {

/// True for a linalg.generic that keeps every element where it is: all
/// loops parallel, every operand a tensor of the same shape read through
/// the identity, a body of element-wise ops that does not read the
/// outputs. Each lane can then compute it on the elements it holds.
bool isElementwiseOnTiles(linalg::GenericOp op);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_ELEMENTWISETILES_H
