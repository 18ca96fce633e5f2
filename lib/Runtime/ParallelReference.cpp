//===- ParallelReference.cpp - The CPU oracles on every core --------------===//

#include "sage/Runtime/ParallelReference.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <thread>

using namespace sage::rt;
using sage::ref::AttentionProblem;
using sage::ref::AttentionShape;

unsigned sage::rt::defaultThreads() {
  unsigned count = std::thread::hardware_concurrency();
  return count ? count : 1;
}

/// Runs \p work(i) for every i < \p items on up to \p threads workers.
static void parallelFor(size_t items, unsigned threads,
                        const std::function<void(size_t)> &work) {
  unsigned workers = static_cast<unsigned>(
      std::min<size_t>(std::max(threads, 1u), std::max<size_t>(items, 1)));
  std::atomic<size_t> next{0};
  auto loop = [&] {
    for (size_t i = next++; i < items; i = next++)
      work(i);
  };
  if (workers <= 1) {
    loop();
    return;
  }
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < workers; ++t)
    pool.emplace_back(loop);
  for (std::thread &thread : pool)
    thread.join();
}

std::vector<double>
sage::rt::parallelExactAttention(const AttentionProblem &problem, bool causal,
                                 double scale, std::vector<double> *lse,
                                 unsigned threads) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid())
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
    int64_t slice = static_cast<int64_t>(item) / chunks;
    int64_t b = slice / shape.headsQ, h = slice % shape.headsQ;
    int64_t r0 = (static_cast<int64_t>(item) % chunks) * rows;
    int64_t r1 = std::min(shape.seqQ, r0 + rows);
    // Under the bottom-right causal mask rows [r0, r1) see keys below
    // r1 + Nk - Nq; a slice of that many keys keeps every row's view.
    int64_t keys = causal ? std::min(shape.seqK, r1 + shape.seqK - shape.seqQ)
                          : shape.seqK;
    double *dst = out.data() + shape.qOffset(b, h) + r0 * d;
    double *dstLse = lse ? lse->data() + slice * shape.seqQ + r0 : nullptr;
    if (keys <= 0) {
      if (dstLse)
        std::fill(dstLse, dstLse + (r1 - r0),
                  -std::numeric_limits<double>::infinity());
      return;
    }
    AttentionProblem part;
    part.shape = AttentionShape{1, 1, 1, r1 - r0, keys, d};
    part.q = problem.q + shape.qOffset(b, h) + r0 * d;
    int64_t kvOffset = shape.kvOffset(b, shape.kvHeadOf(h));
    part.k = problem.k + kvOffset;
    part.v = problem.v + kvOffset;
    std::vector<double> partLse;
    std::vector<double> result = sage::ref::exactAttention(
        part, causal, scale, dstLse ? &partLse : nullptr);
    std::copy(result.begin(), result.end(), dst);
    if (dstLse)
      std::copy(partLse.begin(), partLse.end(), dstLse);
  });
  return out;
}

std::vector<float>
sage::rt::parallelSageAttention(const AttentionProblem &problem,
                                const sage::ref::Recipe &recipe,
                                unsigned threads) {
  const AttentionShape &shape = problem.shape;
  if (!shape.isValid() || !sage::ref::validateRecipe(recipe).empty())
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
    std::vector<float> result = sage::ref::sageAttention(part, recipe);
    std::copy(result.begin(), result.end(), out.begin() + shape.qOffset(b, h));
  });
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
