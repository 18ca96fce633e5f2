//===- Accumulators.h - MMA accumulator models ------------------*- C++ -*-===//
//
// Models of how a tensor-core MMA accumulates along its reduction dimension.
// All of them share one assumption: inside one MMA (one k-chunk) the
// products are exact and summed exactly; the accumulator format only
// matters when a chunk's sum is added to the running accumulator.
//
//  - Fp22Accumulator: mma.sync m16n8k32 .f32.e4m3.e4m3.f32. The paper
//    (SageAttention2) measured that the accumulator keeps 1 sign, 8
//    exponent and 13 mantissa bits; the model assumes that after each
//    k-chunk of 32 the sum acc + chunk is truncated toward zero to that
//    format.
//  - F16DelayedAccumulator: mma.sync m16n8k32 .f16.e4m3.e4m3.f16 with
//    SageAttention2++'s delayed FP32 buffering: after each k-chunk,
//    acc16 = f16(acc16 + chunk) (RNE); every `flushEvery` MMAs the f16
//    accumulator is added into an f32 buffer and reset. The first flush
//    of a K/V block also rescales the buffer by the online softmax's
//    alpha, in one fma (sage.accumulate).
//  - F32Accumulator: an MMA with a true f32 accumulator: after each chunk,
//    acc = f32(acc + chunk) (RNE).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_ACCUMULATORS_H
#define SAGE_REFERENCE_ACCUMULATORS_H

#include <cstdint>

namespace sage::ref {

/// Reduction length of one FP8 mma.sync (m16n8k32).
constexpr int64_t kFp8MmaK = 32;
/// Reduction length of one FP16 mma.sync (m16n8k16).
constexpr int64_t kF16MmaK = 16;
/// Reduction length of one NVFP4 block-scaled mma.sync (m16n8k64).
constexpr int64_t kFp4MmaK = 64;

/// Returns sum_i a[i * aStride] * b[i * bStride] for i < n, computed in
/// double: the exact chunk sum the models assume. It is exact whenever the
/// products of one chunk span fewer than about 45 binades, which always
/// holds for E4M3 operands (products within 2^-18 .. 2^18) and in practice
/// for E5M2 and scaled NVFP4 ones.
double chunkDot(const float *a, int64_t aStride, const float *b,
                int64_t bStride, int64_t n);

/// The FP22 accumulator of the FP8 MMA with an f32 result.
struct Fp22Accumulator {
  float value = 0.0f;

  /// Adds one k-chunk's exact sum and truncates to FP22.
  void addChunk(double chunkSum);
};

/// The f16 MMA accumulator with delayed f32 buffering.
struct F16DelayedAccumulator {
  /// MMAs summed in f16 before each flush into the f32 buffer.
  int flushEvery = 2;
  /// The f32 buffer the f16 partial sums are flushed into.
  float buffer = 0.0f;
  /// What the next flush multiplies the buffer by before adding (alpha for
  /// a K/V block's first flush, then 1): buffer = fma(buffer, rescale,
  /// partial), rounded once.
  float rescale = 1.0f;
  /// The f16 accumulator (a value on the f16 grid, possibly inf).
  float partial = 0.0f;
  /// MMAs accumulated in `partial` since the last flush.
  int pending = 0;

  /// Adds one k-chunk's exact sum in f16, flushing every flushEvery chunks.
  void addChunk(double chunkSum);
  /// Adds the f16 accumulator into the f32 buffer and resets it.
  void flush();
};

/// An MMA accumulator that is a true f32.
struct F32Accumulator {
  float value = 0.0f;

  /// Adds one k-chunk's exact sum with one f32 rounding.
  void addChunk(double chunkSum);
};

/// Returns the FP22-accumulated dot product of \p a and \p b over \p n
/// elements in k-chunks of \p chunk (32 for the FP8 MMA), starting from 0.
float dotFp22(const float *a, int64_t aStride, const float *b, int64_t bStride,
              int64_t n, int64_t chunk = kFp8MmaK);

/// Returns the f32-accumulated dot product in k-chunks of \p chunk.
float dotF32(const float *a, int64_t aStride, const float *b, int64_t bStride,
             int64_t n, int64_t chunk);

} // namespace sage::ref

#endif // SAGE_REFERENCE_ACCUMULATORS_H
