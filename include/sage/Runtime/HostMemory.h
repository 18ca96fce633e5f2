//===- HostMemory.h - What a run holds on the host --------------*- C++ -*-===//
//
// sage-run keeps the inputs, the mask, the GPU's results and the reference
// outputs on the host as f32 / f64 arrays. At sizes the GPU takes easily
// that can exceed the machine's memory, and an allocation that fails
// aborts the process (no exceptions): sage-run estimates the total first
// and refuses the run with the numbers instead.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_HOSTMEMORY_H
#define SAGE_RUNTIME_HOSTMEMORY_H

#include "sage/Runtime/Plan.h"
#include "sage/Runtime/ResolvedPlan.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sage::rt {

/// The host-side work of one run besides the inputs and GPU results.
struct HostChecks {
  bool reference = false; ///< The FP64 attention.
  bool model = false;     ///< The CPU model of the kernel.
  /// Query rows the references compute; 0 for all.
  int64_t sampleRows = 0;
};

/// The host memory a run of \p plan for \p sizes needs, in bytes (an
/// estimate in double: the largest arrays, not every temporary).
double estimateHostBytes(const LaunchPlan &plan, const ResolvedPlan &resolved,
                         const ProblemSizes &sizes, const HostChecks &checks);

/// MemAvailable of /proc/meminfo, or nothing where there is none.
std::optional<uint64_t> getAvailableHostBytes();

/// An error naming both numbers if the run needs more host memory than
/// \p available bytes, else an empty string.
std::string checkHostMemory(double needed, uint64_t available);

} // namespace sage::rt

#endif // SAGE_RUNTIME_HOSTMEMORY_H
