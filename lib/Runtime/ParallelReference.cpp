//===- ParallelReference.cpp - The CPU oracles on every core --------------===//

#include "sage/Runtime/ParallelReference.h"

#include "sage/Reference/Random.h"

#include <algorithm>
#include <atomic>

using namespace sage::rt;
using sage::ref::AttentionProblem;
using sage::ref::AttentionShape;

std::vector<double>
sage::rt::parallelExactAttention(const AttentionProblem &problem, Causal causal,
                                 double scale, std::vector<double> *lse,
                                 unsigned threads) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !problem.mask.fits(shape))
    return {};
  const int64_t d = shape.headDim;
  const int64_t heads = shape.batch * shape.headsQ;
  // Row blocks per head: enough work items to keep every worker busy.
  int64_t chunks = std::max<int64_t>(
      1, (4 * static_cast<int64_t>(threads) + heads - 1) / heads);
  int64_t rows = std::max<int64_t>(16, (shape.seqQ + chunks - 1) / chunks);
  chunks = (shape.seqQ + rows - 1) / rows;
  std::vector<double> out(static_cast<size_t>(shape.qElements()), 0.0);
  if (lse)
    lse->assign(static_cast<size_t>(heads * shape.seqQ), 0.0);
  parallelFor(static_cast<size_t>(heads * chunks), threads, [&](size_t item) {
    // Query rows are numbered as O and the LSE store them: a block of them
    // is one contiguous range of both. exactAttentionRows computes each by
    // the code of the whole-problem call (causal view, GQA head, mask row),
    // so the bits are the same.
    int64_t slice = static_cast<int64_t>(item) / chunks;
    int64_t r0 = (static_cast<int64_t>(item) % chunks) * rows;
    int64_t r1 = std::min(shape.seqQ, r0 + rows);
    std::vector<int64_t> part;
    for (int64_t r = r0; r < r1; ++r)
      part.push_back(slice * shape.seqQ + r);
    std::vector<double> partLse;
    std::vector<double> result = sage::ref::exactAttentionRows(
        problem, causal, scale, part, lse ? &partLse : nullptr);
    std::copy(result.begin(), result.end(),
              out.begin() + (slice * shape.seqQ + r0) * d);
    if (lse)
      std::copy(partLse.begin(), partLse.end(),
                lse->begin() + slice * shape.seqQ + r0);
  });
  return out;
}

std::vector<float>
sage::rt::parallelSageAttention(const AttentionProblem &problem,
                                const sage::ref::Recipe &recipe,
                                unsigned threads) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !problem.mask.fits(shape) ||
      !sage::ref::validateRecipe(recipe).empty())
    return {};
  std::vector<float> out(static_cast<size_t>(shape.qElements()), 0.0f);
  // Every (batch, head) is independent: the K and V statistics (means,
  // scales) are per KV head, the Q ones per Q block of one head.
  const int64_t heads = shape.batch * shape.headsQ;
  parallelFor(static_cast<size_t>(heads), threads, [&](size_t item) {
    int64_t b = static_cast<int64_t>(item) / shape.headsQ;
    int64_t h = static_cast<int64_t>(item) % shape.headsQ;
    AttentionProblem part;
    part.shape = AttentionShape{1, 1, 1, shape.seqQ, shape.seqK, shape.headDim};
    part.q = problem.q + shape.qOffset(b, h);
    int64_t kvOffset = shape.kvOffset(b, shape.kvHeadOf(h));
    part.k = problem.k + kvOffset;
    part.v = problem.v + kvOffset;
    part.mask.bias = problem.mask.slice(shape, b, h);
    std::vector<float> result = sage::ref::sageAttention(part, recipe);
    std::copy(result.begin(), result.end(), out.begin() + shape.qOffset(b, h));
  });
  return out;
}

