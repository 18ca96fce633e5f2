//===- PlanExecutor.cpp - Runs a resolved launch plan on a GPU ------------===//

#include "sage/Runtime/PlanExecutor.h"

#include <algorithm>
#include <cstring>

using namespace sage::rt;

/// Bytes of each JIT log buffer.
static constexpr size_t kJitLogBytes = 16384;

/// Joins the lines of a log into one line ("a; b"), trimmed.
static std::string oneLine(const char *log) {
  std::string out;
  bool pendingBreak = false;
  for (const char *c = log; *c; ++c) {
    if (*c == '\n' || *c == '\r') {
      pendingBreak = !out.empty();
      continue;
    }
    if (pendingBreak) {
      out += "; ";
      pendingBreak = false;
    }
    out += *c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';'))
    out.pop_back();
  return out;
}

static std::string dim3(const std::array<uint32_t, 3> &v) {
  return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
         std::to_string(v[2]) + "]";
}

namespace {
/// CUDA events destroyed with the pool.
class EventPool {
public:
  explicit EventPool(const CudaDriver &api) : api(api) {}
  ~EventPool() {
    for (CUevent event : events)
      api.eventDestroy(event);
  }
  /// Creates \p count events; returns an empty string or the error.
  std::string create(size_t count) {
    events.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      CUevent event = nullptr;
      std::string error =
          api.check(api.eventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
      if (!error.empty())
        return error;
      events.push_back(event);
    }
    return std::string();
  }
  /// Returns the milliseconds between events \p start and \p end.
  std::string elapsed(size_t start, size_t end, double &milliseconds) {
    float ms = 0.0f;
    std::string error =
        api.check(api.eventElapsedTime(&ms, events[start], events[end]),
                  "cuEventElapsedTime");
    milliseconds = ms;
    return error;
  }
  CUevent *data() { return events.data(); }

private:
  const CudaDriver &api;
  std::vector<CUevent> events;
};
} // namespace

std::unique_ptr<PlanExecutor>
PlanExecutor::create(CudaDevice &device, const LaunchPlan &plan,
                     const ResolvedPlan &resolved, const std::string &ptx,
                     const std::string &ptxName, int bufferSets,
                     std::string &error) {
  std::unique_ptr<PlanExecutor> executor(
      new PlanExecutor(device, plan, resolved));
  error = executor->loadModule(ptx, ptxName);
  if (error.empty())
    error = executor->prepareKernels();
  if (error.empty())
    error = executor->allocate(bufferSets < 1 ? 1 : bufferSets);
  if (!error.empty())
    return nullptr;
  executor->buildArguments();
  return executor;
}

PlanExecutor::~PlanExecutor() {
  for (const std::vector<CUdeviceptr> &set : pointers)
    for (CUdeviceptr pointer : set)
      if (pointer)
        api.memFree(pointer);
  if (module)
    api.moduleUnload(module);
}

std::string PlanExecutor::loadModule(const std::string &ptx,
                                     const std::string &ptxName) {
  std::vector<char> errorLog(kJitLogBytes, 0), infoLog(kJitLogBytes, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1))};
  // The image must be NUL-terminated PTX text: c_str() is.
  CUresult result =
      api.moduleLoadDataEx(&module, ptx.c_str(), 4, options, values);
  if (result == CUDA_SUCCESS)
    return std::string();
  module = nullptr;
  std::string log = oneLine(errorLog.data());
  return "cuModuleLoadDataEx of '" + ptxName +
         "' failed: " + api.describe(result) + (log.empty() ? "" : ": " + log);
}

/// Returns the expected byte size of a plan parameter.
static size_t paramBytes(const PlanParam &param) {
  return param.kind == PlanParam::Kind::Buffer ? 8 : 4;
}

