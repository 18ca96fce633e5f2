//===- CudaDevice.h - One GPU and its primary context -----------*- C++ -*-===//
//
// Opens a device by ordinal, retains its primary context and makes it
// current on the calling thread, and reads the properties the runner
// checks plans against (compute capability, shared memory, L2 size).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_CUDADEVICE_H
#define SAGE_RUNTIME_CUDADEVICE_H

#include "sage/Runtime/CudaDriver.h"

#include <cstddef>
#include <memory>
#include <string>

namespace sage::rt {

/// Properties of a device.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int ccMajor = 0;
  int ccMinor = 0;
  int multiprocessors = 0;
  size_t totalMemory = 0;
  /// Largest shared memory per block after opting in.
  int maxSharedOptin = 0;
  int l2Bytes = 0;
  int driverVersion = 0;

  /// Returns e.g. "NVIDIA H200 (sm_90, 132 SMs, 139.81 GiB, driver 13.0)".
  std::string describe() const;
};

/// A device with its primary context current on this thread.
class CudaDevice {
public:
  /// Opens device \p ordinal. Returns null and sets \p error on failure.
  static std::unique_ptr<CudaDevice> open(const CudaDriver &driver, int ordinal,
                                          std::string &error);
  ~CudaDevice();
  CudaDevice(const CudaDevice &) = delete;
  CudaDevice &operator=(const CudaDevice &) = delete;

  const CudaDriver &driver() const { return api; }
  const DeviceInfo &info() const { return properties; }

  /// Returns "free X of Y" of device memory (or the reason it is unknown).
  std::string memorySummary() const;
  /// Returns the free device memory in bytes (0 if unknown).
  size_t freeMemory() const;

  /// Checks that code compiled for sm_\p smVersion (arch-specific if
  /// \p archSpecific) runs on this device; returns an empty string or why
  /// not.
  std::string checkTarget(int smVersion, bool archSpecific) const;

private:
  CudaDevice(const CudaDriver &driver) : api(driver) {}

  const CudaDriver &api;
  DeviceInfo properties;
  CUdevice device = 0;
  bool retained = false;
};

} // namespace sage::rt

#endif // SAGE_RUNTIME_CUDADEVICE_H
