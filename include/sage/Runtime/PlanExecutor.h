//===- PlanExecutor.h - Runs a resolved launch plan on a GPU ----*- C++ -*-===//
//
// Loads a plan's PTX (capturing the JIT's error log), resolves its kernels,
// checks every launch against the kernel's attributes (threads per block,
// shared memory, parameter count and sizes where the driver reports them),
// allocates one or more copies ("buffer sets") of every buffer, and
// launches the kernels in order on the legacy default stream:
//
//   zero the "init": "zero" buffers; launch each kernel whose grid has no
//   zero extent, with its parameters (device pointers and 32-bit ints).
//
// Every failure is one line naming the CUDA call, the buffer or the kernel,
// and the CUDA error name.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_PLANEXECUTOR_H
#define SAGE_RUNTIME_PLANEXECUTOR_H

#include "sage/Runtime/CudaDevice.h"
#include "sage/Runtime/ResolvedPlan.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sage::rt {

/// Per-iteration times of a benchmark, in milliseconds.
struct BenchTimes {
  /// The whole plan: zeroing and every kernel.
  std::vector<double> endToEndMs;
  /// The kernels whose name contains "attention", summed per iteration;
  /// empty if the plan has none.
  std::vector<double> attentionMs;
};

/// Static properties of one kernel of the loaded module.
struct KernelAttributes {
  std::string name;
  int registers = 0;
  int staticSharedBytes = 0;
  int localBytes = 0;
  int maxThreadsPerBlock = 0;
};

/// A plan loaded on a device with its buffers allocated.
class PlanExecutor {
public:
  /// Loads \p ptx (\p ptxName names it in messages) on \p device and
  /// allocates \p bufferSets copies of the buffers of \p resolved. Returns
  /// null and sets \p error on failure. \p plan, \p resolved and \p device
  /// must outlive the executor.
  static std::unique_ptr<PlanExecutor>
  create(CudaDevice &device, const LaunchPlan &plan,
         const ResolvedPlan &resolved, const std::string &ptx,
         const std::string &ptxName, int bufferSets, std::string &error);
  ~PlanExecutor();
  PlanExecutor(const PlanExecutor &) = delete;
  PlanExecutor &operator=(const PlanExecutor &) = delete;

  /// Returns the number of buffer sets.
  int bufferSets() const { return numSets; }

  /// Copies \p bytes (exactly the buffer's size) into buffer \p buffer of
  /// every set.
  std::string upload(int buffer, const std::vector<uint8_t> &bytes);

  /// Copies buffer \p buffer of set \p set into \p bytes.
  std::string download(int buffer, int set, std::vector<uint8_t> &bytes);

  /// Fills the output buffers of \p set with 0xFF bytes (NaN in every float
  /// format), so an output the kernels do not write cannot pass.
  std::string poisonOutputs(int set);

  /// Runs the plan once on \p set and waits for it. With \p checkEach, it
  /// waits after every kernel, so an asynchronous fault names its kernel.
  std::string run(int set, bool checkEach);

  /// Runs \p warmup then \p repeat iterations back to back, rotating
  /// through the buffer sets, and returns the times of the last \p repeat.
  std::string bench(int warmup, int repeat, BenchTimes &times);

  /// Returns the attributes of every kernel the plan launches (in plan
  /// order, one entry per distinct name).
  std::vector<KernelAttributes> kernelAttributes() const;

private:
  PlanExecutor(CudaDevice &device, const LaunchPlan &plan,
               const ResolvedPlan &resolved)
      : device(device), api(device.driver()), plan(plan), resolved(resolved) {}

  std::string loadModule(const std::string &ptx, const std::string &ptxName);
  std::string prepareKernels();
  std::string allocate(int sets);
  void buildArguments();
  /// Enqueues one run of the plan on \p set; records the attention events
  /// into \p attentionEvents (pairs) when given.
  std::string enqueue(int set, bool checkEach, CUevent *attentionEvents);

  CudaDevice &device;
  const CudaDriver &api;
  const LaunchPlan &plan;
  const ResolvedPlan &resolved;
  CUmodule module = nullptr;
  /// One function per plan kernel (index as in plan.kernels).
  std::vector<CUfunction> functions;
  int numSets = 0;
  /// pointers[set][buffer]; 0 for an empty buffer.
  std::vector<std::vector<CUdeviceptr>> pointers;
  /// Parameter storage and pointer arrays, [set][launch].
  std::vector<std::vector<std::vector<uint64_t>>> argValues;
  std::vector<std::vector<std::vector<void *>>> argPointers;
};

} // namespace sage::rt

#endif // SAGE_RUNTIME_PLANEXECUTOR_H
