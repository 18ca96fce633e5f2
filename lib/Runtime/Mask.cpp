//===- Mask.cpp - A plan's attention mask on the host ---------------------===//

#include "sage/Runtime/Mask.h"

#include "sage/Reference/Formats.h"
#include "sage/Reference/Random.h"
#include "sage/Runtime/HostData.h"
#include "sage/Runtime/Parallel.h"
#include "sage/Runtime/ParallelReference.h"

#include <cmath>
#include <cstdio>
#include <limits>

using namespace sage::rt;

static constexpr float kNegInf = -std::numeric_limits<float>::infinity();

/// The stream of the mask's draws: a mask must not track the inputs of
/// the same seed (or the sampled rows).
static constexpr uint64_t kMaskStream = 0x4d41534b; // "MASK"

bool sage::rt::getMaskDims(const LaunchPlan &plan, const ResolvedPlan &resolved,
                           const ProblemSizes &sizes, MaskDims &dims) {
  int index = plan.findBuffer("mask");
  if (index < 0)
    return false;
  dims = MaskDims();
  dims.type = plan.buffers[static_cast<size_t>(index)].type;
  dims.shape = resolved.buffers[static_cast<size_t>(index)].shape;
  dims.seqQ = sizes.seqQ;
  dims.seqK = sizes.seqK;
  if (plan.hasHeads()) {
    dims.batch = dims.shape[0];
    dims.heads = dims.shape[1];
  } else if (dims.shape[0] != 1) {
    // The plan's batch is B * H: one mask per (batch, head).
    dims.batch = sizes.batch;
    dims.heads = sizes.heads;
  }
  return true;
}

/// Returns the generator of mask row \p row (of the dims.batch *
/// dims.heads * Nq rows): each row its own stream, so that the rows can be
/// drawn on any threads.
static sage::ref::Rng rowRng(uint64_t seed, int64_t row) {
  return sage::ref::Rng((seed ^ kMaskStream) +
                        (static_cast<uint64_t>(row) + 1) *
                            0x9E3779B97F4A7C15ull);
}

sage::ref::MaskData sage::rt::generateMask(const MaskDims &dims, uint64_t seed,
                                           unsigned threads) {
  sage::ref::MaskData mask;
  mask.batch = dims.batch;
  mask.heads = dims.heads;
  mask.bias.assign(static_cast<size_t>(dims.elements()), kNegInf);
  const int64_t seqQ = dims.seqQ, seqK = dims.seqK;
  // The key-padding lengths of the keep-mask, one per mask batch.
  std::vector<int64_t> lengths(static_cast<size_t>(dims.batch));
  sage::ref::Rng lengthRng(seed ^ kMaskStream);
  const int64_t shortest = (seqK + 1) / 2;
  for (int64_t &length : lengths)
    length = shortest +
             static_cast<int64_t>(lengthRng.nextU64() %
                                  static_cast<uint64_t>(seqK - shortest + 1));
  sage::ref::ElementFormat format =
      getReferenceFormat(dims.type).value_or(sage::ref::ElementFormat::F32);
  const bool keepMask = dims.type == ElementType::I1;
  parallelFor(static_cast<size_t>(dims.batch * dims.heads * seqQ), threads,
              [&](size_t item) {
                int64_t row = static_cast<int64_t>(item);
                // The last query row sees no key (it stays -inf).
                if (seqQ >= 4 && row % seqQ == seqQ - 1)
                  return;
                float *bias = mask.bias.data() + row * seqK;
                sage::ref::Rng rng = rowRng(seed, row);
                int64_t length =
                    lengths[static_cast<size_t>(row / seqQ / dims.heads)];
                for (int64_t j = 0; j < seqK; ++j) {
                  if (keepMask) {
                    bool dropped = rng.uniform() < 0.25;
                    bias[j] = sage::ref::keepBias(j < length && !dropped);
                  } else if (rng.uniform() >= 0.2) {
                    bias[j] = sage::ref::roundToFormat(
                        static_cast<float>(2.0 * rng.normal()), format);
                  }
                }
              });
  return mask;
}

/// Returns "[b, h, i, j]": the index of element \p index in \p shape.
static std::string elementIndex(const std::vector<int64_t> &shape,
                                int64_t index) {
  std::vector<int64_t> at(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    at[d] = index % shape[d];
    index /= shape[d];
  }
  return formatShape(at);
}

std::string sage::rt::decodeMask(const uint8_t *bytes, ElementType type,
                                 const MaskDims &dims,
                                 sage::ref::MaskData &mask) {
  const size_t n = static_cast<size_t>(dims.elements());
  std::vector<float> bias;
  if (type == ElementType::I1) {
    bias.resize(n);
    for (size_t i = 0; i < n; ++i)
      bias[i] = sage::ref::keepBias(bytes[i] != 0);
  } else {
    std::string error = decodeElements(bytes, n, type, bias);
    if (!error.empty())
      return error;
    sage::ref::ElementFormat format =
        getReferenceFormat(dims.type).value_or(sage::ref::ElementFormat::F32);
    for (size_t i = 0; i < n; ++i) {
      float value = bias[i];
      bias[i] = sage::ref::roundToFormat(value, format);
      if (std::isfinite(bias[i]) || bias[i] == kNegInf)
        continue;
      // Any NaN is "nan" (printf may spell a negative one "-nan").
      char text[64] = "nan";
      if (!std::isnan(value))
        std::snprintf(text, sizeof(text), "%g", value);
      std::string rounded = std::isfinite(value)
                                ? std::string(", inf as ") + toString(dims.type)
                                : std::string();
      return "mask element " +
             elementIndex(dims.shape, static_cast<int64_t>(i)) + " is " + text +
             rounded + " (an additive mask holds finite values or -inf)";
    }
  }
  mask.bias = std::move(bias);
  mask.batch = dims.batch;
  mask.heads = dims.heads;
  return std::string();
}

std::string sage::rt::encodeMask(const sage::ref::MaskData &mask,
                                 ElementType type,
                                 std::vector<uint8_t> &bytes) {
  if (type != ElementType::I1)
    return encodeElements(mask.bias.data(), mask.bias.size(), type, bytes);
  bytes.resize(mask.bias.size());
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = mask.bias[i] == 0.0f ? 1 : 0;
  return std::string();
}

std::string sage::rt::describeMask(const sage::ref::MaskData &mask,
                                   const MaskDims &dims) {
  size_t kept = 0;
  for (float bias : mask.bias)
    kept += bias != kNegInf;
  int64_t emptyRows = 0;
  const size_t seqK = static_cast<size_t>(dims.seqK);
  for (size_t row = 0; row + seqK <= mask.bias.size(); row += seqK) {
    bool empty = true;
    for (size_t j = row; j < row + seqK && empty; ++j)
      empty = mask.bias[j] == kNegInf;
    emptyRows += empty;
  }
  char text[96];
  std::snprintf(text, sizeof(text),
                ": keeps %.1f%% of the scores, %lld rows masked whole",
                mask.bias.empty() ? 0.0 : 100.0 * kept / mask.bias.size(),
                static_cast<long long>(emptyRows));
  return std::string(toString(dims.type)) + " " + formatShape(dims.shape) +
         text;
}
