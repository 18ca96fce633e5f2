//===- Random.h - Deterministic test data -----------------------*- C++ -*-===//
//
// A generator whose output depends on nothing but the seed: xoshiro256**
// seeded through splitmix64, uniform doubles from the top 53 bits, and
// normals by Box-Muller; no standard-library distribution is involved, so
// every platform and compiler draws the same data.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_RANDOM_H
#define SAGE_REFERENCE_RANDOM_H

#include "sage/Reference/Formats.h"
#include "sage/Reference/Problem.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace sage::ref {

/// Runs body(begin, end) over ranges that cover [0, n) once each, in any
/// order and on any threads; empty runs [0, n) in one call. How a runner
/// lends its cores to the costly loops here (gigabytes of inputs at 128k
/// tokens): every element is computed alone, from values drawn in order
/// beforehand, so the data does not depend on the split.
using ForRanges = std::function<void(
    size_t n, const std::function<void(size_t begin, size_t end)> &body)>;

/// xoshiro256** with Box-Muller normals.
class Rng {
public:
  /// Seeds the four state words from \p seed through splitmix64.
  explicit Rng(uint64_t seed);

  /// Returns the next 64 random bits.
  uint64_t nextU64();
  /// Returns a uniform double in (0, 1), never 0 or 1.
  double uniform();
  /// Returns a standard normal.
  double normal();
  /// Writes the next \p n normals to \p out as floats: what \p n calls of
  /// normal() would return (and leave behind), with the Box-Muller
  /// transforms run through \p forRanges.
  void normals(float *out, size_t n, const ForRanges &forRanges = {});

private:
  uint64_t state[4];
  double spare = 0.0;
  bool hasSpare = false;
};

/// Returns \p n standard normals as floats.
std::vector<float> randn(Rng &rng, size_t n);

/// The synthetic input distributions of the accuracy tables.
enum class DataKind {
  /// Q, K, V ~ N(0, 1).
  Randn,
  /// randn plus a per-channel bias shared by all tokens of a (batch, head):
  /// Q += 4 * b_q, K += 8 * b_k, V += 2 * b_v with b ~ N(0, 1) per channel.
  ChannelOutliers,
  /// An attention sink over a flat bulk, the regime where a uniform grid
  /// for P~ loses most of the softmax mass: randn Q and K, V with the
  /// channel bias above (V += 2 * b_v), every query +sqrt(D) in channel 0
  /// and key 0 +8 in channel 0. Key 0 then scores about 8 above the others
  /// (natural-log units, any D) and holds about half the mass, while each
  /// other key has P~ near e^-8 < 1/254 of the row max.
  AttentionSink,
};

/// Returns the inputs of \p shape drawn from \p kind with \p seed, rounded
/// to \p inputFormat (F16 by default, like a kernel's fp16 inputs). The
/// element-wise loops run through \p forRanges; the values do not depend
/// on it.
AttentionData makeAttentionData(const AttentionShape &shape, DataKind kind,
                                uint64_t seed,
                                ElementFormat inputFormat = ElementFormat::F16,
                                const ForRanges &forRanges = {});

/// Returns a short name of \p kind, for tables.
const char *toString(DataKind kind);

} // namespace sage::ref

#endif // SAGE_REFERENCE_RANDOM_H
