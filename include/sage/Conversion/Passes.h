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
class ModuleOp;

namespace sage {

#define GEN_PASS_DECL
#include "sage/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "sage/Conversion/Passes.h.inc"

} // namespace sage
} // namespace mlir

#endif // SAGE_CONVERSION_PASSES_H
