//===- WarpgroupMmaToNVVM.cpp - sage.warpgroup_mma to its wgmma -----------===//
//
// The emission of the warpgroup-scope rows of the MMA table (docs/Mma.md),
// one wgmma.mma_async each. A from shared memory: nvvm.wgmma.mma_async on
// the two descriptors. A from registers: MLIR 22's op takes descriptors
// only, so the one instruction is spelled in llvm.inline_asm, with the
// accumulators tied to the results and scale-d as a predicate operand
// (true: D = A * B + D; false, without an accumulator: D = A * B, and
// the accumulators are outputs only, so nothing writes them before it).
// Accumulator registers are the fragment's f32 / s32 elements, or its f16
// pairs as i32, as wgmma takes them.
// sage.warpgroup_fence and sage.warpgroup_wait pass their fragments
// through an empty inline asm next to the wgmma.fence / wgmma.wait_group,
// which pins where the registers are written and read: before the fence,
// after the wait. sage.warpgroup_commit is the wgmma.commit_group; its
// token, which the waits take, lowers to nothing.
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

/// `text` in inline asm with side effects, returning `resultType`.
static Value createAsm(OpBuilder &b, Location loc, Type resultType,
                       ValueRange operands, StringRef text,
                       ArrayRef<std::string> constraints) {
  return LLVM::InlineAsmOp::create(
             b, loc, resultType, operands, b.getStringAttr(text),
             b.getStringAttr(llvm::join(constraints, ",")),
             /*has_side_effects=*/b.getUnitAttr(),
             /*is_align_stack=*/nullptr, /*tail_call_kind=*/nullptr,
             /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
      .getResult(0);
}

/// `fragment` through an empty inline asm that claims to rewrite its
/// registers: the result is defined where the asm is, and LLVM keeps
/// side-effecting asm in order with the wgmma fence and wait.
static Value pinRegisters(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> registers = splitRegisters(b, loc, fragment);
  Type original = registers.front().getType();
  Type registerType = original.isF32() ? original : b.getI32Type();
  for (Value &reg : registers)
    reg = castRegister(b, loc, reg, registerType);
  SmallVector<std::string> constraints(registers.size(),
                                       registerType.isF32() ? "=f" : "=r");
  for (size_t i = 0; i < registers.size(); ++i)
    constraints.push_back(std::to_string(i));
  constraints.push_back("~{memory}");
  // One output is returned as itself, several as a struct.
  size_t count = registers.size();
  Type resultType = registerType;
  if (count > 1)
    resultType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(count, registerType));
  Value result = createAsm(b, loc, resultType, registers, "", constraints);
  SmallVector<Value> pinned;
  for (size_t i = 0; i < count; ++i) {
    Value reg =
        count == 1 ? result : LLVM::ExtractValueOp::create(b, loc, result, i);
    pinned.push_back(castRegister(b, loc, reg, original));
  }
  return joinRegisters(b, loc, pinned, type);
}

/// The one wgmma.mma_async with A from `aRegisters`, in inline asm; `acc`
/// empty for D = A * B.
static Value createRegisterAWgmma(OpBuilder &b, Location loc,
                                  const MmaInstruction &row, int64_t n,
                                  ArrayRef<Value> acc, int64_t accCount,
                                  Type accRegister, ArrayRef<Value> aRegisters,
                                  Value bDesc) {
  // Operands: the accumulators as outputs $0.., tied to the accumulators
  // carried in (if any), then the A registers, B's descriptor and the
  // scale-d predicate.
  auto list = [](size_t first, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i)
      text += (i ? ", $" : "$") + std::to_string(first + i);
    return text;
  };
  size_t aFirst = accCount + acc.size(), bOperand = aFirst + aRegisters.size();
  std::string text = row.getPtx(n) + " {" + list(0, accCount) + "}, {" +
                     list(aFirst, aRegisters.size()) + "}, $" +
                     std::to_string(bOperand) + ", $" +
                     std::to_string(bOperand + 1);
  // Float formats also take the immediate scales of A and B (1: as is).
  if (row.a != "s8")
    text += ", 1, 1";
  text += ";";
  SmallVector<std::string> constraints(accCount,
                                       accRegister.isF32() ? "=f" : "=r");
  for (size_t i = 0; i < acc.size(); ++i)
    constraints.push_back(std::to_string(i));
  constraints.append(aRegisters.size(), "r");
  constraints.append({"l", "b"});
  SmallVector<Value> operands(acc.begin(), acc.end());
  operands.append(aRegisters.begin(), aRegisters.end());
  operands.push_back(bDesc);
  operands.push_back(LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                              b.getBoolAttr(!acc.empty())));
  auto resultType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(accCount, accRegister));
  return createAsm(b, loc, resultType, operands, text, constraints);
}

