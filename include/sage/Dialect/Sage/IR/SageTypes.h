//===- SageTypes.h - sage types ---------------------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGETYPES_H
#define SAGE_DIALECT_SAGE_IR_SAGETYPES_H

#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "sage/Dialect/Sage/IR/SageTypes.h.inc"

#endif // SAGE_DIALECT_SAGE_IR_SAGETYPES_H
