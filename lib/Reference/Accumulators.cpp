//===- Accumulators.cpp - MMA accumulator models --------------------------===//

#include "sage/Reference/Accumulators.h"

#include "sage/Reference/Formats.h"

#include <algorithm>
#include <cmath>

using namespace sage::ref;

double sage::ref::chunkDot(const float *a, int64_t aStride, const float *b,
                           int64_t bStride, int64_t n) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i)
    sum += static_cast<double>(a[i * aStride]) *
           static_cast<double>(b[i * bStride]);
  return sum;
}

void Fp22Accumulator::addChunk(double chunkSum) {
  // The exact sum of accumulator and chunk, then one truncation to FP22.
  value = truncateToFp22(static_cast<double>(value) + chunkSum);
}

void F16DelayedAccumulator::addChunk(double chunkSum) {
  // The f16 accumulator adds the chunk with one RNE rounding (inf on
  // overflow, which the range bound P_r * V_r rules out for valid recipes).
  double sum = static_cast<double>(partial) + chunkSum;
  partial = roundF64ToF16(sum);
  if (++pending == flushEvery)
    flush();
}

void F16DelayedAccumulator::flush() {
  // f16 -> f32 is exact; the fma rounds once (an add when rescale is 1).
  buffer = std::fma(buffer, rescale, partial);
  rescale = 1.0f;
  partial = 0.0f;
  pending = 0;
}

void F32Accumulator::addChunk(double chunkSum) {
  value = static_cast<float>(static_cast<double>(value) + chunkSum);
}

namespace {
/// Sums a . b chunk by chunk into the accumulator model Acc.
template <typename Acc>
float chunkedDot(const float *a, int64_t aStride, const float *b,
                 int64_t bStride, int64_t n, int64_t chunk) {
  Acc acc;
  for (int64_t k = 0; k < n; k += chunk) {
    int64_t len = std::min(chunk, n - k);
    acc.addChunk(
        chunkDot(a + k * aStride, aStride, b + k * bStride, bStride, len));
  }
  return acc.value;
}
} // namespace

float sage::ref::dotFp22(const float *a, int64_t aStride, const float *b,
                         int64_t bStride, int64_t n, int64_t chunk) {
  return chunkedDot<Fp22Accumulator>(a, aStride, b, bStride, n, chunk);
}

float sage::ref::dotF32(const float *a, int64_t aStride, const float *b,
                        int64_t bStride, int64_t n, int64_t chunk) {
  return chunkedDot<F32Accumulator>(a, aStride, b, bStride, n, chunk);
}
