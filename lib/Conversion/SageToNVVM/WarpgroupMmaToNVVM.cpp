//===- WarpgroupMmaToNVVM.cpp - sage.warpgroup_mma to its wgmma -----------===//
//
// The emission of the warpgroup-scope rows of the MMA table (docs/Mma.md),
// one wgmma.mma_async each. A from shared memory: nvvm.wgmma.mma_async on
// the two descriptors. A from registers: MLIR 22's op takes descriptors
// only, so the one instruction is spelled in llvm.inline_asm, with the
// accumulators tied to the results and scale-d as a predicate operand
// (true: D = A * B + D).
// Accumulator registers are the fragment's f32 / s32 elements, or its f16
// pairs as i32, as wgmma takes them.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Registers.h"

#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::sage;

static NVVM::WGMMATypes getWgmmaType(StringRef format) {
  return llvm::StringSwitch<NVVM::WGMMATypes>(format)
      .Case("s8", NVVM::WGMMATypes::s8)
      .Case("e4m3", NVVM::WGMMATypes::e4m3)
      .Case("s32", NVVM::WGMMATypes::s32)
      .Case("f32", NVVM::WGMMATypes::f32)
      .Default(NVVM::WGMMATypes::f16);
}

/// An f16 pair as the i32 register wgmma takes, and back.
static Value castRegister(OpBuilder &b, Location loc, Value value, Type to) {
  return value.getType() == to ? value
                               : LLVM::BitcastOp::create(b, loc, to, value);
}

/// The one wgmma.mma_async with A from `aRegisters`, in inline asm.
static Value createRegisterAWgmma(OpBuilder &b, Location loc,
                                  const MmaInstruction &row, int64_t n,
                                  ArrayRef<Value> acc,
                                  ArrayRef<Value> aRegisters, Value bDesc,
                                  Type resultType) {
  // Operands: the accumulators as outputs $0.., tied to the same
  // accumulators as inputs, then the A registers, B's descriptor and the
  // scale-d predicate.
  size_t accCount = acc.size();
  auto list = [](size_t first, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i)
      text += (i ? ", $" : "$") + std::to_string(first + i);
    return text;
  };
  size_t aFirst = 2 * accCount, bOperand = aFirst + aRegisters.size();
  std::string text = row.getPtx(n) + " {" + list(0, accCount) + "}, {" +
                     list(aFirst, aRegisters.size()) + "}, $" +
                     std::to_string(bOperand) + ", $" +
                     std::to_string(bOperand + 1);
  // Float formats also take the immediate scales of A and B (1: as is).
  if (row.a != "s8")
    text += ", 1, 1";
  text += ";";
  std::string output = acc.front().getType().isF32() ? "=f" : "=r";
  SmallVector<std::string> constraints(accCount, output);
  for (size_t i = 0; i < accCount; ++i)
    constraints.push_back(std::to_string(i));
  constraints.append(aRegisters.size(), "r");
  constraints.append({"l", "b"});
  SmallVector<Value> operands(acc.begin(), acc.end());
  operands.append(aRegisters.begin(), aRegisters.end());
  operands.push_back(bDesc);
  operands.push_back(
      LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
  return LLVM::InlineAsmOp::create(
             b, loc, resultType, operands, b.getStringAttr(text),
             b.getStringAttr(llvm::join(constraints, ",")),
             /*has_side_effects=*/b.getUnitAttr(),
             /*is_align_stack=*/nullptr, /*tail_call_kind=*/nullptr,
             /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
      .getResult(0);
}

namespace {
struct WarpgroupMmaToNVVM : OpRewritePattern<WarpgroupMmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpgroupMmaOp op,
                                PatternRewriter &rewriter) const override {
    MmaAttr mma = op.getMma();
    const MmaInstruction &row = *mma.getInstruction();
    Location loc = op.getLoc();
    VectorType accType = op.getAcc().getType();
    bool f16Acc = accType.getElementType().isF16();
    Type accRegister =
        f16Acc ? Type(rewriter.getI32Type()) : accType.getElementType();
    SmallVector<Value> acc;
    for (Value reg : splitRegisters(rewriter, loc, op.getAcc()))
      acc.push_back(castRegister(rewriter, loc, reg, accRegister));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(acc.size(), accRegister));

    Value result;
    if (mma.getASource() == OperandSource::Shared) {
      Value inouts = LLVM::UndefOp::create(rewriter, loc, resultType);
      for (auto [i, reg] : llvm::enumerate(acc))
        inouts = LLVM::InsertValueOp::create(rewriter, loc, inouts, reg, i);
      result = NVVM::WgmmaMmaAsyncOp::create(
          rewriter, loc, resultType, inouts, op.getA(), op.getB(),
          NVVM::MMAShapeAttr::get(getContext(), mma.getM(), mma.getN(),
                                  mma.getK()),
          getWgmmaType(row.a), getWgmmaType(row.b), getWgmmaType(row.acc),
          NVVM::WGMMAScaleOut::one, NVVM::WGMMAScaleIn::one,
          NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row, NVVM::MMALayout::col,
          /*satfinite=*/nullptr);
    } else {
      result = createRegisterAWgmma(rewriter, loc, row, mma.getN(), acc,
                                    splitRegisters(rewriter, loc, op.getA()),
                                    op.getB(), resultType);
    }
    if (!f16Acc) {
      rewriter.replaceOp(op, joinRegisters(rewriter, loc, result, accType));
      return success();
    }
    // f16 pairs back from their i32 registers.
    Type pair = VectorType::get({2}, rewriter.getF16Type());
    auto pairs = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(acc.size(), pair));
    Value repacked = LLVM::UndefOp::create(rewriter, loc, pairs);
    for (size_t i = 0; i < acc.size(); ++i) {
      Value reg = LLVM::ExtractValueOp::create(rewriter, loc, result, i);
      repacked = LLVM::InsertValueOp::create(
          rewriter, loc, repacked, castRegister(rewriter, loc, reg, pair), i);
    }
    rewriter.replaceOp(op, joinRegisters(rewriter, loc, repacked, accType));
    return success();
  }
};
} // namespace

void mlir::sage::populateWarpgroupMmaPatterns(RewritePatternSet &patterns) {
  patterns.add<WarpgroupMmaToNVVM>(patterns.getContext());
}
