//===- LaunchPlan.h - what a runner needs to launch sage kernels -*- C++
//-*-===//
//
// The launch plan of docs/LaunchPlan.md, built next to the kernels and
// attached to the module as a dictionary attribute.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H
#define SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace mlir::sage {

/// A size of the plan over the run-time sizes B, H, Hkv, Nq and Nk: an
/// integer, a symbol, `cdiv(e, n)` or `e * n`. The plan's JSON holds it as
/// a tree (docs/LaunchPlan.md), the host launcher computes it in IR
/// (docs/Launchers.md): one value, two readers, no parsing.
class SizeExpr {
public:
  /* implicit */ SizeExpr(int64_t value = 0)
      : kind(Kind::Constant), value(value) {}
  static SizeExpr symbol(StringRef name);
  /// The number of `divisor`-sized blocks that cover `size`.
  static SizeExpr ceilDiv(SizeExpr size, int64_t divisor);
  SizeExpr operator*(int64_t factor) const;

  /// "cdiv(Nq,64)*64", for messages and the header's comments.
  std::string str() const;
  /// The plan's form (docs/LaunchPlan.md): an integer, a size name, or
  /// {cdiv = [size, n]} / {mul = [size, n]}.
  Attribute toAttribute(Builder &b) const;
  /// The value as i64 arithmetic at `b`'s insertion point; `symbol` gives
  /// each symbol's i64 value.
  Value build(OpBuilder &b, Location loc,
              function_ref<Value(StringRef)> symbol) const;

private:
  enum class Kind { Constant, Symbol, CeilDiv, Mul };
  SizeExpr(Kind kind, int64_t value, std::string name,
           std::shared_ptr<const SizeExpr> operand)
      : kind(kind), value(value), name(std::move(name)),
        operand(std::move(operand)) {}

  Kind kind;
  /// The constant, the divisor or the factor.
  int64_t value = 0;
  std::string name;
  std::shared_ptr<const SizeExpr> operand;
};

/// A buffer of the plan.
struct PlanBuffer {
  std::string name;
  std::string kind; // input, output or workspace
  std::string type; // f16, bf16, f32, i8, f8E4M3FN
  std::vector<SizeExpr> shape;
  bool zeroInit = false;
};

/// One kernel parameter: a buffer (device pointer) or an i32 size symbol.
struct PlanParam {
  bool isBuffer;
  /// The buffer's name or the symbol.
  std::string value;
};

/// One kernel launch, in plan order.
struct PlanLaunch {
  std::string kernel;
  std::array<SizeExpr, 3> grid;
  int64_t blockSize;
  /// Dynamic shared memory of each launch.
  int64_t sharedBytes = 0;
  SmallVector<PlanParam> params;
};

/// The number of `block`-sized blocks that cover the size `symbol`.
SizeExpr getBlockCount(StringRef symbol, int64_t block);

struct LaunchPlan {
  std::string name, chip, variant;
  SmallVector<std::string> layout;
  int64_t headDim = 0, valueDim = 0;
  std::string inputType, outputType;
  bool causal = false, causalTopLeft = false;
  double scale = 0;
  // Which Q and K elements share a scale (per_thread, per_warp, per_block).
  std::string queryKeyGranularity = "per_thread";
  // The MMAs an f16 P V accumulator sums before each flush; 0 for f32.
  int64_t f16FlushEvery = 0;
  // P_r and V_r, the static ranges P and V are quantized to.
  double probRange = 0, valueRange = 0;
  bool smoothQ = false, smoothK = false, smoothV = false;
  int64_t blockQ = 0, warpQ = 0, blockK = 0, warps = 0;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanLaunch> launches;

  /// The plan as the `sage.launch_plan` dictionary of docs/LaunchPlan.md.
  DictionaryAttr toAttribute(MLIRContext *ctx) const;
};

} // namespace mlir::sage

#endif // SAGE_LIB_CONVERSION_SAGETOGPU_LAUNCHPLAN_H
