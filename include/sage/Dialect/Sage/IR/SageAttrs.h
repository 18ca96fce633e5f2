//===- SageAttrs.h - sage attributes and enums ------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEATTRS_H
#define SAGE_DIALECT_SAGE_IR_SAGEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TensorEncoding.h"

#include "sage/Dialect/Sage/IR/SageEnums.h.inc"

#include "sage/Dialect/Sage/IR/MmaInstructions.h"

#include "sage/Dialect/Sage/IR/SageAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "sage/Dialect/Sage/IR/SageAttrs.h.inc"

namespace mlir::sage {
/// Whether a causal op's `causal_alignment` (bottom-right when absent) is
/// top-left: query i then sees keys j <= i, else j <= i + Nk - Nq.
inline bool isTopLeft(std::optional<CausalAlignment> alignment) {
  return alignment == CausalAlignment::TopLeft;
}
} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_IR_SAGEATTRS_H
