//===- Throughput.h - Benchmark arithmetic ----------------------*- C++ -*-===//
//
// The operation count of attention, TOPS, medians, and how many copies of
// a plan's buffers a benchmark rotates through so that its inputs do not
// stay in L2.
//
//   ops = 2 * B * H * pairs * (D + Dv)     (QK^T and PV, a multiply-add
//                                           counted as 2 operations)
//
// pairs is Nq * Nk without a mask. With the causal mask it is Nq * Nk / 2
// when Nq == Nk (the convention of FlashAttention's benchmarks) and the
// exact number of visible (query, key) pairs otherwise, j <= i + Nk - Nq
// aligned bottom-right or j <= i aligned top-left.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_THROUGHPUT_H
#define SAGE_RUNTIME_THROUGHPUT_H

#include "sage/Reference/Problem.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sage::rt {

using sage::ref::Causal;

/// Returns the (query, key) pairs attention computes (see above).
double attentionPairs(int64_t seqQ, int64_t seqK, Causal causal);

/// Returns the operations of one attention call.
double attentionOps(int64_t batch, int64_t heads, int64_t seqQ, int64_t seqK,
                    int64_t headDim, int64_t valueDim, Causal causal);

/// Returns tera-operations per second for \p ops in \p milliseconds.
double teraOpsPerSecond(double ops, double milliseconds);

/// Returns the median of \p values (the mean of the middle two for an even
/// count; 0 for none).
double median(std::vector<double> values);

/// Returns how many copies of a buffer set of \p setBytes a benchmark
/// should rotate through: enough for 4 x max(L2, 60 MiB) in total, at
/// least 1, at most \p maxSets, and no more than 80% of \p freeBytes
/// allows.
int chooseBufferSets(size_t setBytes, size_t l2Bytes, size_t freeBytes,
                     int maxSets = 64);

} // namespace sage::rt

#endif // SAGE_RUNTIME_THROUGHPUT_H
