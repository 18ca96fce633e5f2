//===- Random.cpp - Deterministic test data -------------------------------===//

#include "sage/Reference/Random.h"

#include <algorithm>
#include <cmath>

using namespace sage::ref;

/// One splitmix64 step: advances \p x and returns a mixed word.
static uint64_t splitMix64(uint64_t &x) {
  x += 0x9E3779B97F4A7C15ull;
  uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rotateLeft(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

Rng::Rng(uint64_t seed) {
  for (uint64_t &word : state)
    word = splitMix64(seed);
}

uint64_t Rng::nextU64() {
  // xoshiro256**: scramble state[1], then advance the linear engine.
  uint64_t result = rotateLeft(state[1] * 5, 7) * 9;
  uint64_t t = state[1] << 17;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= t;
  state[3] = rotateLeft(state[3], 45);
  return result;
}

double Rng::uniform() {
  // Top 53 bits, offset by half a step to stay inside (0, 1).
  return (static_cast<double>(nextU64() >> 11) + 0.5) * 0x1.0p-53;
}

/// Box-Muller: the uniforms \p u1, \p u2 (drawn in that order) give the
/// independent normals \p first (returned first) and \p second.
static void boxMuller(double u1, double u2, double &first, double &second) {
  constexpr double kTwoPi = 6.283185307179586;
  double radius = std::sqrt(-2.0 * std::log(u1));
  double angle = kTwoPi * u2;
  first = radius * std::cos(angle);
  second = radius * std::sin(angle);
}

double Rng::normal() {
  if (hasSpare) {
    hasSpare = false;
    return spare;
  }
  double u1 = uniform();
  double u2 = uniform();
  double first = 0.0;
  boxMuller(u1, u2, first, spare);
  hasSpare = true;
  return first;
}

/// Runs \p body over [0, n) through \p forRanges, or in one call.
static void runRanges(const ForRanges &forRanges, size_t n,
                      const std::function<void(size_t, size_t)> &body) {
  if (forRanges)
    forRanges(n, body);
  else if (n)
    body(0, n);
}

void Rng::normals(float *out, size_t n, const ForRanges &forRanges) {
  size_t done = 0;
  if (n && hasSpare)
    out[done++] = static_cast<float>(normal());
  // Whole pairs, in chunks: the uniforms are drawn in order (the stream
  // is sequential, and cheap), the transforms anywhere.
  constexpr size_t kChunkPairs = size_t(1) << 20;
  std::vector<double> uniforms;
  while (n - done >= 2) {
    size_t pairs = std::min(kChunkPairs, (n - done) / 2);
    uniforms.resize(2 * pairs);
    for (double &u : uniforms)
      u = uniform();
    float *dst = out + done;
    runRanges(forRanges, pairs, [&](size_t begin, size_t end) {
      for (size_t p = begin; p < end; ++p) {
        double first = 0.0, second = 0.0;
        boxMuller(uniforms[2 * p], uniforms[2 * p + 1], first, second);
        dst[2 * p] = static_cast<float>(first);
        dst[2 * p + 1] = static_cast<float>(second);
      }
    });
    done += 2 * pairs;
  }
  // An odd one out leaves its pair's second normal for the next call.
  if (done < n)
    out[done] = static_cast<float>(normal());
}

std::vector<float> sage::ref::randn(Rng &rng, size_t n) {
  std::vector<float> out(n);
  rng.normals(out.data(), n);
  return out;
}

/// Fills \p values ([batch * heads] slices of [tokens x dim]) with randn and,
/// if \p biasScale is nonzero, adds biasScale * b per channel and slice.
static void fillOperand(Rng &rng, std::vector<float> &values, int64_t slices,
                        int64_t tokens, int64_t dim, double biasScale,
                        const ForRanges &forRanges) {
  values.resize(static_cast<size_t>(slices * tokens * dim));
  rng.normals(values.data(), values.size(), forRanges);
  if (biasScale == 0.0)
    return;
  for (int64_t s = 0; s < slices; ++s) {
    std::vector<float> bias = randn(rng, static_cast<size_t>(dim));
    float *slice = values.data() + s * tokens * dim;
    runRanges(forRanges, static_cast<size_t>(tokens),
              [&](size_t begin, size_t end) {
                for (size_t t = begin; t < end; ++t)
                  for (int64_t d = 0; d < dim; ++d)
                    slice[static_cast<int64_t>(t) * dim + d] +=
                        static_cast<float>(biasScale * bias[d]);
              });
  }
}

/// roundAll through \p forRanges.
static void roundAllRanges(std::vector<float> &values, ElementFormat format,
                           const ForRanges &forRanges) {
  runRanges(forRanges, values.size(), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      values[i] = roundToFormat(values[i], format);
  });
}

AttentionData sage::ref::makeAttentionData(const AttentionShape &shape,
                                           DataKind kind, uint64_t seed,
                                           ElementFormat inputFormat,
                                           const ForRanges &forRanges) {
  AttentionData data;
  data.shape = shape;
  Rng rng(seed);
  bool outliers = kind == DataKind::ChannelOutliers;
  fillOperand(rng, data.q, shape.batch * shape.headsQ, shape.seqQ,
              shape.headDim, outliers ? 4.0 : 0.0, forRanges);
  fillOperand(rng, data.k, shape.batch * shape.headsKV, shape.seqK,
              shape.headDim, outliers ? 8.0 : 0.0, forRanges);
  fillOperand(rng, data.v, shape.batch * shape.headsKV, shape.seqK,
              shape.headDim, kind == DataKind::Randn ? 0.0 : 2.0, forRanges);
  if (kind == DataKind::AttentionSink) {
    // q_i . k_0 / sqrt(D) gains sqrt(D) * 8 / sqrt(D) = 8 for every query;
    // other keys gain k_j0 ~ N(0, 1).
    float queryBias =
        static_cast<float>(std::sqrt(static_cast<double>(shape.headDim)));
    for (int64_t s = 0; s < shape.batch * shape.headsQ; ++s)
      for (int64_t t = 0; t < shape.seqQ; ++t)
        data.q[(s * shape.seqQ + t) * shape.headDim] += queryBias;
    for (int64_t s = 0; s < shape.batch * shape.headsKV; ++s)
      data.k[s * shape.seqK * shape.headDim] += 8.0f;
  }
  roundAllRanges(data.q, inputFormat, forRanges);
  roundAllRanges(data.k, inputFormat, forRanges);
  roundAllRanges(data.v, inputFormat, forRanges);
  return data;
}

const char *sage::ref::toString(DataKind kind) {
  switch (kind) {
  case DataKind::Randn:
    return "randn";
  case DataKind::ChannelOutliers:
    return "outliers";
  case DataKind::AttentionSink:
    return "sink";
  }
  return "?";
}
