//===- WarpSpecializeToNVVM.cpp - warp roles to branches and setmaxnreg ---===//
//
// sage.warp_specialize becomes one scf.if per role on the thread index:
// role i runs on threads [32 * (warps before it), + 32 * warps[i]), first
// moves its warpgroups' register budget with setmaxnreg, then runs its
// region on the thread's index within the role (docs/Levels.md, L4).
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
struct WarpSpecializeToNVVM : OpRewritePattern<WarpSpecializeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(WarpSpecializeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The kernel's launch bounds were set by setWarpSpecializeLaunchBounds.
    int64_t ctas = op.getCtasPerSm();
    Value tid = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getI32Type(),
        gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x));
    int64_t entry =
        WarpSpecializeOp::getEntryRegisters(op.getThreadCount(), ctas);
    int64_t first = 0;
    for (auto [role, warps, registers] :
         llvm::zip_equal(op.getRoles(), op.getWarps(), op.getRegisters())) {
      int64_t begin = 32 * first, end = begin + 32 * warps;
      first += warps;
      // The first role starts at thread 0 and the last ends at the CTA's
      // end: those bounds need no test.
      Value beginValue = arith::ConstantIntOp::create(rewriter, loc, begin, 32);
      Value inRole;
      if (begin > 0)
        inRole = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                       tid, beginValue);
      if (end < op.getThreadCount()) {
        Value beforeEnd = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult, tid,
            arith::ConstantIntOp::create(rewriter, loc, end, 32));
        inRole = inRole
                     ? arith::AndIOp::create(rewriter, loc, inRole, beforeEnd)
                     : beforeEnd;
      }
      if (!inRole)
        inRole = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
      auto branch = scf::IfOp::create(rewriter, loc, inRole,
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
      if (registers != entry)
        NVVM::SetMaxRegisterOp::create(
            rewriter, loc, registers,
            registers > entry ? NVVM::SetMaxRegisterAction::increase
                              : NVVM::SetMaxRegisterAction::decrease);
      Value roleThread = arith::SubIOp::create(rewriter, loc, tid, beginValue);
      rewriter.inlineBlockBefore(&role.front(),
                                 branch.thenBlock()->getTerminator(),
                                 ValueRange{roleThread});
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

LogicalResult mlir::sage::setWarpSpecializeLaunchBounds(Operation *root) {
  WalkResult result = root->walk([](WarpSpecializeOp op) {
    auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
    if (!kernel || !kernel.isKernel()) {
      op.emitOpError("must be inside a kernel (gpu.func ... kernel): "
                     "setmaxnreg needs the kernel's launch bounds");
      return WalkResult::interrupt();
    }
    // setmaxnreg is only honoured with launch bounds: the CTAs an SM holds
    // with the roles' budgets.
    StringRef name = NVVM::NVVMDialect::getMinctasmAttrName();
    auto ctas = IntegerAttr::get(IntegerType::get(op.getContext(), 32),
                                 op.getCtasPerSm());
    if (auto existing = kernel->getAttrOfType<IntegerAttr>(name);
        existing && existing != ctas) {
      op.emitOpError() << "holds " << ctas.getInt()
                       << " CTAs an SM with its register budgets, but the "
                          "kernel asks for "
                       << name << " = " << existing.getInt();
      return WalkResult::interrupt();
    }
    kernel->setAttr(name, ctas);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void mlir::sage::populateWarpSpecializePatterns(RewritePatternSet &patterns) {
  patterns.add<WarpSpecializeToNVVM>(patterns.getContext());
}