std::vector<int64_t> sage::rt::sampleQueryRows(const AttentionShape &shape,
                                               int64_t count, uint64_t seed) {
  const int64_t total = shape.queryRows();
  std::vector<int64_t> rows;
  if (!shape.isValid() || count <= 0)
    return rows;
  if (count >= total) {
    rows.resize(static_cast<size_t>(total));
    for (int64_t r = 0; r < total; ++r)
      rows[static_cast<size_t>(r)] = r;
    return rows;
  }
  // The rows a bug at the edges shows in first: tokens 0 and Nq-1 (the
  // latter the causal diagonal's end) of the first and the last head.
  const int64_t lastHead = total - shape.seqQ;
  for (int64_t row : {int64_t(0), total - 1, shape.seqQ - 1, lastHead})
    if (static_cast<int64_t>(rows.size()) < count &&
        std::find(rows.begin(), rows.end(), row) == rows.end())
      rows.push_back(row);
  std::vector<int64_t> fixed = rows;
  std::sort(fixed.begin(), fixed.end());
  // The others: one per stratum of the rows not fixed, u in [0, free).
  // 128-bit products: count * free may pass 2^63.
  const int64_t free = total - static_cast<int64_t>(fixed.size());
  const int64_t strata = count - static_cast<int64_t>(fixed.size());
  // Its own stream: the sample must not track the input data of the seed.
  sage::ref::Rng rng(seed ^ 0x53414d504c45ull);
  for (int64_t s = 0; s < strata; ++s) {
    auto bound = [&](int64_t k) {
      return static_cast<int64_t>(static_cast<unsigned __int128>(k) *
                                  static_cast<uint64_t>(free) /
                                  static_cast<uint64_t>(strata));
    };
    int64_t lo = bound(s), size = bound(s + 1) - lo;
    int64_t u =
        lo + static_cast<int64_t>(rng.nextU64() % static_cast<uint64_t>(size));
    // The u-th row that is not fixed.
    for (int64_t f : fixed)
      u += f <= u ? 1 : 0;
    rows.push_back(u);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<double> sage::rt::parallelExactAttentionRows(
    const AttentionProblem &problem, Causal causal, double scale,
    const std::vector<int64_t> &rows, std::vector<double> *lse,
    unsigned threads) {
  const AttentionShape &shape = problem.shape;
  const size_t d = static_cast<size_t>(shape.headDim);
  if (!shape.isValid())
    return {};
  // A few rows per item: each costs O(Nk * D), so even 1 keeps a worker
  // busy at long sequences, and 4 items per worker balance the causal ones.
  size_t chunks = std::min<size_t>(rows.size(), 4 * std::max(threads, 1u));
  size_t per = chunks ? (rows.size() + chunks - 1) / chunks : 0;
  std::vector<double> out(rows.size() * d, 0.0);
  if (lse)
    lse->assign(rows.size(), 0.0);
  std::atomic<bool> failed{false};
  parallelFor(chunks, threads, [&](size_t item) {
    size_t begin = std::min(rows.size(), item * per);
    size_t end = std::min(rows.size(), begin + per);
    if (begin == end)
      return;
    std::vector<int64_t> part(rows.begin() + static_cast<ptrdiff_t>(begin),
                              rows.begin() + static_cast<ptrdiff_t>(end));
    std::vector<double> partLse;
    std::vector<double> result = sage::ref::exactAttentionRows(
        problem, causal, scale, part, lse ? &partLse : nullptr);
    if (result.empty()) {
      failed = true;
      return;
    }
    std::copy(result.begin(), result.end(), out.begin() + begin * d);
    if (lse)
      std::copy(partLse.begin(), partLse.end(), lse->begin() + begin);
  });
  if (failed)
    return {};
  return out;
}

std::vector<float> sage::rt::parallelSageAttentionRows(
    const AttentionProblem &problem, const sage::ref::Recipe &recipe,
    const std::vector<int64_t> &rows, unsigned threads) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !sage::ref::validateRecipe(recipe).empty())
    return {};
  const size_t d = static_cast<size_t>(shape.headDim);
  // One item per query head: the head's Q (and its KV head) is quantized
  // once for all of its rows. Groups of the rows' positions, by head.
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < order.size(); ++r)
    order[r] = r;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rows[a] < rows[b]; });
  std::vector<std::vector<size_t>> groups;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k == 0 ||
        rows[order[k]] / shape.seqQ != rows[order[k - 1]] / shape.seqQ)
      groups.emplace_back();
    groups.back().push_back(order[k]);
  }
  std::vector<float> out(rows.size() * d, 0.0f);
  std::atomic<bool> failed{false};
  parallelFor(groups.size(), threads, [&](size_t item) {
    std::vector<int64_t> part;
    for (size_t r : groups[item])
      part.push_back(rows[r]);
    std::vector<float> result =
        sage::ref::sageAttentionRows(problem, recipe, part);
    if (result.empty()) {
      failed = true;
      return;
    }
    for (size_t p = 0; p < groups[item].size(); ++p)
      std::copy(result.begin() + static_cast<ptrdiff_t>(p * d),
                result.begin() + static_cast<ptrdiff_t>((p + 1) * d),
                out.begin() + static_cast<ptrdiff_t>(groups[item][p] * d));
  });
  if (failed)
    return {};
  return out;
}

std::string sage::rt::recipeForPlan(const LaunchPlan &plan,
                                    sage::ref::Recipe &recipe) {
  std::optional<sage::ref::Recipe> preset =
      sage::ref::recipeFromVariantName(plan.variant);
  if (!preset) {
    std::string names;
    for (std::string_view name : sage::ref::kVariantNames)
      names += (names.empty() ? "" : ", ") + std::string(name);
    return "the cpu model has no variant '" + plan.variant + "' (expected " +
           names + ")";
  }
  if (plan.valueDim != plan.headDim)
    return "the cpu model needs value_dim == head_dim, got " +
           std::to_string(plan.valueDim) + " and " +
           std::to_string(plan.headDim);
  recipe = *preset;
  recipe.blockQ = plan.tiles.blockQ;
  recipe.warpRows = plan.tiles.warpQ;
  recipe.blockK = plan.tiles.blockK;
  recipe.smoothQ = plan.smooth.q;
  recipe.smoothK = plan.smooth.k;
  recipe.smoothV = plan.smooth.v;
  recipe.causal = plan.causal;
  recipe.scale = plan.scale;
  if (plan.queryKeyGranularity)
    recipe.granularity = *plan.queryKeyGranularity;
  if (plan.f16FlushEvery)
    recipe.f16FlushEvery = int(*plan.f16FlushEvery);
  if (plan.probRange)
    recipe.pRange = float(*plan.probRange);
  if (plan.valueRange)
    recipe.vRange = float(*plan.valueRange);
  std::optional<sage::ref::ElementFormat> output =
      getReferenceFormat(plan.outputType);
  if (!output)
    return std::string("the cpu model cannot produce output_type ") +
           toString(plan.outputType);
  recipe.outputFormat = *output;
  std::string error = sage::ref::validateRecipe(recipe);
  if (!error.empty())
    return "the plan's recipe does not fit the cpu model: " + error;
  return std::string();
}

std::optional<sage::ref::ElementFormat>
sage::rt::getReferenceFormat(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return sage::ref::ElementFormat::F16;
  case ElementType::BF16:
    return sage::ref::ElementFormat::BF16;
  case ElementType::F32:
    return sage::ref::ElementFormat::F32;
  default:
    return std::nullopt;
  }
}
