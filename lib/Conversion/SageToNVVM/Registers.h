//===- Registers.h - fragments as an instruction's registers ----*- C++ -*-===//
//
// A fragment (docs/Levels.md, L4) is a vector of a thread's elements of an
// MMA operand; the instruction takes them as 32-bit registers (elements
// packed lowest bits first) or, for f16, pairs of halves, as NVVM types
// them. Shared by the warp and warpgroup MMA patterns.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_CONVERSION_SAGETONVVM_REGISTERS_H
#define SAGE_LIB_CONVERSION_SAGETONVVM_REGISTERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::sage {
/// The instruction's registers holding `fragment`.
SmallVector<Value> splitRegisters(OpBuilder &b, Location loc, Value fragment);
/// The type of one accumulator register of a fragment of `element`.
Type getRegisterType(Type element);
/// The fragment of `type` held by `registers`, as splitRegisters split it.
Value joinRegisters(OpBuilder &b, Location loc, ArrayRef<Value> registers,
                    VectorType type);
/// The fragment of `type` held by the registers of an MMA's result struct.
Value joinRegisters(OpBuilder &b, Location loc, Value result, VectorType type);
} // namespace mlir::sage

#endif // SAGE_LIB_CONVERSION_SAGETONVVM_REGISTERS_H
