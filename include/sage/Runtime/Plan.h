//===- Plan.h - The launch plan of a compiled attention ---------*- C++ -*-===//
//
// The JSON launch plan of docs/LaunchPlan.md as structs: which buffers to
// allocate, which kernels to launch in which order with which grid, block,
// shared memory and parameters, all as size expressions. parsePlan checks
// every field's presence and type and the references between fields; each
// error is one line naming the field, e.g.
//   field 'kernels[0].params[1].buffer': unknown buffer 'k_sum2'
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_PLAN_H
#define SAGE_RUNTIME_PLAN_H

#include "sage/Reference/Problem.h"
#include "sage/Reference/Quantize.h"
#include "sage/Runtime/SizeExpr.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sage::rt {

/// Element types of plan buffers. I1 (a keep-mask) takes one byte per
/// element, nonzero for true, as NumPy's bool.
enum class ElementType { F16, BF16, F32, I8, F8E4M3FN, I32, I1 };

/// Returns the bytes of one element of \p type.
size_t elementSize(ElementType type);
/// Returns the plan spelling of \p type (f16, bf16, f32, i8, f8E4M3FN, i32,
/// i1).
const char *toString(ElementType type);
/// Parses a plan spelling; returns false if \p text names no type.
bool parseElementType(std::string_view text, ElementType &type);

/// Who fills a buffer.
enum class BufferKind {
  Input,     ///< The runner uploads it (q, k, v, mask).
  Output,    ///< The runner downloads it (o, lse).
  Workspace, ///< Intermediate data of the kernels.
};

/// Returns the plan spelling of \p kind (input, output, workspace).
const char *toString(BufferKind kind);

/// The role of one dimension of the inputs and outputs.
enum class DimRole { Batch, Heads, Tokens, Features };

/// Returns the plan spelling of \p role (batch, heads, tokens, features).
const char *toString(DimRole role);

/// One device buffer.
struct PlanBuffer {
  std::string name;
  BufferKind kind = BufferKind::Workspace;
  ElementType type = ElementType::F32;
  /// Dense row-major shape, one expression per dimension.
  std::vector<SizeExpr> shape;
  /// Zeroed before the first kernel of every run ("init": "zero").
  bool zeroInit = false;
};

/// One kernel parameter.
struct PlanParam {
  enum class Kind { Buffer, I32 };
  Kind kind = Kind::I32;
  /// Index into LaunchPlan::buffers (Buffer).
  int buffer = -1;
  /// The value (I32).
  SizeExpr value;
};

/// One kernel launch.
struct PlanKernel {
  std::string name;
  std::array<SizeExpr, 3> grid;
  std::array<SizeExpr, 3> block;
  /// Dynamic shared memory in bytes.
  SizeExpr sharedBytes;
  std::vector<PlanParam> params;
};

/// The tiles the kernel was compiled with.
struct PlanTiles {
  int64_t blockQ = 0;
  int64_t warpQ = 0;
  int64_t blockK = 0;
  int64_t warps = 0;
};

/// Which operands are smoothed.
struct PlanSmooth {
  bool q = false;
  bool k = false;
  bool v = false;
};

/// A whole launch plan.
struct LaunchPlan {
  std::string name;
  /// PTX file, relative to the plan's folder.
  std::string ptx;
  /// Target, e.g. "sm_90" or "sm_90a".
  std::string chip;
  /// The numeric part of chip (90 for sm_90a).
  int smVersion = 0;
  /// True for an arch-specific target (sm_90a), which runs on that
  /// compute capability only.
  bool archSpecific = false;
  std::string variant;
  /// Rank 4 (batch, heads, tokens, features in some order) or rank 3 (no
  /// heads).
  std::vector<DimRole> layout;
  int64_t headDim = 0;
  int64_t valueDim = 0;
  ElementType inputType = ElementType::F16;
  ElementType outputType = ElementType::F16;
  /// From `causal` and `causal_alignment` (bottom_right when absent).
  sage::ref::Causal causal = sage::ref::Causal::None;
  /// Softmax scale; 0 stands for 1/sqrt(head_dim).
  double scale = 0.0;
  /// Q/K scale groups from `qk_granularity`; absent, the variant's.
  std::optional<sage::ref::Granularity> queryKeyGranularity;
  /// MMAs an f16 P V accumulator sums before a flush, from
  /// `f16_flush_every`; absent, the variant's.
  std::optional<int64_t> f16FlushEvery;
  /// P_r and V_r from `ranges`; absent, the variant's.
  std::optional<double> probRange, valueRange;
  PlanSmooth smooth;
  PlanTiles tiles;
  std::vector<PlanBuffer> buffers;
  std::vector<PlanKernel> kernels;

  /// Returns the index of buffer \p name, or -1.
  int findBuffer(std::string_view name) const;
  /// Returns true if the layout has a heads dimension (rank 4).
  bool hasHeads() const { return layout.size() == 4; }
};

/// Parses and validates the JSON \p text into \p plan. Returns an empty
/// string on success, otherwise one line naming the field.
std::string parsePlan(std::string_view text, LaunchPlan &plan);

/// Reads \p path and parses it; an error starts with the path.
std::string loadPlanFile(const std::string &path, LaunchPlan &plan);

/// Reads a whole file into \p contents; returns an empty string or a
/// message "cannot read 'PATH': REASON".
std::string readFile(const std::string &path, std::string &contents);

/// Reads a whole file into \p contents; returns an empty string or the
/// system's reason, with \p opened saying whether the file opened (a
/// directory opens and then fails to read). The readers of plans, .npy
/// files and sage-run's inputs word their messages around it.
std::string readFileBytes(const std::string &path, std::string &contents,
                          bool &opened);

} // namespace sage::rt

#endif // SAGE_RUNTIME_PLAN_H
