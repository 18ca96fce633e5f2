//===- Random.cpp - Deterministic test data -------------------------------===//

#include "sage/Reference/Random.h"

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

double Rng::normal() {
  if (hasSpare) {
    hasSpare = false;
    return spare;
  }
  // Box-Muller: two uniforms give two independent normals.
  constexpr double kTwoPi = 6.283185307179586;
  double radius = std::sqrt(-2.0 * std::log(uniform()));
  double angle = kTwoPi * uniform();
  spare = radius * std::sin(angle);
  hasSpare = true;
  return radius * std::cos(angle);
}

std::vector<float> sage::ref::randn(Rng &rng, size_t n) {
  std::vector<float> out(n);
  for (float &x : out)
    x = static_cast<float>(rng.normal());
  return out;
}

/// Fills \p values ([batch * heads] slices of [tokens x dim]) with randn and,
/// if \p biasScale is nonzero, adds biasScale * b per channel and slice.
static void fillOperand(Rng &rng, std::vector<float> &values, int64_t slices,
                        int64_t tokens, int64_t dim, double biasScale) {
  values = randn(rng, static_cast<size_t>(slices * tokens * dim));
  if (biasScale == 0.0)
    return;
  for (int64_t s = 0; s < slices; ++s) {
    std::vector<float> bias = randn(rng, static_cast<size_t>(dim));
    float *slice = values.data() + s * tokens * dim;
    for (int64_t t = 0; t < tokens; ++t)
      for (int64_t d = 0; d < dim; ++d)
        slice[t * dim + d] += static_cast<float>(biasScale * bias[d]);
  }
}

AttentionData sage::ref::makeAttentionData(const AttentionShape &shape,
                                           DataKind kind, uint64_t seed,
                                           ElementFormat inputFormat) {
  AttentionData data;
  data.shape = shape;
  Rng rng(seed);
  bool outliers = kind == DataKind::ChannelOutliers;
  fillOperand(rng, data.q, shape.batch * shape.headsQ, shape.seqQ,
              shape.headDim, outliers ? 4.0 : 0.0);
  fillOperand(rng, data.k, shape.batch * shape.headsKV, shape.seqK,
              shape.headDim, outliers ? 8.0 : 0.0);
  fillOperand(rng, data.v, shape.batch * shape.headsKV, shape.seqK,
              shape.headDim, kind == DataKind::Randn ? 0.0 : 2.0);
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
  roundAll(data.q, inputFormat);
  roundAll(data.k, inputFormat);
  roundAll(data.v, inputFormat);
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
