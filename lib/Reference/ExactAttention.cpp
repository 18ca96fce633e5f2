//===- ExactAttention.cpp - FP64 ground-truth attention -------------------===//

#include "sage/Reference/Attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace sage::ref;

/// Computes one output row: o = softmax(scale * q K^T + bias) V over the
/// first \p visibleKeys keys; \p bias (null without a mask) holds the
/// row's additive mask. Returns the row's LSE (natural log), -inf if it
/// sees no key.
static double exactRow(const float *q, const float *k, const float *v,
                       const float *bias, int64_t visibleKeys, int64_t headDim,
                       double scale, std::vector<double> &scores, double *out) {
  constexpr double kNegInf = -std::numeric_limits<double>::infinity();
  std::fill(out, out + headDim, 0.0);
  // Scaled, biased scores and their max, for a stable exponent.
  double maxScore = kNegInf;
  for (int64_t j = 0; j < visibleKeys; ++j) {
    scores[j] = kNegInf;
    if (bias && dropsKey(bias[j]))
      continue;
    double dot = 0.0;
    for (int64_t d = 0; d < headDim; ++d)
      dot +=
          static_cast<double>(q[d]) * static_cast<double>(k[j * headDim + d]);
    scores[j] = scale * dot;
    if (bias)
      scores[j] += static_cast<double>(bias[j]);
    // A NaN score makes the max NaN (std::max would drop it): the row is
    // then NaN, as softmax's definition (and SDPA) gives.
    if (std::isnan(scores[j]) || scores[j] > maxScore)
      maxScore = std::isnan(maxScore) ? maxScore : scores[j];
  }
  if (maxScore == kNegInf)
    return kNegInf;
  // o = sum_j exp(s_j - max) v_j / sum_j exp(s_j - max), over the keys
  // the mask keeps.
  double sum = 0.0;
  for (int64_t j = 0; j < visibleKeys; ++j) {
    if (scores[j] == kNegInf)
      continue;
    double p = std::exp(scores[j] - maxScore);
    sum += p;
    for (int64_t d = 0; d < headDim; ++d)
      out[d] += p * static_cast<double>(v[j * headDim + d]);
  }
  for (int64_t d = 0; d < headDim; ++d)
    out[d] /= sum;
  return maxScore + std::log(sum);
}

/// Computes output row \p i of query head \p h of batch \p b (the row
/// exactAttention writes at qOffset(b, h) + i * D) with the resolved
/// \p scale; returns its LSE. The one place that maps a row to its keys
/// (GQA head, causal mask, mask row), shared by the
/// whole-problem and the sampled-row entry points so that both give the
/// same bits.
static double exactRowOf(const AttentionProblem &problem, Causal causal,
                         double scale, int64_t b, int64_t h, int64_t i,
                         std::vector<double> &scores, double *out) {
  const AttentionShape &shape = problem.shape;
  const int64_t d = shape.headDim;
  // Keys 0 .. i + shift are visible under the causal mask.
  int64_t visible =
      causal != Causal::None
          ? std::min(
                shape.seqK,
                std::max<int64_t>(
                    0, i + causalShift(causal, shape.seqQ, shape.seqK) + 1))
          : shape.seqK;
  const float *bias = problem.mask.slice(shape, b, h);
  if (bias)
    bias += i * shape.seqK;
  int64_t kvOffset = shape.kvOffset(b, shape.kvHeadOf(h));
  return exactRow(problem.q + shape.qOffset(b, h) + i * d, problem.k + kvOffset,
                  problem.v + kvOffset, bias, visible, d, scale, scores, out);
}

std::vector<double> sage::ref::exactAttention(const AttentionProblem &problem,
                                              Causal causal, double scale,
                                              std::vector<double> *lse) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !problem.mask.fits(shape))
    return {};
  const int64_t d = shape.headDim;
  const double s = resolveScale(scale, d);
  std::vector<double> out(static_cast<size_t>(shape.qElements()));
  if (lse)
    lse->assign(static_cast<size_t>(shape.batch * shape.headsQ * shape.seqQ),
                0.0);
  std::vector<double> scores(static_cast<size_t>(shape.seqK));
  for (int64_t b = 0; b < shape.batch; ++b)
    for (int64_t h = 0; h < shape.headsQ; ++h)
      for (int64_t i = 0; i < shape.seqQ; ++i) {
        double rowLse = exactRowOf(problem, causal, s, b, h, i, scores,
                                   out.data() + shape.qOffset(b, h) + i * d);
        if (lse)
          (*lse)[(b * shape.headsQ + h) * shape.seqQ + i] = rowLse;
      }
  return out;
}

std::vector<double>
sage::ref::exactAttentionRows(const AttentionProblem &problem, Causal causal,
                              double scale, const std::vector<int64_t> &rows,
                              std::vector<double> *lse) {
  const AttentionShape &shape = problem.shape;
  if (!shape.hasRows(rows) || !problem.mask.fits(shape))
    return {};
  const int64_t d = shape.headDim;
  const double s = resolveScale(scale, d);
  std::vector<double> out(rows.size() * static_cast<size_t>(d));
  if (lse)
    lse->assign(rows.size(), 0.0);
  std::vector<double> scores(static_cast<size_t>(shape.seqK));
  for (size_t r = 0; r < rows.size(); ++r) {
    int64_t head = rows[r] / shape.seqQ;
    double rowLse =
        exactRowOf(problem, causal, s, head / shape.headsQ, head % shape.headsQ,
                   rows[r] % shape.seqQ, scores, out.data() + r * d);
    if (lse)
      (*lse)[r] = rowLse;
  }
  return out;
}
