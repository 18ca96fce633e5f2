//===- HostData.cpp - Host-side tensors of a plan's buffers ---------------===//

#include "sage/Runtime/HostData.h"

#include "sage/Reference/Formats.h"

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

/// Copies between canonical and layout order; \p toLayout picks the
/// direction.
static std::vector<float> permute(const std::vector<float> &values,
                                  const std::vector<DimRole> &layout,
                                  const CanonicalDims &dims, bool toLayout) {
  std::vector<float> out(values.size());
  LayoutStrides s = computeStrides(layout, dims);
  int64_t canonical = 0;
  for (int64_t b = 0; b < dims.batch; ++b)
    for (int64_t h = 0; h < dims.heads; ++h)
      for (int64_t n = 0; n < dims.tokens; ++n) {
        int64_t base = b * s.batch + h * s.heads + n * s.tokens;
        for (int64_t d = 0; d < dims.features; ++d, ++canonical) {
          int64_t laid = base + d * s.features;
          if (toLayout)
            out[laid] = values[canonical];
          else
            out[canonical] = values[laid];
        }
      }
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

size_t sage::rt::countNonFinite(const std::vector<float> &values) {
  size_t count = 0;
  for (float x : values)
    if (!std::isfinite(x))
      ++count;
  return count;
}
