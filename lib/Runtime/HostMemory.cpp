//===- HostMemory.cpp - What a run holds on the host ----------------------===//

#include "sage/Runtime/HostMemory.h"

#include "sage/Runtime/Mask.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace sage::rt;

double sage::rt::estimateHostBytes(const LaunchPlan &plan,
                                   const ResolvedPlan &resolved,
                                   const ProblemSizes &sizes,
                                   const HostChecks &checks) {
  const double queryRows = static_cast<double>(sizes.batch) *
                           static_cast<double>(sizes.heads) *
                           static_cast<double>(sizes.seqQ);
  const double keyRows = static_cast<double>(sizes.batch) *
                         static_cast<double>(sizes.headsKV) *
                         static_cast<double>(sizes.seqK);
  const double dim = static_cast<double>(plan.headDim);
  const double valueDim = static_cast<double>(plan.valueDim);
  // Q, K, V and the GPU's output and LSE as f32.
  double bytes = 4.0 * (queryRows * dim + keyRows * (dim + valueDim) +
                        queryRows * valueDim + queryRows);
  MaskDims mask;
  if (getMaskDims(plan, resolved, sizes, mask))
    bytes += 4.0 * static_cast<double>(mask.elements());
  // One buffer in its plan type at a time, on its way to or from the GPU.
  size_t staging = 0;
  for (const ResolvedBuffer &buffer : resolved.buffers)
    staging = std::max(staging, buffer.bytes);
  bytes += static_cast<double>(staging);
  // The references' outputs: f64 rows of the FP64 attention, f32 of the
  // model, over every row or the sample.
  const double rows =
      checks.sampleRows > 0
          ? std::min(queryRows, static_cast<double>(checks.sampleRows))
          : queryRows;
  if (checks.reference)
    bytes += 8.0 * rows * (valueDim + 1);
  if (checks.model)
    bytes += 4.0 * rows * (valueDim + 1);
  return bytes;
}

std::optional<uint64_t> sage::rt::getAvailableHostBytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:")
      return kib * 1024;
  }
  return std::nullopt;
}

std::string sage::rt::checkHostMemory(double needed, uint64_t available) {
  if (needed <= static_cast<double>(available))
    return std::string();
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  char buffer[320];
  std::snprintf(buffer, sizeof(buffer),
                "the run needs about %.1f GiB of host memory (inputs and mask "
                "as f32, the GPU's results, the references' rows) but %.1f "
                "GiB is available: ask for smaller sizes, or check fewer rows "
                "with --sample-rows K or none with --no-reference",
                needed / kGiB, static_cast<double>(available) / kGiB);
  return buffer;
}
