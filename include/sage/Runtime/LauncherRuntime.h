/*===- LauncherRuntime.h - what compiled launchers call ---------*- C -*-===//
 *
 * A launcher library (docs/Launchers.md) is the object file of
 * `sage-opt --sage-to-llvm` linked with SageLauncherRuntime, which defines
 * these entry points over the CUDA Driver API (libcuda opened with dlopen
 * at the first launch):
 *
 *  - the mgpu* functions that MLIR's GPU translation calls to load the
 *    embedded kernels and launch them: the module loads lazily, at the
 *    first launch, in the calling thread's current context (device 0's
 *    primary context when there is none), so loading the library needs no
 *    GPU;
 *  - sage's own sageLauncher* functions that the host functions call.
 *
 * Every failure is recorded for the calling thread: the launch function
 * returns its status and NAME_last_error() its message. All symbols are
 * hidden in the launcher library; only the host functions are exported.
 *
 *===---------------------------------------------------------------------===*/

#ifndef SAGE_RUNTIME_LAUNCHERRUNTIME_H
#define SAGE_RUNTIME_LAUNCHERRUNTIME_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The status a launch function returns. */
enum SageLauncherStatus {
  SAGE_LAUNCHER_SUCCESS = 0,
  /* An argument the launcher checked was refused (the message names it). */
  SAGE_LAUNCHER_INVALID_ARGUMENT = 1,
  /* The driver, the kernels' module, a launch or a memset failed. */
  SAGE_LAUNCHER_CUDA_ERROR = 2,
};

/* Records "format" (two %lld: got, expected) as the thread's message and
 * returns SAGE_LAUNCHER_INVALID_ARGUMENT. */
int32_t sageLauncherFail(const char *format, int64_t got, int64_t expected);
/* Enqueues zeroing of `bytes` bytes at `device` on `stream`. */
void sageLauncherMemsetZero(void *device, int64_t bytes, CUstream stream);
/* The first failure of the thread's enqueued work since the last call, and
 * resets it. */
int32_t sageLauncherTakeStatus(void);
/* The thread's last message ("" if none). */
const char *sageLauncherLastError(void);

/* MLIR's GPU translation (SelectObjectAttr, MLIR 22). */
void *mgpuModuleLoad(void *image, size_t bytes);
void *mgpuModuleLoadJIT(void *ptx, int optLevel);
void mgpuModuleUnload(void *module);
CUfunction mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(CUfunction function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, CUstream stream,
                      void **params, void **extra, size_t paramCount);
/* A launch of clusters (gpu.launch_func ... clusters in). */
void mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t sharedBytes, CUstream stream,
                             void **params, void **extra);

/* The streams and buffers of gpu-to-llvm's host functions (those of
 * --sage-levels, docs/Levels.md): launches are synchronous. */
CUstream mgpuStreamCreate(void);
void mgpuStreamSynchronize(CUstream stream);
void mgpuStreamDestroy(CUstream stream);
void *mgpuMemAlloc(uint64_t bytes, CUstream stream, bool isHostShared);
void mgpuMemFree(void *pointer, CUstream stream);

#ifdef __cplusplus
}
#endif

#endif /* SAGE_RUNTIME_LAUNCHERRUNTIME_H */