namespace {
struct WarpgroupMmaToNVVM : OpRewritePattern<WarpgroupMmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpgroupMmaOp op,
                                PatternRewriter &rewriter) const override {
    MmaAttr mma = op.getMma();
    const MmaInstruction &row = *mma.getInstruction();
    Location loc = op.getLoc();
    VectorType accType = op.getResult().getType();
    bool f16Acc = accType.getElementType().isF16();
    Type accRegister =
        f16Acc ? Type(rewriter.getI32Type()) : accType.getElementType();
    int64_t accCount = accType.getNumElements() / (f16Acc ? 2 : 1);
    SmallVector<Value> acc;
    if (op.getAcc())
      for (Value reg : splitRegisters(rewriter, loc, op.getAcc()))
        acc.push_back(castRegister(rewriter, loc, reg, accRegister));
    auto resultType = LLVM::LLVMStructType::getLiteral(
        getContext(), SmallVector<Type>(accCount, accRegister));

    Value result;
    if (mma.getASource() == OperandSource::Shared) {
      // Without an accumulator the in/out struct stays undefined: scale-d
      // zero does not read it.
      Value inouts = LLVM::UndefOp::create(rewriter, loc, resultType);
      for (auto [i, reg] : llvm::enumerate(acc))
        inouts = LLVM::InsertValueOp::create(rewriter, loc, inouts, reg, i);
      result = NVVM::WgmmaMmaAsyncOp::create(
          rewriter, loc, resultType, inouts, op.getA(), op.getB(),
          NVVM::MMAShapeAttr::get(getContext(), mma.getM(), mma.getN(),
                                  mma.getK()),
          getWgmmaType(row.a), getWgmmaType(row.b), getWgmmaType(row.acc),
          acc.empty() ? NVVM::WGMMAScaleOut::zero : NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::col,
          /*satfinite=*/nullptr);
    } else {
      result = createRegisterAWgmma(
          rewriter, loc, row, mma.getN(), acc, accCount, accRegister,
          splitRegisters(rewriter, loc, op.getA()), op.getB());
    }
    if (!f16Acc) {
      rewriter.replaceOp(op, joinRegisters(rewriter, loc, result, accType));
      return success();
    }
    // f16 pairs back from their i32 registers.
    Type pair = VectorType::get({2}, rewriter.getF16Type());
    SmallVector<Value> pairs;
    for (int64_t i = 0; i < accCount; ++i)
      pairs.push_back(castRegister(
          rewriter, loc, LLVM::ExtractValueOp::create(rewriter, loc, result, i),
          pair));
    rewriter.replaceOp(op, joinRegisters(rewriter, loc, pairs, accType));
    return success();
  }
};

struct WarpgroupFenceToNVVM : OpRewritePattern<WarpgroupFenceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpgroupFenceOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> pinned;
    for (Value fragment : op.getFragments())
      pinned.push_back(pinRegisters(rewriter, op.getLoc(), fragment));
    NVVM::WgmmaFenceAlignedOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, pinned);
    return success();
  }
};

/// The commit once its token's waits are lowered: the token lowers to
/// nothing, the commit to wgmma.commit_group where it stands.
struct WarpgroupCommitToNVVM : OpRewritePattern<WarpgroupCommitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpgroupCommitOp op,
                                PatternRewriter &rewriter) const override {
    if (!op->use_empty())
      return rewriter.notifyMatchFailure(op, "its waits are not lowered yet");
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpgroupWaitToNVVM : OpRewritePattern<WarpgroupWaitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpgroupWaitOp op,
                                PatternRewriter &rewriter) const override {
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(), op.getPending());
    SmallVector<Value> pinned;
    for (Value fragment : op.getFragments())
      pinned.push_back(pinRegisters(rewriter, op.getLoc(), fragment));
    rewriter.replaceOp(op, pinned);
    return success();
  }
};
} // namespace

void mlir::sage::populateWarpgroupMmaPatterns(RewritePatternSet &patterns) {
  patterns.add<WarpgroupMmaToNVVM, WarpgroupFenceToNVVM, WarpgroupCommitToNVVM,
               WarpgroupWaitToNVVM>(patterns.getContext());
}
