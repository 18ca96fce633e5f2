//===- ResolvedPlan.h - A launch plan evaluated for given sizes -*- C++ -*-===//
//
// Binds the sizes a runner was asked for to the plan's symbols, then
// evaluates every shape, grid, block, shared-memory size and integer
// parameter, checking them against the layout and the CUDA launch limits.
// Nothing here needs a GPU: `sage-run --dry-run` prints the result.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_RESOLVEDPLAN_H
#define SAGE_RUNTIME_RESOLVEDPLAN_H

#include "sage/Runtime/Plan.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sage::rt {

/// The attention sizes a run asks for, in the canonical [B, H, N, D] view.
struct ProblemSizes {
  int64_t batch = 1;
  int64_t heads = 1;
  int64_t headsKV = 1;
  int64_t seqQ = 128;
  int64_t seqK = 128;
  /// The head dimension to check against the plan; 0 skips the check.
  int64_t headDim = 0;
};

/// Checks \p sizes against \p plan (positive sizes, D equal to head_dim,
/// Hkv dividing H; for a rank-3 plan H == Hkv, folded into the batch; no
/// product that the kernels' 32-bit index arithmetic would wrap, see
/// docs/LaunchPlan.md) and returns the bindings of the plan's symbols in
/// \p bindings. Returns an empty string or a one-line message that names
/// the sizes as sage-run's options (--B, --H, --Hkv, --Nq, --Nk, --D).
std::string bindSizes(const LaunchPlan &plan, const ProblemSizes &sizes,
                      SizeBindings &bindings);

/// Returns the shape of a tensor in the order of \p layout, given the
/// extent of each role (\p heads is ignored for a rank-3 layout).
std::vector<int64_t> layoutShape(const std::vector<DimRole> &layout,
                                 int64_t batch, int64_t heads, int64_t tokens,
                                 int64_t features);

/// Returns "[a, b, c]".
std::string formatShape(const std::vector<int64_t> &shape);

/// A buffer with its evaluated shape.
struct ResolvedBuffer {
  std::vector<int64_t> shape;
  int64_t elements = 0;
  size_t bytes = 0;
};

/// A kernel parameter with its value.
struct ResolvedParam {
  PlanParam::Kind kind = PlanParam::Kind::I32;
  /// Index into the plan's buffers (Buffer).
  int buffer = -1;
  /// The value (I32).
  int32_t value = 0;
};

/// One launch with its evaluated configuration.
struct ResolvedLaunch {
  /// Index into the plan's kernels.
  int kernel = 0;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t sharedBytes = 0;
  std::vector<ResolvedParam> params;
  /// True if a grid extent is 0: the launch is skipped.
  bool skipped = false;
  /// True if the kernel's name contains "attention" (timed alone).
  bool isAttention = false;
};

/// A plan evaluated for one set of sizes.
struct ResolvedPlan {
  SizeBindings sizes;
  std::vector<ResolvedBuffer> buffers;
  std::vector<ResolvedLaunch> launches;

  /// Returns the bytes of all buffers, each rounded up to 256.
  size_t totalBytes() const;
};

/// Evaluates \p plan for \p sizes (from bindSizes) into \p resolved, and
/// checks the q, k, v, o and lse shapes against the layout and the launch
/// configurations against the CUDA limits.
std::string resolvePlan(const LaunchPlan &plan, const SizeBindings &sizes,
                        ResolvedPlan &resolved);

/// Returns a human-readable listing of \p resolved, one line per buffer
/// and per launch, for `sage-run --dry-run`.
std::string describeResolvedPlan(const LaunchPlan &plan,
                                 const ResolvedPlan &resolved);

/// Formats a byte count as "512 B", "1.50 KiB", "12.00 MiB", "1.50 GiB".
std::string formatBytes(double bytes);

} // namespace sage::rt

#endif // SAGE_RUNTIME_RESOLVEDPLAN_H
