//===- LauncherRuntime.cpp - what compiled launchers call -----------------===//
//
// The entry points of include/sage/Runtime/LauncherRuntime.h over the CUDA
// Driver API. Built into SageLauncherRuntime with hidden visibility and
// linked into each launcher library (docs/Launchers.md).
//
//===----------------------------------------------------------------------===//

#include "sage/Runtime/LauncherRuntime.h"
#include "sage/Runtime/CudaDriver.h"

#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

using sage::rt::CudaDriver;

namespace {
/// An embedded kernel image, loaded at its first use. A failed load (the
/// JIT out of memory, say) is tried again at the next launch.
struct LazyModule {
  const void *image = nullptr;
  bool isPtx = false;
  std::mutex mutex;
  CUmodule module = nullptr;
  /// Why the last load failed.
  std::string error;
};

/// The buffers of the host functions' gpu.allocs, kept for the next call
/// of the same sizes: a host function allocates its intermediates every
/// call, and cuMemAlloc / cuMemFree of large buffers cost more than the
/// kernels that use them. Keyed by context and size; held until exit.
struct BufferCache {
  using Key = std::pair<CUcontext, uint64_t>;
  std::mutex mutex;
  std::map<Key, std::vector<void *>> free;
  std::map<void *, Key> used;
};
BufferCache &getBufferCache() {
  static BufferCache *cache = new BufferCache();
  return *cache;
}

thread_local int32_t pendingStatus = SAGE_LAUNCHER_SUCCESS;
thread_local std::string lastError;

/// Keeps the first failure of the enqueued work: later ones often follow
/// from it.
void record(int32_t status, std::string message) {
  if (pendingStatus != SAGE_LAUNCHER_SUCCESS)
    return;
  pendingStatus = status;
  lastError = std::move(message);
}

/// The driver, with a current context (device 0's primary context when the
/// thread has none, as the CUDA runtime would make); null after recording
/// why not.
const CudaDriver *getDriver() {
  std::string error;
  const CudaDriver *api = CudaDriver::load(error);
  if (!api) {
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
    return nullptr;
  }
  CUcontext context = nullptr;
  error = api->check(api->ctxGetCurrent(&context), "cuCtxGetCurrent");
  if (error.empty() && !context) {
    CUdevice device = 0;
    error = api->check(api->deviceGet(&device, 0), "cuDeviceGet(0)");
    if (error.empty())
      error = api->check(api->devicePrimaryCtxRetain(&context, device),
                         "cuDevicePrimaryCtxRetain");
    if (error.empty())
      error = api->check(api->ctxSetCurrent(context), "cuCtxSetCurrent");
  }
  if (!error.empty()) {
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
    return nullptr;
  }
  return api;
}

void load(LazyModule &lazy) {
  const CudaDriver *api = getDriver();
  if (!api) {
    lazy.error = "the launcher's kernels did not load: " + lastError;
    return;
  }
  constexpr size_t kLogBytes = 4096;
  char log[kLogBytes] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(kLogBytes - 1))};
  // The driver's default JIT optimization, as sage-run loads the PTX.
  CUresult result = api->moduleLoadDataEx(&lazy.module, lazy.image,
                                          lazy.isPtx ? 2 : 0, options, values);
  if (result != CUDA_SUCCESS) {
    lazy.module = nullptr;
    lazy.error = api->check(result, std::string("cuModuleLoadDataEx of the "
                                                "launcher's kernels")) +
                 (log[0] ? std::string(": ") + log : std::string());
  }
}
} // namespace

extern "C" {

int32_t sageLauncherFail(const char *format, int64_t got, int64_t expected) {
  char message[512];
  std::snprintf(message, sizeof(message), format, static_cast<long long>(got),
                static_cast<long long>(expected));
  lastError = message;
  return SAGE_LAUNCHER_INVALID_ARGUMENT;
}

void sageLauncherMemsetZero(void *device, int64_t bytes, CUstream stream) {
  const CudaDriver *api = getDriver();
  if (!api)
    return;
  std::string error = api->check(
      api->memsetD8Async(reinterpret_cast<CUdeviceptr>(device), 0,
                         static_cast<size_t>(bytes), stream),
      "cuMemsetD8Async of " + std::to_string(bytes) + " workspace bytes");
  if (!error.empty())
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
}

int32_t sageLauncherTakeStatus(void) {
  int32_t status = pendingStatus;
  pendingStatus = SAGE_LAUNCHER_SUCCESS;
  return status;
}

const char *sageLauncherLastError(void) { return lastError.c_str(); }

void *mgpuModuleLoad(void *image, size_t bytes) {
  auto *lazy = new LazyModule();
  lazy->image = image;
  return lazy;
}

void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  auto *lazy = new LazyModule();
  lazy->image = ptx;
  lazy->isPtx = true;
  return lazy;
}

void mgpuModuleUnload(void *module) {
  // At exit the driver may be gone already: the module goes with the
  // context, so only the bookkeeping is freed.
  delete static_cast<LazyModule *>(module);
}

CUfunction mgpuModuleGetFunction(void *module, const char *name) {
  auto *lazy = static_cast<LazyModule *>(module);
  {
    std::lock_guard<std::mutex> lock(lazy->mutex);
    if (!lazy->module)
      load(*lazy);
    if (!lazy->module) {
      record(SAGE_LAUNCHER_CUDA_ERROR, lazy->error);
      return nullptr;
    }
  }
  const CudaDriver *api = getDriver();
  if (!api)
    return nullptr;
  CUfunction function = nullptr;
  std::string error =
      api->check(api->moduleGetFunction(&function, lazy->module, name),
                 std::string("cuModuleGetFunction(") + name + ")");
  if (!error.empty()) {
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
    return nullptr;
  }
  return function;
}

