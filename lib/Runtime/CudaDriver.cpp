//===- CudaDriver.cpp - The CUDA Driver API, loaded at run time -----------===//

#include "sage/Runtime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace sage::rt;

/// Resolves \p symbol into \p pointer; returns false if it is missing.
template <typename Fn>
static bool resolve(void *handle, const char *symbol, Fn &pointer) {
  void *address = dlsym(handle, symbol);
  pointer = reinterpret_cast<Fn>(address);
  return address != nullptr;
}

std::string CudaDriver::open() {
  const char *overridden = std::getenv("SAGE_CUDA_LIBRARY");
  libraryName = overridden && *overridden ? overridden : "libcuda.so.1";
  handle = dlopen(libraryName.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    return "cannot load the CUDA driver library: " +
           std::string(reason ? reason : libraryName + ": unknown reason");
  }
  std::string missing;
  auto need = [&](const char *symbol, auto &pointer) {
    if (!resolve(handle, symbol, pointer))
      missing += missing.empty() ? symbol : std::string(", ") + symbol;
  };
  need("cuInit", init);
  need("cuDriverGetVersion", driverGetVersion);
  need("cuGetErrorName", getErrorName);
  need("cuGetErrorString", getErrorString);
  need("cuDeviceGetCount", deviceGetCount);
  need("cuDeviceGet", deviceGet);
  need("cuDeviceGetName", deviceGetName);
  need("cuDeviceGetAttribute", deviceGetAttribute);
  need("cuDeviceTotalMem_v2", deviceTotalMem);
  need("cuDevicePrimaryCtxRetain", devicePrimaryCtxRetain);
  need("cuDevicePrimaryCtxRelease_v2", devicePrimaryCtxRelease);
  need("cuCtxSetCurrent", ctxSetCurrent);
  need("cuCtxSynchronize", ctxSynchronize);
  need("cuCtxGetCurrent", ctxGetCurrent);
  need("cuMemGetInfo_v2", memGetInfo);
  need("cuMemAlloc_v2", memAlloc);
  need("cuMemFree_v2", memFree);
  need("cuMemcpyHtoD_v2", memcpyHtoD);
  need("cuMemcpyDtoH_v2", memcpyDtoH);
  need("cuMemsetD8_v2", memsetD8);
  need("cuMemsetD8Async", memsetD8Async);
  need("cuModuleLoadDataEx", moduleLoadDataEx);
  need("cuModuleUnload", moduleUnload);
  need("cuModuleGetFunction", moduleGetFunction);
  need("cuFuncGetAttribute", funcGetAttribute);
  need("cuFuncSetAttribute", funcSetAttribute);
  need("cuLaunchKernel", launchKernel);
  need("cuLaunchKernelEx", launchKernelEx);
  need("cuEventCreate", eventCreate);
  need("cuEventRecord", eventRecord);
  need("cuEventElapsedTime", eventElapsedTime);
  need("cuEventDestroy_v2", eventDestroy);
  // Optional: only used to check the plan's parameters against the PTX.
  resolve(handle, "cuFuncGetParamInfo", funcGetParamInfo);
  if (!missing.empty())
    return "the CUDA driver library " + libraryName + " lacks " + missing +
           " (driver too old?)";
  return check(init(0), "cuInit");
}

const CudaDriver *CudaDriver::load(std::string &error) {
  static CudaDriver driver;
  static std::string loadError;
  static std::once_flag once;
  std::call_once(once, [] { loadError = driver.open(); });
  if (!loadError.empty()) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}

std::string CudaDriver::errorName(CUresult result) const {
  const char *name = nullptr;
  if (getErrorName && getErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  return "CUDA error " + std::to_string(static_cast<int>(result));
}

std::string CudaDriver::describe(CUresult result) const {
  std::string text = errorName(result);
  const char *description = nullptr;
  if (getErrorString && getErrorString(result, &description) == CUDA_SUCCESS &&
      description)
    text += std::string(" (") + description + ")";
  return text;
}

std::string CudaDriver::check(CUresult result, const std::string &what) const {
  if (result == CUDA_SUCCESS)
    return std::string();
  return what + " failed: " + describe(result);
}
