//===- Tcgen05MmaToNVVM.cpp - sage.tcgen05_mma to its tcgen05.mma ---------===//
//
// The emission of the tcgen05-scope rows of the MMA table (docs/Mma.md),
// one tcgen05.mma each: nvvm.tcgen05.mma (kind::i8, kind::f8f6f4) or
// nvvm.tcgen05.mma.block_scale (kind::mxf4nvf4, block16), cta_group::1,
// with the row's instruction descriptor as a constant. Tensor-memory
// addresses are i32 at L4; the NVVM ops take them as !llvm.ptr<6>.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
struct Tcgen05MmaToNVVM : OpRewritePattern<Tcgen05MmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Tcgen05MmaOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MmaAttr mma = op.getMma();
    const MmaInstruction &row = *mma.getInstruction();
    auto tensorMemory = LLVM::LLVMPointerType::get(getContext(),
                                                   /*addressSpace=*/6);
    auto address = [&](Value value) -> Value {
      return LLVM::IntToPtrOp::create(rewriter, loc, tensorMemory, value);
    };
    Value accumulator = address(op.getAccumulator());
    Value a = op.getA();
    if (mma.getASource() == OperandSource::TensorMemory)
      a = address(a);
    Value descriptor =
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                 rewriter.getI32IntegerAttr(int32_t(
                                     row.getTcgen05Descriptor(mma.getN()))));
    auto ctaGroup = NVVM::CTAGroupKind::CTA_1;
    auto collector = NVVM::Tcgen05MMACollectorOp::DISCARD;
    if (mma.getScales() == MmaScaleKind::Ue4m3Block16) {
      Value aScales = address(op.getAScales());
      Value bScales = address(op.getBScales());
      NVVM::Tcgen05MMABlockScaleOp::create(
          rewriter, loc, NVVM::MMABlockScaleKind::MXF4NVF4, ctaGroup,
          NVVM::Tcgen05MMABlockScale::BLOCK16, collector, accumulator, a,
          op.getB(), descriptor, op.getAccumulate(), aScales, bScales);
    } else {
      NVVM::Tcgen05MMAKind kind = row.a == "s8" ? NVVM::Tcgen05MMAKind::I8
                                                : NVVM::Tcgen05MMAKind::F8F6F4;
      NVVM::Tcgen05MMAOp::create(rewriter, loc, kind, ctaGroup, collector,
                                 /*aShift=*/false, accumulator, a, op.getB(),
                                 descriptor, op.getAccumulate(),
                                 /*scaleInputD=*/Value(),
                                 /*disableOutputLane=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::sage::populateTcgen05MmaPatterns(RewritePatternSet &patterns) {
  patterns.add<Tcgen05MmaToNVVM>(patterns.getContext());
}
