//===- SageOps.h - sage operations ------------------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEOPS_H
#define SAGE_DIALECT_SAGE_IR_SAGEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "sage/Dialect/Sage/IR/SageAttrs.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"
#include "sage/Dialect/Sage/IR/SageTypes.h"

#define GET_OP_CLASSES
#include "sage/Dialect/Sage/IR/SageOps.h.inc"

#endif // SAGE_DIALECT_SAGE_IR_SAGEOPS_H
