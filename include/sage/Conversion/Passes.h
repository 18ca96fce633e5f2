//===- Passes.h - sage conversion passes ------------------------*- C++ -*-===//

#ifndef SAGE_CONVERSION_PASSES_H
#define SAGE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
class GPUModuleOp;
} // namespace gpu
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace math {
class MathDialect;
} // namespace math
namespace memref {
class MemRefDialect;
} // namespace memref
namespace NVVM {
class NVVMDialect;
} // namespace NVVM
namespace scf {
class SCFDialect;
} // namespace scf
namespace vector {
class VectorDialect;
} // namespace vector
class RewritePatternSet;
class ModuleOp;

namespace sage {

#define GEN_PASS_DECL
#include "sage/Conversion/Passes.h.inc"

/// The L5 patterns: each instruction-level sage op to its instruction.
void populateSageToNVVMPatterns(RewritePatternSet &patterns);

/// Whether convert-sage-to-gpu's `mma-scope` option (auto, warp or
/// warpgroup) gives the wgmma kernel on `chip` (auto: where the chip runs
/// wgmma, sm_90a); nullopt for an unknown option or chip.
std::optional<bool> isWarpgroupScope(llvm::StringRef mmaScope,
                                     llvm::StringRef chip);

#define GEN_PASS_REGISTRATION
#include "sage/Conversion/Passes.h.inc"

} // namespace sage
} // namespace mlir

#endif // SAGE_CONVERSION_PASSES_H
