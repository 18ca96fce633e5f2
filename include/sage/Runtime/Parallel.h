//===- Parallel.h - Host loops on every core --------------------*- C++ -*-===//
//
// The runner's host work grows with the tensors (gigabytes at 128k tokens):
// drawing, rounding and encoding the inputs, decoding the output, the CPU
// oracles. These helpers split such loops over std::thread workers; every
// caller computes each element alone, so results never depend on the
// number of threads.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_PARALLEL_H
#define SAGE_RUNTIME_PARALLEL_H

#include "sage/Reference/Random.h"

#include <cstddef>
#include <functional>

namespace sage::rt {

/// Returns the number of worker threads to use (hardware concurrency, at
/// least 1).
unsigned defaultThreads();

/// Runs \p work(i) for every i < \p items on up to \p threads workers.
void parallelFor(size_t items, unsigned threads,
                 const std::function<void(size_t)> &work);

/// Returns a sage::ref::ForRanges that splits [0, n) into ranges run on up
/// to \p threads workers (small n, or one thread, in one call).
sage::ref::ForRanges forRangesOn(unsigned threads);

} // namespace sage::rt

#endif // SAGE_RUNTIME_PARALLEL_H
