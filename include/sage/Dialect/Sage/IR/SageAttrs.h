//===- SageAttrs.h - sage attributes and enums ------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEATTRS_H
#define SAGE_DIALECT_SAGE_IR_SAGEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"

#include "sage/Dialect/Sage/IR/SageEnums.h.inc"

#include "sage/Dialect/Sage/IR/MmaInstructions.h"

#include "sage/Dialect/Sage/IR/SageAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "sage/Dialect/Sage/IR/SageAttrs.h.inc"

#endif // SAGE_DIALECT_SAGE_IR_SAGEATTRS_H
