//===- Mask.h - A plan's attention mask on the host -------------*- C++ -*-===//
//
// A plan's optional `mask` input (docs/LaunchPlan.md) is [B or 1, H or 1,
// Nq, Nk], an i1 keep-mask (one byte per element, nonzero keeps the key)
// or an additive f16, bf16 or f32 bias. The CPU references take it as
// additive f32 biases (sage::ref::MaskData: 0 / -inf for a keep-mask);
// these helpers generate sage-run's seeded mask, decode one from a .npy
// file's elements, encode one for the plan buffer and describe it.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_MASK_H
#define SAGE_RUNTIME_MASK_H

#include "sage/Reference/Problem.h"
#include "sage/Runtime/ResolvedPlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sage::rt {

/// A plan's mask buffer evaluated for one run.
struct MaskDims {
  ElementType type = ElementType::I1;
  /// The plan's shape of it, as a .npy file of it must be.
  std::vector<int64_t> shape;
  /// Its extents in the canonical [batch, heads] view of the CPU
  /// references: 1 or B, 1 or H (a rank-3 plan's B * H splits back).
  int64_t batch = 1;
  int64_t heads = 1;
  int64_t seqQ = 1;
  int64_t seqK = 1;

  /// Returns the number of elements, batch * heads * Nq * Nk.
  int64_t elements() const { return batch * heads * seqQ * seqK; }
};

/// Sets \p dims to the mask buffer of \p plan, resolved in \p resolved for
/// the canonical \p sizes (sage-run's --B and --H). Returns false if the
/// plan has no mask.
bool getMaskDims(const LaunchPlan &plan, const ResolvedPlan &resolved,
                 const ProblemSizes &sizes, MaskDims &dims);

/// Returns the mask sage-run draws from \p seed when no file gives one,
/// the same on any number of \p threads. An i1 mask keeps, in every row
/// (b, h, i), a key-padding prefix j < len_b, with len_b drawn per mask
/// batch from [ceil(Nk / 2), Nk], less each of those keys with probability
/// 1/4. A float mask is 2 * randn, each element -inf with probability 1/5,
/// rounded to dims.type. With Nq >= 4 the last query row of every (b, h)
/// is masked whole, so that the kernels' path for a row that sees no key
/// runs.
sage::ref::MaskData generateMask(const MaskDims &dims, uint64_t seed,
                                 unsigned threads = 1);

/// Decodes the dims.elements() elements of \p type at \p bytes (i1 bytes,
/// or f16 or f32 values that are rounded to dims.type) into \p mask.
/// Returns an empty string, or a message naming the first element that is
/// NaN or +inf (after rounding): an additive mask holds finite values or
/// -inf.
std::string decodeMask(const uint8_t *bytes, ElementType type,
                       const MaskDims &dims, sage::ref::MaskData &mask);

/// Encodes \p mask as the plan's \p type: one byte per element, 1 for a
/// kept key (bias 0) and 0 for a masked one for i1, the biases' bits for
/// f16, bf16 and f32 (rounded to it already).
std::string encodeMask(const sage::ref::MaskData &mask, ElementType type,
                       std::vector<uint8_t> &bytes);

/// Returns "i1 [1, 8, 128, 128]: keeps 61.3% of the scores, 8 rows masked
/// whole".
std::string describeMask(const sage::ref::MaskData &mask, const MaskDims &dims);

} // namespace sage::rt

#endif // SAGE_RUNTIME_MASK_H