std::string PlanExecutor::prepareKernels() {
  const DeviceInfo &info = device.info();
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    const PlanKernel &kernel = plan.kernels[k];
    CUfunction function = nullptr;
    CUresult result =
        api.moduleGetFunction(&function, module, kernel.name.c_str());
    if (result != CUDA_SUCCESS)
      return "kernel '" + kernel.name + "' (kernels[" + std::to_string(k) +
             "]) not found in the PTX: cuModuleGetFunction failed: " +
             api.describe(result);
    functions.push_back(function);

    // Parameters: count and sizes, where the driver can tell.
    if (api.funcGetParamInfo) {
      std::vector<size_t> sizes;
      CUresult last = CUDA_SUCCESS;
      while (true) {
        size_t offset = 0, size = 0;
        last = api.funcGetParamInfo(function, sizes.size(), &offset, &size);
        if (last != CUDA_SUCCESS)
          break;
        sizes.push_back(size);
      }
      if (!sizes.empty() && last == CUDA_ERROR_INVALID_VALUE) {
        if (sizes.size() != kernel.params.size())
          return "kernel '" + kernel.name + "' takes " +
                 std::to_string(sizes.size()) +
                 " parameters in the PTX but the plan passes " +
                 std::to_string(kernel.params.size());
        for (size_t p = 0; p < sizes.size(); ++p)
          if (sizes[p] != paramBytes(kernel.params[p]))
            return "parameter " + std::to_string(p) + " of kernel '" +
                   kernel.name + "' is " + std::to_string(sizes[p]) +
                   " bytes in the PTX but the plan passes " +
                   (kernel.params[p].kind == PlanParam::Kind::Buffer
                        ? "a buffer pointer (8 bytes)"
                        : "an i32 (4 bytes)");
      }
    }

    int maxThreads = 0, staticShared = 0;
    std::string error = api.check(
        api.funcGetAttribute(&maxThreads,
                             CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function),
        "cuFuncGetAttribute of kernel '" + kernel.name + "'");
    if (error.empty())
      error = api.check(
          api.funcGetAttribute(&staticShared,
                               CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
          "cuFuncGetAttribute of kernel '" + kernel.name + "'");
    if (!error.empty())
      return error;
    const ResolvedLaunch &launch = resolved.launches[k];
    uint64_t threads =
        uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
    if (threads > static_cast<uint64_t>(maxThreads))
      return "kernel '" + kernel.name + "' is launched with " +
             std::to_string(threads) + " threads per block but allows " +
             std::to_string(maxThreads) + " (registers or .maxntid)";
    uint64_t shared = uint64_t(staticShared) + launch.sharedBytes;
    if (shared > static_cast<uint64_t>(info.maxSharedOptin))
      return "kernel '" + kernel.name + "' needs " + std::to_string(shared) +
             " bytes of shared memory (" + std::to_string(staticShared) +
             " static + " + std::to_string(launch.sharedBytes) +
             " dynamic) but the device allows " +
             std::to_string(info.maxSharedOptin) + " per block";
  }
  // Opt in to dynamic shared memory beyond the default 48 KiB, once per
  // kernel name with the largest size any of its launches asks for.
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    const std::string &name = plan.kernels[k].name;
    bool first = true;
    uint32_t largest = 0;
    for (size_t other = 0; other < plan.kernels.size(); ++other) {
      if (plan.kernels[other].name != name)
        continue;
      first &= other >= k;
      largest = std::max(largest, resolved.launches[other].sharedBytes);
    }
    if (!first || largest == 0)
      continue;
    std::string error = api.check(
        api.funcSetAttribute(functions[k],
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             static_cast<int>(largest)),
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = " +
            std::to_string(largest) + ") of kernel '" + name + "'");
    if (!error.empty())
      return error;
  }
  return std::string();
}

std::string PlanExecutor::allocate(int sets) {
  numSets = sets;
  pointers.assign(static_cast<size_t>(sets),
                  std::vector<CUdeviceptr>(plan.buffers.size(), 0));
  for (int set = 0; set < sets; ++set)
    for (size_t b = 0; b < plan.buffers.size(); ++b) {
      size_t bytes = resolved.buffers[b].bytes;
      if (bytes == 0)
        continue;
      CUresult result = api.memAlloc(&pointers[set][b], bytes);
      if (result != CUDA_SUCCESS) {
        pointers[set][b] = 0;
        std::string what = formatBytes(static_cast<double>(bytes));
        if (sets > 1)
          what += ", copy " + std::to_string(set + 1) + " of " +
                  std::to_string(sets);
        return "cuMemAlloc of buffer '" + plan.buffers[b].name + "' (" + what +
               ") failed: " + api.errorName(result) + " (" +
               device.memorySummary() + ")";
      }
    }
  return std::string();
}

