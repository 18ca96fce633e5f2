//===- Problem.h - Shape and data of one attention problem ------*- C++ -*-===//
//
// Q is [B, Hq, Nq, D] and K, V are [B, Hkv, Nk, D], row-major f32 arrays
// whose values are already rounded to the input dtype (see roundAll).
// Query head h reads KV head h / (Hq / Hkv) (grouped-query attention).
// Causal masking is aligned bottom-right (query i sees key j iff
// j <= i + (Nk - Nq)) or top-left (iff j <= i; see Causal). An optional
// mask adds a bias to every score (see AttentionMask).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_PROBLEM_H
#define SAGE_REFERENCE_PROBLEM_H

#include "sage/Reference/Formats.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sage::ref {

/// The sizes of an attention problem.
struct AttentionShape {
  int64_t batch = 1;
  int64_t headsQ = 1;
  int64_t headsKV = 1;
  int64_t seqQ = 1;
  int64_t seqK = 1;
  int64_t headDim = 64;

  /// Returns the number of elements of Q (and of O).
  int64_t qElements() const { return batch * headsQ * seqQ * headDim; }
  /// Returns the number of elements of K (and of V).
  int64_t kvElements() const { return batch * headsKV * seqK * headDim; }
  /// Returns the number of query rows, B * Hq * Nq. Row (b, h, i) has the
  /// index (b * Hq + h) * Nq + i, the order of Q, O and the LSE.
  int64_t queryRows() const { return batch * headsQ * seqQ; }
  /// Returns the KV head that query head \p headQ reads.
  int64_t kvHeadOf(int64_t headQ) const { return headQ / (headsQ / headsKV); }
  /// Returns the offset of the [Nq x D] slice of Q for (\p b, \p h).
  int64_t qOffset(int64_t b, int64_t h) const {
    return (b * headsQ + h) * seqQ * headDim;
  }
  /// Returns the offset of the [Nk x D] slice of K or V for (\p b, \p h).
  int64_t kvOffset(int64_t b, int64_t h) const {
    return (b * headsKV + h) * seqK * headDim;
  }
  /// Returns true if every size is positive and Hkv divides Hq.
  bool isValid() const {
    return batch > 0 && headsQ > 0 && headsKV > 0 && seqQ > 0 && seqK > 0 &&
           headDim > 0 && headsQ % headsKV == 0;
  }
  /// Returns true if the shape is valid and every one of \p rows indexes a
  /// query row (see queryRows).
  bool hasRows(const std::vector<int64_t> &rows) const {
    if (!isValid())
      return false;
    for (int64_t row : rows)
      if (row < 0 || row >= queryRows())
        return false;
    return true;
  }
};

/// A non-owning view of an attention mask: an additive bias, in
/// natural-log units, for every score, [batch, heads, Nq, Nk] row-major
/// f32. An extent of 1 broadcasts over the batch or the query heads; else
/// it is B or Hq. A keep-mask is 0 (keep) or -inf (masked, see keepBias);
/// an additive mask holds finite values or -inf. A null \p bias is no
/// mask.
struct AttentionMask {
  const float *bias = nullptr;
  int64_t batch = 1;
  int64_t heads = 1;

  /// Returns true if there is no mask or its extents broadcast to \p shape.
  bool fits(const AttentionShape &shape) const {
    return !bias || ((batch == 1 || batch == shape.batch) &&
                     (heads == 1 || heads == shape.headsQ));
  }
  /// Returns the [Nq x Nk] biases that query head \p h of batch \p b
  /// adds, or null without a mask.
  const float *slice(const AttentionShape &shape, int64_t b, int64_t h) const {
    if (!bias)
      return nullptr;
    int64_t index = (batch == 1 ? 0 : b) * heads + (heads == 1 ? 0 : h);
    return bias + index * shape.seqQ * shape.seqK;
  }
};

/// Returns the bias of a keep-mask element: 0 to keep the key, -inf to
/// mask it out.
inline float keepBias(bool keep) {
  return keep ? 0.0f : -std::numeric_limits<float>::infinity();
}

/// Returns true if the additive mask value \p bias drops its key: -inf, or
/// so negative that the kernels' base-2 bias (bias * f32(log2 e), in f32)
/// overflows to -inf. torch.finfo(torch.float32).min and the bf16 minimum,
/// which Hugging Face models use to mask, are such values. The FP64
/// attention follows the kernels here, so each value means one thing.
inline bool dropsKey(float bias) {
  constexpr float kLog2EF32 = 1.4426950408889634f;
  return bias < 0.0f && std::isinf(bias * kLog2EF32);
}

/// A non-owning view of one problem's inputs.
struct AttentionProblem {
  AttentionShape shape;
  const float *q = nullptr;
  const float *k = nullptr;
  const float *v = nullptr;
  AttentionMask mask;
};

/// An owned attention mask (see AttentionMask); empty \p bias is none.
struct MaskData {
  std::vector<float> bias;
  int64_t batch = 1;
  int64_t heads = 1;

  /// Returns a view of this mask.
  AttentionMask view() const {
    return AttentionMask{bias.empty() ? nullptr : bias.data(), batch, heads};
  }
};

/// Owned inputs of one problem.
struct AttentionData {
  AttentionShape shape;
  std::vector<float> q;
  std::vector<float> k;
  std::vector<float> v;
  MaskData mask;

  /// Returns a view of these inputs.
  AttentionProblem view() const {
    return AttentionProblem{shape, q.data(), k.data(), v.data(), mask.view()};
  }
};

/// Which keys a query sees: all, or those on or left of a diagonal aligned
/// to the bottom-right corner of the scores (sage.attention's `causal`) or
/// to the top-left (`causal_alignment = top_left`, PyTorch's and JAX's
/// is_causal). The two agree when Nq = Nk.
enum class Causal { None, BottomRight, TopLeft };

/// "none", "bottom_right" or "top_left", as the launch plan spells it.
inline const char *toString(Causal causal) {
  switch (causal) {
  case Causal::None:
    return "none";
  case Causal::BottomRight:
    return "bottom_right";
  case Causal::TopLeft:
    return "top_left";
  }
  return "?";
}

/// The diagonal's shift under a causal mask: query i sees keys
/// j <= i + shift.
inline int64_t causalShift(Causal causal, int64_t seqQ, int64_t seqK) {
  return causal == Causal::TopLeft ? 0 : seqK - seqQ;
}

/// Returns true if query \p i may see key \p j.
inline bool isKeyVisible(Causal causal, int64_t i, int64_t j, int64_t seqQ,
                         int64_t seqK) {
  return causal == Causal::None || j <= i + causalShift(causal, seqQ, seqK);
}

/// Returns \p scale, or 1/sqrt(headDim) when \p scale is 0.
inline double resolveScale(double scale, int64_t headDim) {
  return scale != 0.0 ? scale : 1.0 / std::sqrt(static_cast<double>(headDim));
}

/// Rounds every value of \p values to \p format (e.g. F16 or BF16 inputs).
inline void roundAll(std::vector<float> &values, ElementFormat format) {
  for (float &x : values)
    x = roundToFormat(x, format);
}

} // namespace sage::ref

#endif // SAGE_REFERENCE_PROBLEM_H
