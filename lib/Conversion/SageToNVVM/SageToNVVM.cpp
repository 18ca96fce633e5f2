//===- SageToNVVM.cpp - the convert-sage-to-nvvm pass (L5) ----------------===//

#include "Patterns.h"

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::sage {
#define GEN_PASS_DEF_CONVERTSAGETONVVM
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

void mlir::sage::populateSageToNVVMPatterns(RewritePatternSet &patterns) {
  populateWarpMmaPatterns(patterns);
  populateWarpgroupMmaPatterns(patterns);
  populateTcgen05MmaPatterns(patterns);
  populateMatrixDescriptorPatterns(patterns);
  populateStageRingPatterns(patterns);
  populateWarpSpecializePatterns(patterns);
  populateAccumulatorFragmentPatterns(patterns);
  populateMicroscaleFragmentPatterns(patterns);
  populateScalarMathPatterns(patterns);
}

namespace {
struct ConvertSageToNVVMPass
    : public sage::impl::ConvertSageToNVVMBase<ConvertSageToNVVMPass> {
  void runOnOperation() override {
    if (failed(setWarpSpecializeLaunchBounds(getOperation())))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateSageToNVVMPatterns(patterns);
    // The greedy driver also folds the fragment casts the patterns leave
    // against the ones that built the fragments.
    // Every verified fragment-level op has a pattern that applies (a
    // commit once its waits are lowered: its token has no other users).
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