void PlanExecutor::buildArguments() {
  argValues.assign(static_cast<size_t>(numSets), {});
  argPointers.assign(static_cast<size_t>(numSets), {});
  for (int set = 0; set < numSets; ++set) {
    auto &values = argValues[set];
    auto &ptrs = argPointers[set];
    values.resize(resolved.launches.size());
    ptrs.resize(resolved.launches.size());
    for (size_t l = 0; l < resolved.launches.size(); ++l) {
      const ResolvedLaunch &launch = resolved.launches[l];
      values[l].assign(launch.params.size(), 0);
      for (size_t p = 0; p < launch.params.size(); ++p) {
        const ResolvedParam &param = launch.params[p];
        if (param.kind == PlanParam::Kind::Buffer) {
          values[l][p] = pointers[set][static_cast<size_t>(param.buffer)];
        } else {
          // The driver reads 4 bytes at the slot's address.
          std::memcpy(&values[l][p], &param.value, sizeof(int32_t));
        }
      }
      for (uint64_t &slot : values[l])
        ptrs[l].push_back(&slot);
    }
  }
}

std::string PlanExecutor::upload(int buffer,
                                 const std::vector<uint8_t> &bytes) {
  size_t expected = resolved.buffers[static_cast<size_t>(buffer)].bytes;
  const std::string &name = plan.buffers[static_cast<size_t>(buffer)].name;
  if (bytes.size() != expected)
    return "upload of buffer '" + name + "': expected " +
           std::to_string(expected) + " bytes, got " +
           std::to_string(bytes.size());
  if (expected == 0)
    return std::string();
  for (int set = 0; set < numSets; ++set) {
    std::string error =
        api.check(api.memcpyHtoD(pointers[set][static_cast<size_t>(buffer)],
                                 bytes.data(), expected),
                  "cuMemcpyHtoD of buffer '" + name + "'");
    if (!error.empty())
      return error;
  }
  return std::string();
}

std::string PlanExecutor::download(int buffer, int set,
                                   std::vector<uint8_t> &bytes) {
  size_t size = resolved.buffers[static_cast<size_t>(buffer)].bytes;
  bytes.assign(size, 0);
  if (size == 0)
    return std::string();
  return api.check(api.memcpyDtoH(bytes.data(),
                                  pointers[set][static_cast<size_t>(buffer)],
                                  size),
                   "cuMemcpyDtoH of buffer '" +
                       plan.buffers[static_cast<size_t>(buffer)].name + "'");
}

std::string PlanExecutor::poisonOutputs(int set) {
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    if (plan.buffers[b].kind != BufferKind::Output ||
        resolved.buffers[b].bytes == 0)
      continue;
    std::string error = api.check(
        api.memsetD8(pointers[set][b], 0xFF, resolved.buffers[b].bytes),
        "cuMemsetD8 of output buffer '" + plan.buffers[b].name + "'");
    if (!error.empty())
      return error;
  }
  return api.check(api.ctxSynchronize(), "cuCtxSynchronize after poisoning");
}

std::string PlanExecutor::enqueue(int set, bool checkEach,
                                  CUevent *attentionEvents) {
  for (size_t b = 0; b < plan.buffers.size(); ++b) {
    if (!plan.buffers[b].zeroInit || resolved.buffers[b].bytes == 0)
      continue;
    std::string error =
        api.check(api.memsetD8(pointers[set][b], 0, resolved.buffers[b].bytes),
                  "cuMemsetD8 of buffer '" + plan.buffers[b].name + "'");
    if (!error.empty())
      return error;
  }
  size_t attention = 0;
  for (size_t l = 0; l < resolved.launches.size(); ++l) {
    const ResolvedLaunch &launch = resolved.launches[l];
    if (launch.skipped)
      continue;
    const std::string &name =
        plan.kernels[static_cast<size_t>(launch.kernel)].name;
    bool timed = attentionEvents && launch.isAttention;
    if (timed) {
      std::string error =
          api.check(api.eventRecord(attentionEvents[2 * attention], nullptr),
                    "cuEventRecord");
      if (!error.empty())
        return error;
    }
    CUresult result = api.launchKernel(
        functions[static_cast<size_t>(launch.kernel)], launch.grid[0],
        launch.grid[1], launch.grid[2], launch.block[0], launch.block[1],
        launch.block[2], launch.sharedBytes, nullptr,
        argPointers[set][l].data(), nullptr);
    if (result != CUDA_SUCCESS)
      return "cuLaunchKernel of kernel '" + name + "' (kernels[" +
             std::to_string(l) + "], grid " + dim3(launch.grid) + ", block " +
             dim3(launch.block) + ", " + std::to_string(launch.sharedBytes) +
             " shared bytes) failed: " + api.describe(result);
    if (timed) {
      std::string error = api.check(
          api.eventRecord(attentionEvents[2 * attention + 1], nullptr),
          "cuEventRecord");
      if (!error.empty())
        return error;
      ++attention;
    }
    if (checkEach) {
      result = api.ctxSynchronize();
      if (result != CUDA_SUCCESS)
        return "kernel '" + name + "' (kernels[" + std::to_string(l) +
               "]) failed: " + api.describe(result);
    }
  }
  return std::string();
}

