//===- Attention.h - Exact and quantized attention --------------*- C++ -*-===//
//
// exactAttention is the FP64 ground truth. sageAttention models, step by
// step, what a sage kernel computes for a Recipe: the same tiles, the same
// quantization points and the same accumulator formats.
//
// Scope of "bit-faithful": every rounding to a storage or MMA format (INT,
// FP8, FP4, FP16, FP22, f32 buffer adds) happens where the kernel does it,
// in the documented order. Transcendentals (exp2f here, ex2.approx on the
// GPU) and the summation order of the softmax row sum l may differ by a few
// f32 ulps; those can move a P~ value across an FP8 rounding boundary, so a
// GPU comparison should allow a small tolerance rather than demand equality.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_ATTENTION_H
#define SAGE_REFERENCE_ATTENTION_H

#include "sage/Reference/Problem.h"
#include "sage/Reference/Recipe.h"

#include <vector>

namespace sage::ref {

/// Returns O = softmax(scale * Q K^T + mask) V in FP64, shaped like Q, with
/// the causal mask when \p causal and problem.mask's bias (if any) added
/// to the scores in double. \p scale 0 selects 1/sqrt(D). A row that sees
/// no key (every score -inf) outputs 0. When \p lse is given it receives,
/// per (b, h, i) row, the natural log of sum_j exp(scale * S_ij + bias_ij)
/// (-inf for a row that sees no key). A mask that does not fit the shape
/// (see AttentionMask::fits) gives an empty vector.
std::vector<double> exactAttention(const AttentionProblem &problem,
                                   Causal causal, double scale = 0.0,
                                   std::vector<double> *lse = nullptr);

/// Returns the rows \p rows of exactAttention(problem, causal, scale): for
/// each query-row index (see AttentionShape::queryRows) in the order given,
/// D values, computed by the same code and so bit-equal; \p lse receives
/// their LSEs. Costs O(rows * Nk * D), not O(B * Hq * Nq * Nk * D): a spot
/// check of a problem too long to check whole. A row index out of range
/// (or an invalid shape) gives an empty vector.
std::vector<double> exactAttentionRows(const AttentionProblem &problem,
                                       Causal causal, double scale,
                                       const std::vector<int64_t> &rows,
                                       std::vector<double> *lse = nullptr);

/// Returns the output of the quantized kernel \p recipe describes, shaped
/// like Q, rounded to recipe.outputFormat; never NaN for finite inputs. An
/// invalid recipe or shape (see validateRecipe), or a mask that does not
/// fit the shape, gives an empty vector.
/// When \p lse is given it receives the natural-log LSE per row,
/// ln 2 * (m + log2 l) from the running max m and sum l, plus the term
/// scale * q_i . mean(K) that K smoothing removes from every score of the
/// row (softmax-invariant, but part of the true LSE); -inf for a row that
/// sees no key.
///
/// Per (batch, head) and per Q block of recipe.blockQ rows, as the kernel:
///  1. Q, K (optionally smoothed) are quantized with the recipe's groups;
///     padding tokens are zeros.
///  2. Per K/V block: S = int32(Q_hat K_hat^T) * (dq * dk * scale * log2 e)
///     + dS * scale * log2 e, then + bias * f32(log2 e) with problem.mask,
///     in that order, masked to -inf (padding, causal).
///  3. Online softmax in base 2: m' = max(m, rowmax S), alpha = 2^(m - m'),
///     P~ = 2^(S - m'), l = l * alpha + rowsum P~ (f32, of the unquantized
///     P~), O = O * alpha.
///  4. R = P_hat V_hat through the recipe's accumulator; O = O + R.
///  5. End: O * (1 / l) * (delta_V / P_r) (+ mean V).
std::vector<float> sageAttention(const AttentionProblem &problem,
                                 const Recipe &recipe,
                                 std::vector<float> *lse = nullptr);

/// Returns the rows \p rows of sageAttention(problem, recipe), D values
/// per query-row index in the order given, bit-equal to the whole-problem
/// call (\p lse likewise). Each row's KV head and Q head are quantized
/// whole, as the kernel does (O((Nq + Nk) * D) per distinct head), but
/// only the row's own Q block correction and its online softmax are run
/// (O(Nk * D) per row). A row index out of range, an invalid recipe or
/// shape gives an empty vector.
std::vector<float> sageAttentionRows(const AttentionProblem &problem,
                                     const Recipe &recipe,
                                     const std::vector<int64_t> &rows,
                                     std::vector<float> *lse = nullptr);

} // namespace sage::ref

#endif // SAGE_REFERENCE_ATTENTION_H
