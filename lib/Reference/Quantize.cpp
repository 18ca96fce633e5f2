//===- Quantize.cpp - Symmetric integer quantization groups ---------------===//

#include "sage/Reference/Quantize.h"

#include "sage/Reference/Formats.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sage::ref;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Groups per block for the blocked granularities.
static int64_t groupsPerBlock(const GroupLayout &layout) {
  bool isA = layout.role == OperandRole::A;
  switch (layout.granularity) {
  case Granularity::PerBlock:
    return 1;
  case Granularity::PerWarp:
    // B operands are read whole by every warp: one scale per block.
    return isA ? layout.blockRows / layout.warpRows : 1;
  case Granularity::PerThread:
    // A: 8 row classes (r mod 8) per warp; B: 4 column pairs per block.
    return isA ? layout.blockRows / layout.warpRows * 8 : 4;
  default:
    return 0;
  }
}

int64_t sage::ref::numGroups(const GroupLayout &layout, int64_t numTokens,
                             int64_t numChannels) {
  switch (layout.granularity) {
  case Granularity::PerTensor:
    return 1;
  case Granularity::PerToken:
    return numTokens;
  case Granularity::PerChannel:
    return numChannels;
  case Granularity::Microscale:
    return numTokens * ceilDiv(numChannels, layout.microBlock);
  case Granularity::PerBlock:
  case Granularity::PerWarp:
  case Granularity::PerThread:
    return ceilDiv(numTokens, layout.blockRows) * groupsPerBlock(layout);
  }
  return 1;
}

int64_t sage::ref::groupOf(const GroupLayout &layout, int64_t token,
                           int64_t channel, int64_t numChannels) {
  const int64_t block = token / layout.blockRows;
  const int64_t local = token % layout.blockRows;
  const bool isA = layout.role == OperandRole::A;
  switch (layout.granularity) {
  case Granularity::PerTensor:
    return 0;
  case Granularity::PerToken:
    return token;
  case Granularity::PerChannel:
    return channel;
  case Granularity::Microscale:
    return token * ceilDiv(numChannels, layout.microBlock) +
           channel / layout.microBlock;
  case Granularity::PerBlock:
    return block;
  case Granularity::PerWarp:
    return isA ? block * groupsPerBlock(layout) + local / layout.warpRows
               : block;
  case Granularity::PerThread:
    if (isA) {
      // Lane l/4 of warp w owns every row r of the warp with r % 8 == l/4.
      int64_t warp = local / layout.warpRows;
      int64_t rowClass = (local % layout.warpRows) % 8;
      return block * groupsPerBlock(layout) + warp * 8 + rowClass;
    }
    // Lane with t = l % 4 owns columns 8k + 2t and 8k + 2t + 1.
    return block * 4 + (local % 8) / 2;
  }
  return 0;
}

float sage::ref::symmetricScale(float absMax, int qmax) {
  return absMax / static_cast<float>(qmax);
}

float sage::ref::absMaxStep(float m, float x) {
  float a = std::fabs(x);
  return std::isnan(m) || std::isnan(a)
             ? std::numeric_limits<float>::quiet_NaN()
             : std::max(m, a);
}

int8_t sage::ref::quantizeToInt(float x, float delta, int qmax) {
  if (delta == 0.0f)
    return 0;
  // f32 division, then round half to even as cvt.rni does; cvt.rni of a
  // NaN (a non-finite x or delta) is 0.
  float scaled = x / delta;
  if (std::isnan(scaled))
    return 0;
  double r = roundHalfToEven(scaled);
  r = std::min<double>(std::max<double>(r, -qmax), qmax);
  return static_cast<int8_t>(r);
}

IntQuantized sage::ref::quantizeInt(const float *x, int64_t rows, int64_t cols,
                                    int qmax, const GroupLayout &layout) {
  IntQuantized out;
  out.rows = rows;
  out.cols = cols;
  out.qmax = qmax;
  out.layout = layout;
  out.values.assign(static_cast<size_t>(rows * cols), 0);
  // Group maxima first, then one scale per group.
  std::vector<float> absMax(static_cast<size_t>(numGroups(layout, rows, cols)),
                            0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float &m = absMax[groupOf(layout, r, c, cols)];
      m = absMaxStep(m, x[r * cols + c]);
    }
  out.scales.resize(absMax.size());
  for (size_t g = 0; g < absMax.size(); ++g)
    out.scales[g] = symmetricScale(absMax[g], qmax);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out.values[r * cols + c] =
          quantizeToInt(x[r * cols + c], out.scaleAt(r, c), qmax);
  return out;
}
