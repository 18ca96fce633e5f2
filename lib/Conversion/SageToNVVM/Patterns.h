//===- Patterns.h - the convert-sage-to-nvvm patterns, by file --*- C++ -*-===//

#ifndef SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H
#define SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H

namespace mlir {
class RewritePatternSet;
namespace sage {
/// sage.warp_mma to its instruction (WarpMmaToNVVM.cpp).
void populateWarpMmaPatterns(RewritePatternSet &patterns);
/// sage.warpgroup_mma to its wgmma (WarpgroupMmaToNVVM.cpp).
void populateWarpgroupMmaPatterns(RewritePatternSet &patterns);
/// sage.warp_specialize to one branch per role (WarpSpecializeToNVVM.cpp).
void populateWarpSpecializePatterns(RewritePatternSet &patterns);
/// sage.mask_scores, sage.online_softmax, sage.quantize and sage.accumulate on
/// accumulator fragments (AccumulatorFragments.cpp).
void populateAccumulatorFragmentPatterns(RewritePatternSet &patterns);
} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_CONVERSION_SAGETONVVM_PATTERNS_H