std::string PlanExecutor::run(int set, bool checkEach) {
  std::string error = enqueue(set, checkEach, nullptr);
  if (!error.empty())
    return error;
  CUresult result = api.ctxSynchronize();
  if (result == CUDA_SUCCESS)
    return std::string();
  std::string names;
  for (const PlanKernel &kernel : plan.kernels)
    names += (names.empty() ? "" : ", ") + kernel.name;
  return "running the plan's kernels (" + names +
         ") failed: " + api.describe(result);
}

std::string PlanExecutor::bench(int warmup, int repeat, BenchTimes &times) {
  times = BenchTimes();
  size_t attentionLaunches = 0;
  for (const ResolvedLaunch &launch : resolved.launches)
    if (launch.isAttention && !launch.skipped)
      ++attentionLaunches;
  size_t measured = repeat > 0 ? static_cast<size_t>(repeat) : 0;
  EventPool endToEnd(api), attention(api);
  std::string error = endToEnd.create(2 * measured);
  if (error.empty())
    error = attention.create(2 * attentionLaunches * measured);
  if (!error.empty())
    return error;
  int total = warmup + repeat;
  for (int it = 0; it < total; ++it) {
    int set = it % numSets;
    bool isMeasured = it >= warmup;
    size_t m = static_cast<size_t>(it - warmup);
    if (isMeasured) {
      error = api.check(api.eventRecord(endToEnd.data()[2 * m], nullptr),
                        "cuEventRecord");
      if (!error.empty())
        return error;
    }
    CUevent *attentionEvents =
        isMeasured && attentionLaunches
            ? attention.data() + 2 * attentionLaunches * m
            : nullptr;
    error = enqueue(set, /*checkEach=*/false, attentionEvents);
    if (!error.empty())
      return error;
    if (isMeasured) {
      error = api.check(api.eventRecord(endToEnd.data()[2 * m + 1], nullptr),
                        "cuEventRecord");
      if (!error.empty())
        return error;
    }
  }
  CUresult result = api.ctxSynchronize();
  if (result != CUDA_SUCCESS)
    return "benchmark run of the plan failed: " + api.describe(result);
  for (size_t m = 0; m < measured; ++m) {
    double ms = 0.0;
    error = endToEnd.elapsed(2 * m, 2 * m + 1, ms);
    if (!error.empty())
      return error;
    times.endToEndMs.push_back(ms);
    if (!attentionLaunches)
      continue;
    double sum = 0.0;
    for (size_t a = 0; a < attentionLaunches; ++a) {
      size_t base = 2 * (attentionLaunches * m + a);
      error = attention.elapsed(base, base + 1, ms);
      if (!error.empty())
        return error;
      sum += ms;
    }
    times.attentionMs.push_back(sum);
  }
  return std::string();
}

std::vector<KernelAttributes> PlanExecutor::kernelAttributes() const {
  std::vector<KernelAttributes> out;
  for (size_t k = 0; k < plan.kernels.size(); ++k) {
    bool seen = false;
    for (const KernelAttributes &attributes : out)
      seen |= attributes.name == plan.kernels[k].name;
    if (seen)
      continue;
    KernelAttributes attributes;
    attributes.name = plan.kernels[k].name;
    api.funcGetAttribute(&attributes.registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
                         functions[k]);
    api.funcGetAttribute(&attributes.staticSharedBytes,
                         CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, functions[k]);
    api.funcGetAttribute(&attributes.localBytes,
                         CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, functions[k]);
    api.funcGetAttribute(&attributes.maxThreadsPerBlock,
                         CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, functions[k]);
    out.push_back(attributes);
  }
  return out;
}
