//===- LaunchPlan.h - what a runner needs to launch sage kernels -*- C++
//-*-===//
//
// The launch plan of docs/LaunchPlan.md, built next to the kernels and
// attached to the module as a dictionary attribute.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H
#define SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <string>

namespace mlir::sage {

/// A buffer of the plan; `shape` holds size expressions.
struct PlanBuffer {
  std::string name;
  std::string kind; // input, output or workspace
  std::string type; // f16, bf16, f32, i8, f8E4M3FN
  SmallVector<std::string> shape;
  bool zeroInit = false;
};

/// One kernel parameter: a buffer (device pointer) or an i32 expression.
struct PlanParam {
  bool isBuffer;
  std::string value;
};

/// One kernel launch, in plan order.
struct PlanLaunch {
  std::string kernel;
  std::array<std::string, 3> grid;
  int64_t blockSize;
  /// Dynamic shared memory of each launch.
  int64_t sharedBytes = 0;
  SmallVector<PlanParam> params;
};

/// The size expression for the number of `block`-sized blocks that cover
/// `size`: "cdiv(size,block)".
std::string getBlockCountExpr(StringRef size, int64_t block);

struct LaunchPlan {
  std::string name, chip, variant;
  SmallVector<std::string> layout;
  int64_t headDim = 0, valueDim = 0;
  std::string inputType, outputType;
  bool causal = false, causalTopLeft = false;
  double scale = 0;
  bool smoothQ = false, smoothK = false, smoothV = false;
  int64_t blockQ = 0, warpQ = 0, blockK = 0, warps = 0;
  SmallVector<PlanBuffer> buffers;
  SmallVector<PlanLaunch> launches;

  /// The plan as the `sage.launch_plan` dictionary of docs/LaunchPlan.md.
  DictionaryAttr toAttribute(MLIRContext *ctx) const;
};

} // namespace mlir::sage

#endif // SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H
