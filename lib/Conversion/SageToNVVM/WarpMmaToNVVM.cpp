//===- WarpMmaToNVVM.cpp - sage.warp_mma to its mma.sync ------------------===//
//
// The emission of every warp-scope row of the MMA table (docs/Mma.md):
// the row's formats pick nvvm.mma.sync, the LLVM intrinsic for e4m3, or
// nvvm.mma.block_scale for NVFP4.
// A fragment's registers are its elements packed into 32-bit words, or, for
// f16, pairs of halves, as NVVM types them (docs/Levels.md, L4).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"
#include "Registers.h"

#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::sage;

static NVVM::MMATypes getNvvmType(StringRef format) {
  if (format == "s8")
    return NVVM::MMATypes::s8;
  if (format == "s4")
    return NVVM::MMATypes::s4;
  assert(format == "f16" && "the verifier admits no other warp format");
  return NVVM::MMATypes::f16;
}

namespace {
struct WarpMmaToNVVM : OpRewritePattern<WarpMmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpMmaOp op,
                                PatternRewriter &rewriter) const override {
    MmaAttr mma = op.getMma();
    const MmaInstruction &row = *mma.getInstruction();
    Location loc = op.getLoc();
    VectorType accType = op.getAcc().getType();
    SmallVector<Value> a = splitRegisters(rewriter, loc, op.getA());
    SmallVector<Value> b = splitRegisters(rewriter, loc, op.getB());
    SmallVector<Value> c = splitRegisters(rewriter, loc, op.getAcc());
    SmallVector<Type> registerTypes(c.size(),
                                    getRegisterType(accType.getElementType()));
    auto resultType =
        LLVM::LLVMStructType::getLiteral(getContext(), registerTypes);

    Value result;
    if (mma.getScales() == MmaScaleKind::Ue4m3Block16) {
      // NVFP4: the instruction applies one UE4M3 scale per 16 elements of
      // K from the lane's scale registers, with the op's selectors.
      SmallVector<int32_t> selectors(4, 0);
      if (std::optional<ArrayRef<int32_t>> given = op.getScaleSelectors())
        selectors.assign(given->begin(), given->end());
      auto selector = [&](int32_t value) -> Value {
        return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI16Type(),
                                        rewriter.getI16IntegerAttr(value));
      };
      result = NVVM::MmaBlockScaleOp::create(
          rewriter, loc, resultType, a, b, c, op.getAScales(),
          selector(selectors[0]), selector(selectors[1]), op.getBScales(),
          selector(selectors[2]), selector(selectors[3]),
          /*shape=*/{mma.getM(), mma.getN(), mma.getK()},
          std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::e2m1,
                                        NVVM::MMATypes::e2m1},
          NVVM::ScaleVecSize::X4, NVVM::BlockScaleFormat::UE4M3,
          NVVM::MMABlockScaleKind::MXF4NVF4);
    } else if (row.a == "e4m3") {
      // MLIR 22's nvvm.mma.sync verifier rejects e4m3 (docs/Mma.md).
      std::string intrinsic = ("llvm.nvvm.mma.m16n8k32.row.col." + row.acc +
                               ".e4m3.e4m3." + row.acc)
                                  .str();
      SmallVector<Value> operands =
          llvm::to_vector(llvm::concat<Value>(a, b, c));
      result = LLVM::CallIntrinsicOp::create(rewriter, loc, resultType,
                                             rewriter.getStringAttr(intrinsic),
                                             operands)
                   .getResult(0);
    } else {
      // The s4 row is the .satfinite instruction; s8 wraps (docs/Mma.md).
      std::optional<NVVM::MMAIntOverflow> overflow;
      if (row.a == "s8")
        overflow = NVVM::MMAIntOverflow::wrapped;
      else if (row.a == "s4")
        overflow = NVVM::MMAIntOverflow::satfinite;
      NVVM::MMATypes format = getNvvmType(row.a);
      result =
          NVVM::MmaOp::create(rewriter, loc, resultType, a, b, c,
                              /*shape=*/{mma.getM(), mma.getN(), mma.getK()},
                              /*b1Op=*/std::nullopt, overflow,
                              std::array<NVVM::MMATypes, 2>{format, format},
                              std::array<NVVM::MMALayout, 2>{
                                  NVVM::MMALayout::row, NVVM::MMALayout::col});
    }
    rewriter.replaceOp(op, joinRegisters(rewriter, loc, result, accType));
    return success();
  }
};
} // namespace

void mlir::sage::populateWarpMmaPatterns(RewritePatternSet &patterns) {
  patterns.add<WarpMmaToNVVM>(patterns.getContext());
}
