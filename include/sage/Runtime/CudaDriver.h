//===- CudaDriver.h - The CUDA Driver API, loaded at run time ---*- C++ -*-===//
//
// sage's runtime reaches the GPU through the CUDA Driver API only, and
// loads it with dlopen when first asked: the runtime, sage-run and their
// tests build and run (up to the first GPU call) on machines without a GPU
// or a driver. cuda.h supplies types and enums; no libcuda symbol is linked.
//
// The library is libcuda.so.1, or the path in the environment variable
// SAGE_CUDA_LIBRARY (tests point it at a missing file to check the error).
// Entry points are resolved by their versioned ABI names (cuMemAlloc_v2,
// ...), which every driver since CUDA 4 exports.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_CUDADRIVER_H
#define SAGE_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <cstddef>
#include <string>

namespace sage::rt {

/// The Driver API entry points sage uses, named after the API without its
/// "cu" prefix (memAlloc is cuMemAlloc_v2).
class CudaDriver {
public:
  /// Loads the driver library and calls cuInit(0) once per process.
  /// Returns null and sets \p error (one line: which library or call failed
  /// and why) if the driver is unusable; later calls return the same.
  static const CudaDriver *load(std::string &error);

  CUresult (*init)(unsigned int flags) = nullptr;
  CUresult (*driverGetVersion)(int *version) = nullptr;
  CUresult (*getErrorName)(CUresult error, const char **name) = nullptr;
  CUresult (*getErrorString)(CUresult error, const char **text) = nullptr;
  CUresult (*deviceGetCount)(int *count) = nullptr;
  CUresult (*deviceGet)(CUdevice *device, int ordinal) = nullptr;
  CUresult (*deviceGetName)(char *name, int length, CUdevice device) = nullptr;
  CUresult (*deviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                 CUdevice device) = nullptr;
  CUresult (*deviceTotalMem)(size_t *bytes, CUdevice device) = nullptr;
  CUresult (*devicePrimaryCtxRetain)(CUcontext *context,
                                     CUdevice device) = nullptr;
  CUresult (*devicePrimaryCtxRelease)(CUdevice device) = nullptr;
  CUresult (*ctxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*ctxSynchronize)() = nullptr;
  CUresult (*ctxGetCurrent)(CUcontext *context) = nullptr;
  CUresult (*memGetInfo)(size_t *freeBytes, size_t *totalBytes) = nullptr;
  CUresult (*memAlloc)(CUdeviceptr *pointer, size_t bytes) = nullptr;
  CUresult (*memFree)(CUdeviceptr pointer) = nullptr;
  CUresult (*memcpyHtoD)(CUdeviceptr destination, const void *source,
                         size_t bytes) = nullptr;
  CUresult (*memcpyDtoH)(void *destination, CUdeviceptr source,
                         size_t bytes) = nullptr;
  CUresult (*memsetD8)(CUdeviceptr destination, unsigned char value,
                       size_t count) = nullptr;
  CUresult (*memsetD8Async)(CUdeviceptr destination, unsigned char value,
                            size_t count, CUstream stream) = nullptr;
  CUresult (*moduleLoadDataEx)(CUmodule *module, const void *image,
                               unsigned int numOptions, CUjit_option *options,
                               void **optionValues) = nullptr;
  CUresult (*moduleUnload)(CUmodule module) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction *function, CUmodule module,
                                const char *name) = nullptr;
  CUresult (*funcGetAttribute)(int *value, CUfunction_attribute attribute,
                               CUfunction function) = nullptr;
  CUresult (*funcSetAttribute)(CUfunction function,
                               CUfunction_attribute attribute,
                               int value) = nullptr;
  /// Optional (drivers from CUDA 12.4 on); null when the driver lacks it.
  CUresult (*funcGetParamInfo)(CUfunction function, size_t index,
                               size_t *offset, size_t *size) = nullptr;
  CUresult (*launchKernel)(CUfunction function, unsigned int gridX,
                           unsigned int gridY, unsigned int gridZ,
                           unsigned int blockX, unsigned int blockY,
                           unsigned int blockZ, unsigned int sharedBytes,
                           CUstream stream, void **params,
                           void **extra) = nullptr;
  /// Launches with attributes (a cluster's shape): CUDA 12 on.
  CUresult (*launchKernelEx)(const CUlaunchConfig *config, CUfunction function,
                             void **params, void **extra) = nullptr;
  CUresult (*eventCreate)(CUevent *event, unsigned int flags) = nullptr;
  CUresult (*eventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*eventElapsedTime)(float *milliseconds, CUevent start,
                               CUevent end) = nullptr;
  CUresult (*eventDestroy)(CUevent event) = nullptr;

  /// Returns the name of \p result, e.g. "CUDA_ERROR_OUT_OF_MEMORY".
  std::string errorName(CUresult result) const;
  /// Returns "CUDA_ERROR_X (the driver's description)".
  std::string describe(CUresult result) const;
  /// Returns an empty string if \p result is CUDA_SUCCESS, otherwise
  /// "WHAT failed: CUDA_ERROR_X (description)".
  std::string check(CUresult result, const std::string &what) const;

  /// The library that was loaded.
  std::string libraryName;

private:
  CudaDriver() = default;
  /// Opens the library and resolves every entry point.
  std::string open();

  void *handle = nullptr;
};

} // namespace sage::rt

#endif // SAGE_RUNTIME_CUDADRIVER_H
