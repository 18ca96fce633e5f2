//===- HostData.cpp - Host-side tensors of a plan's buffers ---------------===//

#include "sage/Runtime/HostData.h"

#include "sage/Reference/Formats.h"
#include "sage/Runtime/Parallel.h"

#include <cmath>
#include <cstring>

using namespace sage::rt;

namespace {
/// Strides of the canonical dimensions inside a layout-ordered array.
struct LayoutStrides {
  int64_t batch = 0;
  int64_t heads = 0;
  int64_t tokens = 0;
  int64_t features = 0;
};
} // namespace

static LayoutStrides computeStrides(const std::vector<DimRole> &layout,
                                    const CanonicalDims &dims) {
  LayoutStrides strides;
  int64_t stride = 1;
  for (size_t i = layout.size(); i-- > 0;) {
    switch (layout[i]) {
    case DimRole::Batch:
      strides.batch = stride;
      stride *= dims.batch;
      break;
    case DimRole::Heads:
      strides.heads = stride;
      stride *= dims.heads;
      break;
    case DimRole::Tokens:
      strides.tokens = stride;
      stride *= dims.tokens;
      break;
    case DimRole::Features:
      strides.features = stride;
      stride *= dims.features;
      break;
    }
  }
  return strides;
}

/// Calls \p visit(canonical, laid) for every element of the canonical rows
/// (b, h, n) [\p rowBegin, \p rowEnd), with its offsets in the canonical
/// array and in the \p layout one.
template <typename Visit>
static void forEachElement(const std::vector<DimRole> &layout,
                           const CanonicalDims &dims, int64_t rowBegin,
                           int64_t rowEnd, Visit visit) {
  LayoutStrides s = computeStrides(layout, dims);
  for (int64_t row = rowBegin; row < rowEnd; ++row) {
    int64_t n = row % dims.tokens, h = row / dims.tokens % dims.heads;
    int64_t b = row / dims.tokens / dims.heads;
    int64_t base = b * s.batch + h * s.heads + n * s.tokens;
    int64_t canonical = row * dims.features;
    for (int64_t d = 0; d < dims.features; ++d)
      visit(canonical + d, base + d * s.features);
  }
}

/// forEachElement over every row, in ranges of rows on up to \p threads
/// workers (each element is written once, wherever it runs).
template <typename Visit>
static void forEachElement(const std::vector<DimRole> &layout,
                           const CanonicalDims &dims, unsigned threads,
                           Visit visit) {
  int64_t rows = dims.batch * dims.heads * dims.tokens;
  forRangesOn(threads)(
      static_cast<size_t>(rows), [&](size_t begin, size_t end) {
        forEachElement(layout, dims, static_cast<int64_t>(begin),
                       static_cast<int64_t>(end), visit);
      });
}

/// Copies between canonical and layout order; \p toLayout picks the
/// direction.
static std::vector<float> permute(const std::vector<float> &values,
                                  const std::vector<DimRole> &layout,
                                  const CanonicalDims &dims, bool toLayout) {
  std::vector<float> out(values.size());
  forEachElement(layout, dims, /*threads=*/1,
                 [&](int64_t canonical, int64_t laid) {
                   if (toLayout)
                     out[laid] = values[canonical];
                   else
                     out[canonical] = values[laid];
                 });
  return out;
}

std::vector<float>
sage::rt::canonicalToLayout(const std::vector<float> &values,
                            const std::vector<DimRole> &layout,
                            const CanonicalDims &dims) {
  return permute(values, layout, dims, /*toLayout=*/true);
}

std::vector<float>
sage::rt::layoutToCanonical(const std::vector<float> &values,
                            const std::vector<DimRole> &layout,
                            const CanonicalDims &dims) {
  return permute(values, layout, dims, /*toLayout=*/false);
}

