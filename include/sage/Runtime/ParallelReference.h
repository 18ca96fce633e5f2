//===- ParallelReference.h - The CPU oracles on every core ------*- C++ -*-===//
//
// The FP64 attention and the CPU model of the quantized kernel
// (sage/Reference) are single-threaded; a runner checking a 4k x 4k
// problem calls them here, split into independent (batch, head) slices
// (and, for FP64, row blocks) on std::thread workers. The results are
// identical to one call over the whole problem.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_PARALLELREFERENCE_H
#define SAGE_RUNTIME_PARALLELREFERENCE_H

#include "sage/Reference/Attention.h"
#include "sage/Reference/Recipe.h"
#include "sage/Runtime/Parallel.h"
#include "sage/Runtime/Plan.h"

#include <optional>
#include <string>
#include <vector>

namespace sage::rt {

using sage::ref::Causal;

/// exactAttention of \p problem on \p threads workers; \p lse as there.
std::vector<double>
parallelExactAttention(const sage::ref::AttentionProblem &problem,
                       Causal causal, double scale, std::vector<double> *lse,
                       unsigned threads);

/// sageAttention of \p problem with \p recipe on \p threads workers. An
/// invalid recipe or shape gives an empty vector, as sageAttention.
std::vector<float>
parallelSageAttention(const sage::ref::AttentionProblem &problem,
                      const sage::ref::Recipe &recipe, unsigned threads);

/// Returns \p count distinct query-row indices ((b * Hq + h) * Nq + i, see
/// AttentionShape::queryRows) of \p shape, ascending, chosen from \p seed
/// alone. First the edges: token 0 of the first head (b = 0, h = 0), token
/// Nq-1 of the last head (b = B-1, h = Hq-1), token Nq-1 of the first and
/// token 0 of the last (as many as \p count allows, in that order); then one
/// row drawn uniformly from each of the remaining count - 4 equal strata of
/// the other rows in index order, which spreads them over batches, heads
/// and tokens. A \p count of B * Hq * Nq or more gives every row.
std::vector<int64_t> sampleQueryRows(const sage::ref::AttentionShape &shape,
                                     int64_t count, uint64_t seed);

/// exactAttentionRows of \p problem on \p threads workers.
std::vector<double>
parallelExactAttentionRows(const sage::ref::AttentionProblem &problem,
                           Causal causal, double scale,
                           const std::vector<int64_t> &rows,
                           std::vector<double> *lse, unsigned threads);

/// sageAttentionRows of \p problem on \p threads workers, one query head's
/// rows per work item.
std::vector<float>
parallelSageAttentionRows(const sage::ref::AttentionProblem &problem,
                          const sage::ref::Recipe &recipe,
                          const std::vector<int64_t> &rows, unsigned threads);

/// Builds the CPU model's recipe for \p plan: the variant's preset with
/// the plan's tiles (block_q, warp_q, block_k), smoothing, causal flag,
/// scale and output type. Returns an empty string or why the model cannot
/// follow the plan.
std::string recipeForPlan(const LaunchPlan &plan, sage::ref::Recipe &recipe);

/// The CPU model's format of a plan's float element type (f16, bf16, f32);
/// none for the integer and FP8 types.
std::optional<sage::ref::ElementFormat> getReferenceFormat(ElementType type);

} // namespace sage::rt

#endif // SAGE_RUNTIME_PARALLELREFERENCE_H