/// Opts `function` in to `sharedBytes` of dynamic shared memory: a kernel
/// may use 48 KiB, static and dynamic together, unless it opts in to more
/// (as sage-run does). Returns the error, or "".
static std::string allowSharedBytes(const CudaDriver &api, CUfunction function,
                                    int32_t sharedBytes) {
  if (sharedBytes <= 0)
    return "";
  return api.check(
      api.funcSetAttribute(function,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           sharedBytes),
      "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES = " +
          std::to_string(sharedBytes) + ")");
}

/// The launch shape, as a launch error names it.
static std::string describeLaunch(intptr_t gridX, intptr_t gridY,
                                  intptr_t gridZ, intptr_t blockX,
                                  int32_t sharedBytes) {
  return "grid " + std::to_string(gridX) + " x " + std::to_string(gridY) +
         " x " + std::to_string(gridZ) + ", block " + std::to_string(blockX) +
         ", " + std::to_string(sharedBytes) + " shared bytes";
}

/// Runs `launch` (which returns the error, or "") once `function` exists,
/// the driver is loaded and the kernel may use `sharedBytes`; records the
/// first error. A failed module load or lookup is recorded already.
static void
launchChecked(CUfunction function, int32_t sharedBytes,
              const std::function<std::string(const CudaDriver &)> &launch) {
  if (!function)
    return;
  const CudaDriver *api = getDriver();
  if (!api)
    return;
  std::string error = allowSharedBytes(*api, function, sharedBytes);
  if (error.empty())
    error = launch(*api);
  if (!error.empty())
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
}

void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, CUstream stream,
                      void **params, void **extra, size_t paramCount) {
  launchChecked(function, sharedBytes, [&](const CudaDriver &api) {
    return api.check(
        api.launchKernel(function, unsigned(gridX), unsigned(gridY),
                         unsigned(gridZ), unsigned(blockX), unsigned(blockY),
                         unsigned(blockZ), unsigned(sharedBytes), stream,
                         params, extra),
        "cuLaunchKernel (" +
            describeLaunch(gridX, gridY, gridZ, blockX, sharedBytes) + ")");
  });
}

void mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t sharedBytes, CUstream stream,
                             void **params, void **extra) {
  launchChecked(function, sharedBytes, [&](const CudaDriver &api) {
    CUlaunchAttribute cluster = {};
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = unsigned(clusterX);
    cluster.value.clusterDim.y = unsigned(clusterY);
    cluster.value.clusterDim.z = unsigned(clusterZ);
    CUlaunchConfig config = {};
    config.gridDimX = unsigned(gridX);
    config.gridDimY = unsigned(gridY);
    config.gridDimZ = unsigned(gridZ);
    config.blockDimX = unsigned(blockX);
    config.blockDimY = unsigned(blockY);
    config.blockDimZ = unsigned(blockZ);
    config.sharedMemBytes = unsigned(sharedBytes);
    config.hStream = stream;
    config.attrs = &cluster;
    config.numAttrs = 1;
    return api.check(
        api.launchKernelEx(&config, function, params, extra),
        "cuLaunchKernelEx (clusters of " + std::to_string(clusterX) + " x " +
            std::to_string(clusterY) + " x " + std::to_string(clusterZ) + ", " +
            describeLaunch(gridX, gridY, gridZ, blockX, sharedBytes) + ")");
  });
}

// A synchronous gpu.launch_func (the host functions of --sage-levels,
// docs/Levels.md) creates a stream, launches on it and synchronizes it:
// here the legacy default stream, synchronized with the context.
CUstream mgpuStreamCreate(void) {
  getDriver();
  return nullptr;
}

void mgpuStreamSynchronize(CUstream) {
  const CudaDriver *api = getDriver();
  if (!api)
    return;
  std::string error =
      api->check(api->ctxSynchronize(), "cuCtxSynchronize after the launches");
  if (!error.empty())
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
}

void mgpuStreamDestroy(CUstream) {}

// The host function's buffers (gpu.alloc of sage-device-allocations),
// reused from the cache where a freed one of the size is there: a failed
// allocation is recorded and returns null; the caller sees the first
// recorded error (sageLauncherTakeStatus).
void *mgpuMemAlloc(uint64_t bytes, CUstream, bool) {
  const CudaDriver *api = getDriver();
  if (!api)
    return nullptr;
  CUcontext context = nullptr;
  api->ctxGetCurrent(&context);
  BufferCache &cache = getBufferCache();
  BufferCache::Key key{context, bytes};
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    std::vector<void *> &free = cache.free[key];
    if (!free.empty()) {
      void *buffer = free.back();
      free.pop_back();
      cache.used[buffer] = key;
      return buffer;
    }
  }
  CUdeviceptr pointer = 0;
  std::string error =
      api->check(api->memAlloc(&pointer, static_cast<size_t>(bytes)),
                 "cuMemAlloc of " + std::to_string(bytes) +
                     " bytes for a buffer of the host function");
  if (!error.empty()) {
    record(SAGE_LAUNCHER_CUDA_ERROR, error);
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.used[reinterpret_cast<void *>(pointer)] = key;
  return reinterpret_cast<void *>(pointer);
}

// Back into the cache: the launches before it were synchronous, so no
// kernel uses the buffer any more.
void mgpuMemFree(void *pointer, CUstream) {
  if (!pointer)
    return;
  BufferCache &cache = getBufferCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto used = cache.used.find(pointer);
  if (used == cache.used.end()) {
    record(SAGE_LAUNCHER_INVALID_ARGUMENT,
           "mgpuMemFree of a buffer mgpuMemAlloc did not return");
    return;
  }
  cache.free[used->second].push_back(pointer);
  cache.used.erase(used);
}

} // extern "C"
