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

/// Whether floats are stored as \p type (f32, f16 or bf16).
static bool isFloatStorage(ElementType type) {
  return type == ElementType::F32 || type == ElementType::F16 ||
         type == ElementType::BF16;
}

/// Stores \p x as one element of the float storage \p type at \p dst.
static void encodeFloat(float x, ElementType type, uint8_t *dst) {
  if (type == ElementType::F32) {
    std::memcpy(dst, &x, sizeof(float));
    return;
  }
  uint16_t bits = type == ElementType::F16 ? sage::ref::encodeF16(x)
                                           : sage::ref::encodeBF16(x);
  std::memcpy(dst, &bits, 2);
}

/// Reads one element of the float storage \p type at \p src.
static float decodeFloat(const uint8_t *src, ElementType type) {
  if (type == ElementType::F32) {
    float x;
    std::memcpy(&x, src, sizeof(float));
    return x;
  }
  uint16_t bits;
  std::memcpy(&bits, src, 2);
  return type == ElementType::F16 ? sage::ref::decodeF16(bits)
                                  : sage::ref::decodeBF16(bits);
}

std::string sage::rt::encodeElements(const float *values, size_t n,
                                     ElementType type,
                                     std::vector<uint8_t> &bytes) {
  if (!isFloatStorage(type))
    return std::string("cannot encode floats as ") + toString(type);
  size_t width = elementSize(type);
  bytes.resize(n * width);
  for (size_t i = 0; i < n; ++i)
    encodeFloat(values[i], type, bytes.data() + i * width);
  return std::string();
}

std::string sage::rt::decodeElements(const uint8_t *bytes, size_t n,
                                     ElementType type,
                                     std::vector<float> &values) {
  if (!isFloatStorage(type))
    return std::string("cannot decode ") + toString(type) + " as floats";
  size_t width = elementSize(type);
  values.resize(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = decodeFloat(bytes + i * width, type);
  return std::string();
}

std::string sage::rt::encodeToLayout(const std::vector<float> &values,
                                     const std::vector<DimRole> &layout,
                                     const CanonicalDims &dims,
                                     ElementType type,
                                     std::vector<uint8_t> &bytes,
                                     unsigned threads) {
  if (!isFloatStorage(type))
    return std::string("cannot encode floats as ") + toString(type);
  if (static_cast<int64_t>(values.size()) != dims.elements())
    return "cannot encode " + std::to_string(values.size()) +
           " values as a tensor of " + std::to_string(dims.elements()) +
           " elements";
  size_t width = elementSize(type);
  bytes.resize(values.size() * width);
  uint8_t *out = bytes.data();
  forEachElement(layout, dims, threads, [&](int64_t canonical, int64_t laid) {
    encodeFloat(values[static_cast<size_t>(canonical)], type,
                out + static_cast<size_t>(laid) * width);
  });
  return std::string();
}

std::string sage::rt::decodeFromLayout(const uint8_t *bytes,
                                       const std::vector<DimRole> &layout,
                                       const CanonicalDims &dims,
                                       ElementType type,
                                       std::vector<float> &values,
                                       unsigned threads) {
  if (!isFloatStorage(type))
    return std::string("cannot decode ") + toString(type) + " as floats";
  size_t width = elementSize(type);
  values.resize(static_cast<size_t>(dims.elements()));
  forEachElement(layout, dims, threads, [&](int64_t canonical, int64_t laid) {
    values[static_cast<size_t>(canonical)] =
        decodeFloat(bytes + static_cast<size_t>(laid) * width, type);
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
