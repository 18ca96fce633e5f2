//===- SageDialect.h - sage dialect -----------------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEDIALECT_H
#define SAGE_DIALECT_SAGE_IR_SAGEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "sage/Dialect/Sage/IR/SageDialect.h.inc"

#endif // SAGE_DIALECT_SAGE_IR_SAGEDIALECT_H