std::string sage::rt::encodeElements(const float *values, size_t n,
                                     ElementType type,
                                     std::vector<uint8_t> &bytes) {
  bytes.resize(n * elementSize(type));
  switch (type) {
  case ElementType::F32:
    if (n)
      std::memcpy(bytes.data(), values, n * sizeof(float));
    return std::string();
  case ElementType::F16:
  case ElementType::BF16:
    for (size_t i = 0; i < n; ++i) {
      uint16_t bits = type == ElementType::F16
                          ? sage::ref::encodeF16(values[i])
                          : sage::ref::encodeBF16(values[i]);
      std::memcpy(bytes.data() + 2 * i, &bits, 2);
    }
    return std::string();
  default:
    return std::string("cannot encode floats as ") + toString(type);
  }
}

std::string sage::rt::decodeElements(const uint8_t *bytes, size_t n,
                                     ElementType type,
                                     std::vector<float> &values) {
  values.resize(n);
  switch (type) {
  case ElementType::F32:
    if (n)
      std::memcpy(values.data(), bytes, n * sizeof(float));
    return std::string();
  case ElementType::F16:
  case ElementType::BF16:
    for (size_t i = 0; i < n; ++i) {
      uint16_t bits;
      std::memcpy(&bits, bytes + 2 * i, 2);
      values[i] = type == ElementType::F16 ? sage::ref::decodeF16(bits)
                                           : sage::ref::decodeBF16(bits);
    }
    return std::string();
  default:
    return std::string("cannot decode ") + toString(type) + " as floats";
  }
}

std::string sage::rt::encodeToLayout(const std::vector<float> &values,
                                     const std::vector<DimRole> &layout,
                                     const CanonicalDims &dims,
                                     ElementType type,
                                     std::vector<uint8_t> &bytes,
                                     unsigned threads) {
  if (type != ElementType::F32 && type != ElementType::F16 &&
      type != ElementType::BF16)
    return std::string("cannot encode floats as ") + toString(type);
  if (static_cast<int64_t>(values.size()) != dims.elements())
    return "cannot encode " + std::to_string(values.size()) +
           " values as a tensor of " + std::to_string(dims.elements()) +
           " elements";
  size_t width = elementSize(type);
  bytes.resize(values.size() * width);
  uint8_t *out = bytes.data();
  forEachElement(layout, dims, threads, [&](int64_t canonical, int64_t laid) {
    float x = values[static_cast<size_t>(canonical)];
    uint8_t *dst = out + static_cast<size_t>(laid) * width;
    if (type == ElementType::F32) {
      std::memcpy(dst, &x, sizeof(float));
      return;
    }
    uint16_t bits = type == ElementType::F16 ? sage::ref::encodeF16(x)
                                             : sage::ref::encodeBF16(x);
    std::memcpy(dst, &bits, 2);
  });
  return std::string();
}

std::string sage::rt::decodeFromLayout(const uint8_t *bytes,
                                       const std::vector<DimRole> &layout,
                                       const CanonicalDims &dims,
                                       ElementType type,
                                       std::vector<float> &values,
                                       unsigned threads) {
  if (type != ElementType::F32 && type != ElementType::F16 &&
      type != ElementType::BF16)
    return std::string("cannot decode ") + toString(type) + " as floats";
  size_t width = elementSize(type);
  values.resize(static_cast<size_t>(dims.elements()));
  forEachElement(layout, dims, threads, [&](int64_t canonical, int64_t laid) {
    const uint8_t *src = bytes + static_cast<size_t>(laid) * width;
    float &x = values[static_cast<size_t>(canonical)];
    if (type == ElementType::F32) {
      std::memcpy(&x, src, sizeof(float));
      return;
    }
    uint16_t bits;
    std::memcpy(&bits, src, 2);
    x = type == ElementType::F16 ? sage::ref::decodeF16(bits)
                                 : sage::ref::decodeBF16(bits);
  });
  return std::string();
}

size_t sage::rt::countNonFinite(const std::vector<float> &values) {
  size_t count = 0;
  for (float x : values)
    if (!std::isfinite(x))
      ++count;
  return count;
}
