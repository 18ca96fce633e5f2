//===- Patterns.h - the convert-sage-to-nvvm patterns, by file --*- C++ -*-===//

#ifndef SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H
#define SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Operation;
class RewritePatternSet;
namespace sage {
/// sage.warp_mma to its instruction (WarpMmaToNVVM.cpp).
void populateWarpMmaPatterns(RewritePatternSet &patterns);
/// sage.warpgroup_mma to its wgmma (WarpgroupMmaToNVVM.cpp).
void populateWarpgroupMmaPatterns(RewritePatternSet &patterns);
/// sage.matrix_descriptor to its 64 bits (MatrixDescriptors.cpp).
void populateMatrixDescriptorPatterns(RewritePatternSet &patterns);
/// sage.tcgen05_mma to its tcgen05.mma (Tcgen05MmaToNVVM.cpp).
void populateTcgen05MmaPatterns(RewritePatternSet &patterns);
/// The ops on a stage ring to its mbarriers (StageRingToNVVM.cpp).
void populateStageRingPatterns(RewritePatternSet &patterns);
/// sage.warp_specialize to one branch per role (WarpSpecializeToNVVM.cpp).
void populateWarpSpecializePatterns(RewritePatternSet &patterns);
/// Gives each kernel holding a sage.warp_specialize the nvvm.minctasm its
/// register budgets allow, which setmaxnreg needs; fails, with an error,
/// for one outside a kernel or against a kernel's other minctasm.
LogicalResult setWarpSpecializeLaunchBounds(Operation *root);
/// sage.mask_scores, sage.online_softmax, sage.quantize and sage.accumulate on
/// accumulator fragments (AccumulatorFragments.cpp).
void populateAccumulatorFragmentPatterns(RewritePatternSet &patterns);
/// sage.quantize of NVFP4 (P in two levels) on accumulator fragments
/// (MicroscaleFragments.cpp).
void populateMicroscaleFragmentPatterns(RewritePatternSet &patterns);
/// The quantizers' scalar truncf to FP8, absf and roundeven
/// (ScalarMath.cpp).
void populateScalarMathPatterns(RewritePatternSet &patterns);
} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H
