//===- CudaDevice.cpp - One GPU and its primary context -------------------===//

#include "sage/Runtime/CudaDevice.h"

#include "sage/Runtime/ResolvedPlan.h"

#include <cstdio>

using namespace sage::rt;

std::string DeviceInfo::describe() const {
  char buffer[320];
  std::snprintf(buffer, sizeof(buffer),
                "%s (sm_%d%d, %d SMs, %s, driver %d.%d)", name.c_str(), ccMajor,
                ccMinor, multiprocessors,
                formatBytes(static_cast<double>(totalMemory)).c_str(),
                driverVersion / 1000, (driverVersion % 1000) / 10);
  return buffer;
}

std::unique_ptr<CudaDevice> CudaDevice::open(const CudaDriver &driver,
                                             int ordinal, std::string &error) {
  int count = 0;
  error = driver.check(driver.deviceGetCount(&count), "cuDeviceGetCount");
  if (!error.empty())
    return nullptr;
  if (ordinal < 0 || ordinal >= count) {
    error = count == 0 ? "no CUDA device found"
                       : "device " + std::to_string(ordinal) +
                             " does not exist (" + std::to_string(count) +
                             " device" + (count == 1 ? "" : "s") + " found)";
    return nullptr;
  }
  std::unique_ptr<CudaDevice> result(new CudaDevice(driver));
  DeviceInfo &info = result->properties;
  info.ordinal = ordinal;
  error =
      driver.check(driver.deviceGet(&result->device, ordinal), "cuDeviceGet");
  if (!error.empty())
    return nullptr;
  CUdevice device = result->device;
  char name[256] = {0};
  error = driver.check(driver.deviceGetName(name, sizeof(name) - 1, device),
                       "cuDeviceGetName");
  if (!error.empty())
    return nullptr;
  info.name = name;
  const std::pair<CUdevice_attribute, int *> attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.multiprocessors},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &info.maxSharedOptin},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.l2Bytes}};
  for (const auto &[attribute, value] : attributes) {
    error = driver.check(driver.deviceGetAttribute(value, attribute, device),
                         "cuDeviceGetAttribute(" +
                             std::to_string(static_cast<int>(attribute)) + ")");
    if (!error.empty())
      return nullptr;
  }
  error = driver.check(driver.deviceTotalMem(&info.totalMemory, device),
                       "cuDeviceTotalMem");
  if (error.empty())
    error = driver.check(driver.driverGetVersion(&info.driverVersion),
                         "cuDriverGetVersion");
  if (!error.empty())
    return nullptr;
  CUcontext context = nullptr;
  error = driver.check(driver.devicePrimaryCtxRetain(&context, device),
                       "cuDevicePrimaryCtxRetain on device " +
                           std::to_string(ordinal));
  if (!error.empty())
    return nullptr;
  result->retained = true;
  error = driver.check(driver.ctxSetCurrent(context), "cuCtxSetCurrent");
  if (!error.empty())
    return nullptr;
  return result;
}

CudaDevice::~CudaDevice() {
  if (retained) {
    api.ctxSetCurrent(nullptr);
    api.devicePrimaryCtxRelease(device);
  }
}

size_t CudaDevice::freeMemory() const {
  size_t freeBytes = 0, totalBytes = 0;
  if (api.memGetInfo(&freeBytes, &totalBytes) != CUDA_SUCCESS)
    return 0;
  return freeBytes;
}

std::string CudaDevice::memorySummary() const {
  size_t freeBytes = 0, totalBytes = 0;
  CUresult result = api.memGetInfo(&freeBytes, &totalBytes);
  if (result != CUDA_SUCCESS)
    return "free memory unknown: " + api.errorName(result);
  return "free " + formatBytes(static_cast<double>(freeBytes)) + " of " +
         formatBytes(static_cast<double>(totalBytes));
}

std::string CudaDevice::checkTarget(int smVersion, bool archSpecific) const {
  int device = properties.ccMajor * 10 + properties.ccMinor;
  std::string chip =
      "sm_" + std::to_string(smVersion) + (archSpecific ? "a" : "");
  std::string here = "device " + std::to_string(properties.ordinal) + " (" +
                     properties.name + ") is sm_" + std::to_string(device);
  if (archSpecific && device != smVersion)
    return "the plan targets " + chip + ", which runs on sm_" +
           std::to_string(smVersion) + " only, but " + here;
  if (device < smVersion)
    return "the plan targets " + chip + " but " + here;
  return std::string();
}
