//===- Registers.cpp - fragments as an instruction's registers ------------===//

#include "Registers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir;

/// The instruction's registers holding `fragment`.
SmallVector<Value> mlir::sage::splitRegisters(OpBuilder &b, Location loc,
                                              Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  Type element = type.getElementType();
  int64_t count = type.getNumElements();
  SmallVector<Value> registers;
  if (element.isF16()) {
    for (int64_t i = 0; i < count; i += 2)
      registers.push_back(vector::ShuffleOp::create(
          b, loc, fragment, fragment, ArrayRef<int64_t>{i, i + 1}));
    return registers;
  }
  Value words = fragment;
  if (element.getIntOrFloatBitWidth() != 32)
    words = vector::BitCastOp::create(
        b, loc,
        VectorType::get({count * element.getIntOrFloatBitWidth() / 32},
                        b.getI32Type()),
        fragment);
  int64_t wordCount = cast<VectorType>(words.getType()).getNumElements();
  for (int64_t i = 0; i < wordCount; ++i)
    registers.push_back(vector::ExtractOp::create(b, loc, words, i));
  return registers;
}

/// The type of one accumulator register of a fragment of `element`.
Type mlir::sage::getRegisterType(Type element) {
  return element.isF16() ? Type(VectorType::get({2}, element)) : element;
}

/// The fragment of `type` held by `registers`, as splitRegisters split it.
Value mlir::sage::joinRegisters(OpBuilder &b, Location loc,
                                ArrayRef<Value> registers, VectorType type) {
  Type element = type.getElementType();
  if (element.isF16()) {
    Value joined = registers.front();
    for (Value pair : llvm::drop_begin(registers)) {
      int64_t size = cast<VectorType>(joined.getType()).getNumElements();
      SmallVector<int64_t> mask(size + 2);
      std::iota(mask.begin(), mask.end(), 0);
      joined = vector::ShuffleOp::create(b, loc, joined, pair, mask);
    }
    return joined;
  }
  if (element.getIntOrFloatBitWidth() == 32)
    return vector::FromElementsOp::create(b, loc, type, registers);
  auto words = VectorType::get({int64_t(registers.size())}, b.getI32Type());
  return vector::BitCastOp::create(
      b, loc, type, vector::FromElementsOp::create(b, loc, words, registers));
}

/// The fragment of `type` held by the registers of an MMA's result struct.
Value mlir::sage::joinRegisters(OpBuilder &b, Location loc, Value result,
                                VectorType type) {
  auto structType = cast<LLVM::LLVMStructType>(result.getType());
  SmallVector<Value> registers;
  for (int64_t i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  return joinRegisters(b, loc, registers, type);
}
