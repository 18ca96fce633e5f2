//===- HostData.h - Host-side tensors of a plan's buffers -------*- C++ -*-===//
//
// The runner keeps Q, K, V and O as f32 arrays in the canonical
// [batch, heads, tokens, features] order of the CPU model. These helpers
// move them to and from a plan buffer: reorder into the plan's layout and
// encode to its element type (f16 and bf16 round to nearest even through
// the CPU model's encoders), and back.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_HOSTDATA_H
#define SAGE_RUNTIME_HOSTDATA_H

#include "sage/Runtime/Plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::rt {

/// The extents of a canonical [batch, heads, tokens, features] tensor.
struct CanonicalDims {
  int64_t batch = 1;
  int64_t heads = 1;
  int64_t tokens = 1;
  int64_t features = 1;

  int64_t elements() const { return batch * heads * tokens * features; }
};

/// Returns the canonical \p values reordered into \p layout. For a rank-3
/// layout \p dims.heads must be 1 (fold heads into the batch first; the
/// memory order is the same).
std::vector<float> canonicalToLayout(const std::vector<float> &values,
                                     const std::vector<DimRole> &layout,
                                     const CanonicalDims &dims);

/// The inverse of canonicalToLayout.
std::vector<float> layoutToCanonical(const std::vector<float> &values,
                                     const std::vector<DimRole> &layout,
                                     const CanonicalDims &dims);

/// Encodes \p n floats as \p type (f16, bf16 or f32) into \p bytes.
/// Returns an empty string, or a message for an integer or fp8 type.
std::string encodeElements(const float *values, size_t n, ElementType type,
                           std::vector<uint8_t> &bytes);

/// Decodes \p n elements of \p type (f16, bf16, f32) into \p values.
std::string decodeElements(const uint8_t *bytes, size_t n, ElementType type,
                           std::vector<float> &values);

/// Encodes the canonical \p values as \p type (f16, bf16 or f32) in the
/// order of \p layout: canonicalToLayout and encodeElements in one pass,
/// without their f32 copy (a 128k-token tensor is GiBs), on up to
/// \p threads workers. Returns an empty string or a message for an integer
/// or fp8 type or a size mismatch.
std::string encodeToLayout(const std::vector<float> &values,
                           const std::vector<DimRole> &layout,
                           const CanonicalDims &dims, ElementType type,
                           std::vector<uint8_t> &bytes, unsigned threads = 1);

/// The inverse: decodes the \p dims.elements() elements of \p type at
/// \p bytes, in the order of \p layout, into canonical \p values.
std::string decodeFromLayout(const uint8_t *bytes,
                             const std::vector<DimRole> &layout,
                             const CanonicalDims &dims, ElementType type,
                             std::vector<float> &values, unsigned threads = 1);

/// Returns the number of NaN and infinite values in \p values.
size_t countNonFinite(const std::vector<float> &values);

} // namespace sage::rt

#endif // SAGE_RUNTIME_HOSTDATA_H
