//===- TestMasks.h - Masks shared by the reference tests --------*- C++ -*-===//
//
// Masks for the FP64 and CPU-model tests: a keep-mask that spells out the
// causal mask, a random additive one, and the expansion of a broadcast
// mask to [B, Hq, Nq, Nk].
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_UNITTESTS_REFERENCE_TESTMASKS_H
#define SAGE_UNITTESTS_REFERENCE_TESTMASKS_H

#include "sage/Reference/Problem.h"
#include "sage/Reference/Random.h"

namespace sage::ref {

/// Returns the bottom-right causal mask of \p shape as a [1, 1, Nq, Nk]
/// keep-mask.
inline MaskData causalKeepMask(const AttentionShape &shape) {
  MaskData mask;
  for (int64_t i = 0; i < shape.seqQ; ++i)
    for (int64_t j = 0; j < shape.seqK; ++j)
      mask.bias.push_back(keepBias(
          isKeyVisible(Causal::BottomRight, i, j, shape.seqQ, shape.seqK)));
  return mask;
}

/// Returns a [batch, heads, Nq, Nk] additive mask of 2 * randn values,
/// each -inf with probability \p maskedFraction.
inline MaskData randomMask(const AttentionShape &shape, int64_t batch,
                           int64_t heads, uint64_t seed,
                           double maskedFraction = 0.2) {
  MaskData mask;
  mask.batch = batch;
  mask.heads = heads;
  Rng rng(seed);
  for (int64_t n = batch * heads * shape.seqQ * shape.seqK; n > 0; --n) {
    double bias = 2.0 * rng.normal();
    mask.bias.push_back(rng.uniform() < maskedFraction
                            ? keepBias(false)
                            : static_cast<float>(bias));
  }
  return mask;
}

/// Returns \p mask broadcast to [B, Hq, Nq, Nk] of \p shape.
inline MaskData expandMask(const MaskData &mask, const AttentionShape &shape) {
  MaskData out;
  out.batch = shape.batch;
  out.heads = shape.headsQ;
  const int64_t slice = shape.seqQ * shape.seqK;
  for (int64_t b = 0; b < shape.batch; ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h) {
      const float *from = mask.view().slice(shape, b, h);
      out.bias.insert(out.bias.end(), from, from + slice);
    }
  return out;
}

} // namespace sage::ref

#endif // SAGE_UNITTESTS_REFERENCE_TESTMASKS_H
