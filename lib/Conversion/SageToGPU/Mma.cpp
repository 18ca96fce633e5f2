//===- Mma.cpp - the mma.sync instructions sage emits ---------------------===//
//
// Every MMA instruction of the SageToGPU kernels is emitted here, so that
// each instruction string has one place and one lit test.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::sage;

/// Splits an !llvm.struct of four values into an array.
static MmaAcc unpack(KernelBuilder &kb, Value packed) {
  MmaAcc values;
  for (int64_t i = 0; i < 4; ++i)
    values[i] = LLVM::ExtractValueOp::create(kb.b, kb.loc, packed, i);
  return values;
}

MmaAcc mlir::sage::emitMmaS8(KernelBuilder &kb, const MmaA &a, const MmaB &b,
                             const MmaAcc &c) {
  MLIRContext *ctx = kb.b.getContext();
  Type i32 = kb.i32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32, i32, i32});
  Value result = NVVM::MmaOp::create(
      kb.b, kb.loc, resultType, a, b, c, /*shape=*/{16, 8, 32},
      /*b1Op=*/std::nullopt, NVVM::MMAIntOverflow::wrapped,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::s8, NVVM::MMATypes::s8},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  return unpack(kb, result);
}

MmaAcc mlir::sage::emitMmaE4M3F32(KernelBuilder &kb, const MmaA &a,
                                  const MmaB &b, const MmaAcc &c) {
  MLIRContext *ctx = kb.b.getContext();
  Type f32 = kb.f32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(ctx, {f32, f32, f32, f32});
  SmallVector<Value> operands(a.begin(), a.end());
  operands.append(b.begin(), b.end());
  operands.append(c.begin(), c.end());
  Value result = LLVM::CallIntrinsicOp::create(
                     kb.b, kb.loc, resultType,
                     kb.b.getStringAttr(
                         "llvm.nvvm.mma.m16n8k32.row.col.f32.e4m3.e4m3.f32"),
                     operands)
                     .getResult(0);
  return unpack(kb, result);
}
