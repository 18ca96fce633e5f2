//===- ParallelReferenceTest.cpp - The CPU oracles on every core ----------===//

#include "sage/Runtime/ParallelReference.h"

#include "sage/Reference/Metrics.h"
#include "sage/Reference/Random.h"
#include "sage/Runtime/HostData.h"
#include "sage/Runtime/Mask.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>

using namespace sage::rt;
namespace ref = sage::ref;

// From TestPlans.cpp.
std::string samplePlanText();
std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to);

/// Grouped-query shapes with Nq != Nk in both directions.
static const ref::AttentionShape kShapes[] = {
    {2, 4, 2, 40, 100, 64}, {1, 3, 1, 130, 70, 64}, {1, 2, 2, 1, 33, 64}};

TEST(ParallelReferenceTest, ExactMatchesOneCall) {
  for (const ref::AttentionShape &shape : kShapes)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      ref::AttentionData data =
          ref::makeAttentionData(shape, ref::DataKind::Randn, 3);
      std::vector<double> lse, parallelLse;
      std::vector<double> serial =
          ref::exactAttention(data.view(), causal, 0.0, &lse);
      ASSERT_FALSE(serial.empty());
      std::vector<double> parallel =
          parallelExactAttention(data.view(), causal, 0.0, &parallelLse, 5);
      EXPECT_EQ(parallel, serial)
          << "Nq=" << shape.seqQ << " causal=" << sage::ref::toString(causal);
      EXPECT_EQ(parallelLse, lse);
    }
}

TEST(ParallelReferenceTest, ModelMatchesOneCall) {
  std::optional<ref::Recipe> preset = ref::recipeFromVariantName("int8-fp8");
  ASSERT_TRUE(preset);
  for (const ref::AttentionShape &shape : kShapes)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      ref::Recipe recipe = *preset;
      recipe.causal = causal;
      recipe.blockQ = 64;
      recipe.warpRows = 16;
      ref::AttentionData data =
          ref::makeAttentionData(shape, ref::DataKind::ChannelOutliers, 4);
      ASSERT_EQ(ref::validateRecipe(recipe), "");
      std::vector<float> serial = ref::sageAttention(data.view(), recipe);
      ASSERT_FALSE(serial.empty());
      std::vector<float> parallel =
          parallelSageAttention(data.view(), recipe, 3);
      EXPECT_EQ(parallel, serial)
          << "Nq=" << shape.seqQ << " causal=" << sage::ref::toString(causal);
    }
}

TEST(ParallelReferenceTest, RecipeFollowsThePlan) {
  std::string text =
      replaceOnce(samplePlanText(), R"("causal": false)", R"("causal": true)");
  text =
      replaceOnce(text, R"("output_type": "f16")", R"("output_type": "f32")");
  text = replaceOnce(text, R"({"name": "o", "kind": "output", "type": "f16")",
                     R"({"name": "o", "kind": "output", "type": "f32")");
  LaunchPlan plan;
  ASSERT_EQ(parsePlan(text, plan), "");
  ref::Recipe recipe;
  ASSERT_EQ(recipeForPlan(plan, recipe), "");
  EXPECT_EQ(recipe.qkFormat, ref::QKFormat::Int8);
  EXPECT_EQ(recipe.blockQ, 64);
  EXPECT_EQ(recipe.warpRows, 16);
  EXPECT_EQ(recipe.blockK, 64);
  EXPECT_TRUE(recipe.smoothQ);
  EXPECT_TRUE(recipe.smoothK);
  EXPECT_FALSE(recipe.smoothV);
  EXPECT_EQ(recipe.causal, ref::Causal::BottomRight);
  EXPECT_DOUBLE_EQ(recipe.scale, 0.08838834764831845);
  EXPECT_EQ(recipe.outputFormat, ref::ElementFormat::F32);

  // The plan's ranges replace the variant's (SageAttention2++ with the
  // official code's P_r = 448, V_r = 2.25 instead of 224 and 4.5).
  std::string official = replaceOnce(
      replaceOnce(samplePlanText(), R"("variant": "int8-fp8")",
                  R"("variant": "int8-fp8-f16acc")"),
      R"("scale": 0.08838834764831845)",
      R"("scale": 0.08838834764831845, "ranges": {"p": 448, "v": 2.25}, )"
      R"("f16_flush_every": 1)");
  LaunchPlan f16acc;
  ASSERT_EQ(parsePlan(official, f16acc), "");
  ref::Recipe delayed;
  ASSERT_EQ(recipeForPlan(f16acc, delayed), "");
  EXPECT_EQ(delayed.accumulator, ref::PVAccumulator::F16Delayed);
  EXPECT_EQ(delayed.f16FlushEvery, 1);
  EXPECT_EQ(delayed.pRange, 448.0f);
  EXPECT_EQ(delayed.vRange, 2.25f);
  EXPECT_EQ(delayed.granularity, ref::Granularity::PerThread);

  // One Q and one K scale a block.
  LaunchPlan blocked;
  ASSERT_EQ(
      parsePlan(replaceOnce(samplePlanText(), R"("scale": 0.08838834764831845)",
                            R"("scale": 0.08838834764831845, )"
                            R"("qk_granularity": "per_block")"),
                blocked),
      "");
  ref::Recipe perBlock;
  ASSERT_EQ(recipeForPlan(blocked, perBlock), "");
  EXPECT_EQ(perBlock.granularity, ref::Granularity::PerBlock);

  plan.variant = "int2-fp8";
  EXPECT_EQ(recipeForPlan(plan, recipe),
            "the cpu model has no variant 'int2-fp8' (expected int8-fp8, "
            "int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4, "
            "int8-fp16, int8-fp16-f16acc)");
  plan.variant = "int8-fp8";
  plan.tiles.warpQ = 24;
  EXPECT_EQ(recipeForPlan(plan, recipe),
            "the plan's recipe does not fit the cpu model: expected warp rows "
            "to be a multiple of 16, got 24");
}

TEST(ParallelReferenceTest, SampledRowsAreSpreadAndFixedBySeed) {
  ref::AttentionShape shape{2, 4, 2, 100, 30, 64};
  const int64_t total = shape.queryRows();
  std::vector<int64_t> rows = sampleQueryRows(shape, 16, 7);
  ASSERT_EQ(rows.size(), 16u);
  EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  // The first and last token of the first and the last head.
  for (int64_t edge :
       {int64_t(0), shape.seqQ - 1, total - shape.seqQ, total - 1})
    EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), edge)) << edge;
  // Both batches and every head; not all tokens at the edges.
  std::vector<int> perHead(8, 0);
  int inner = 0;
  for (int64_t row : rows) {
    ++perHead[static_cast<size_t>(row / shape.seqQ)];
    int64_t token = row % shape.seqQ;
    inner += token != 0 && token != shape.seqQ - 1;
  }
  for (int count : perHead)
    EXPECT_GE(count, 1);
  EXPECT_GE(inner, 8);
  EXPECT_EQ(sampleQueryRows(shape, 16, 7), rows);
  EXPECT_NE(sampleQueryRows(shape, 16, 8), rows);
  // Fewer than the four edges: in their order of priority.
  EXPECT_EQ(sampleQueryRows(shape, 1, 7), std::vector<int64_t>({0}));
  EXPECT_EQ(sampleQueryRows(shape, 2, 7), std::vector<int64_t>({0, 799}));
  EXPECT_EQ(sampleQueryRows(shape, 3, 7), std::vector<int64_t>({0, 99, 799}));
  // As many rows as there are, or more: every row once.
  for (int64_t count : {total, total + 1}) {
    rows = sampleQueryRows(shape, count, 7);
    ASSERT_EQ(rows.size(), static_cast<size_t>(total));
    EXPECT_EQ(rows.front(), 0);
    EXPECT_EQ(rows.back(), total - 1);
  }
  // One row short of all: the strata have one row each.
  rows = sampleQueryRows(shape, total - 1, 7);
  EXPECT_EQ(rows.size(), static_cast<size_t>(total - 1));
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  // One head of one token: the four edges are one row.
  EXPECT_EQ(sampleQueryRows({1, 1, 1, 1, 5, 64}, 3, 0),
            std::vector<int64_t>({0}));
  EXPECT_TRUE(sampleQueryRows(shape, 0, 7).empty());
}

TEST(ParallelReferenceTest, SampledRowsOfHugeProblems) {
  // 2^42 query rows: the strata arithmetic must not wrap (count * rows is
  // past 2^63), and every row stays in range and spread evenly.
  ref::AttentionShape shape{4, 1024, 1, int64_t(1) << 30, 1, 128};
  const int64_t total = shape.queryRows();
  const int64_t count = 1 << 20;
  std::vector<int64_t> rows = sampleQueryRows(shape, count, 3);
  ASSERT_EQ(rows.size(), static_cast<size_t>(count));
  EXPECT_EQ(rows.front(), 0);
  EXPECT_EQ(rows.back(), total - 1);
  EXPECT_EQ(std::adjacent_find(rows.begin(), rows.end()), rows.end());
  int64_t stratum = total / (count - 4);
  for (size_t r = 1; r < rows.size(); ++r)
    ASSERT_LT(rows[r] - rows[r - 1], 2 * stratum + 8) << r;
  // The shape of attention-huge.test.
  shape = {1, 160, 160, 131072, 131072, 128};
  rows = sampleQueryRows(shape, 256, 0);
  ASSERT_EQ(rows.size(), 256u);
  EXPECT_EQ(rows.back(), shape.queryRows() - 1);
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), 131071));
  EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), 159 * 131072));
}

/// Checks that the sampled \p rows (\p d values each) of the FP64
/// attention and the model, and their LSEs, are the whole problem's.
static void expectRowsOf(const std::vector<int64_t> &rows, size_t d,
                         const std::vector<double> &exactRows,
                         const std::vector<double> &exact,
                         const std::vector<float> &modelRows,
                         const std::vector<float> &model,
                         const std::vector<double> &rowsLse,
                         const std::vector<double> &lse) {
  ASSERT_EQ(exactRows.size(), rows.size() * d);
  ASSERT_EQ(modelRows.size(), rows.size() * d);
  for (size_t r = 0; r < rows.size(); ++r) {
    size_t at = static_cast<size_t>(rows[r]) * d;
    for (size_t k = 0; k < d; ++k) {
      ASSERT_EQ(exactRows[r * d + k], exact[at + k]) << rows[r];
      ASSERT_EQ(modelRows[r * d + k], model[at + k]) << rows[r];
    }
    EXPECT_EQ(rowsLse[r], lse[static_cast<size_t>(rows[r])]);
  }
}

TEST(ParallelReferenceTest, SampledRowsMatchTheWholeReferences) {
  std::optional<ref::Recipe> preset = ref::recipeFromVariantName("int8-fp8");
  ASSERT_TRUE(preset);
  for (const ref::AttentionShape &shape : kShapes)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      ref::AttentionData data =
          ref::makeAttentionData(shape, ref::DataKind::ChannelOutliers, 9);
      std::vector<int64_t> rows = sampleQueryRows(shape, 12, 1);
      const size_t d = static_cast<size_t>(shape.headDim);
      std::vector<double> lse, rowsLse;
      std::vector<double> exact =
          parallelExactAttention(data.view(), causal, 0.0, &lse, 3);
      std::vector<double> exactRows = parallelExactAttentionRows(
          data.view(), causal, 0.0, rows, &rowsLse, 5);
      ref::Recipe recipe = *preset;
      recipe.causal = causal;
      recipe.blockQ = 64;
      recipe.warpRows = 16;
      std::vector<float> model = parallelSageAttention(data.view(), recipe, 3);
      std::vector<float> modelRows =
          parallelSageAttentionRows(data.view(), recipe, rows, 5);
      expectRowsOf(rows, d, exactRows, exact, modelRows, model, rowsLse, lse);
    }
}

TEST(ParallelReferenceTest, MaskedMatchesOneCall) {
  // sage-run's masks (a keep-mask per batch, an additive one per head),
  // whole and sampled, on threads: the bits of one serial call.
  std::optional<ref::Recipe> preset = ref::recipeFromVariantName("int8-fp8");
  ASSERT_TRUE(preset);
  for (const ref::AttentionShape &shape : kShapes)
    for (ElementType type : {ElementType::I1, ElementType::F16}) {
      MaskDims dims;
      dims.type = type;
      dims.batch = type == ElementType::I1 ? shape.batch : 1;
      dims.heads = type == ElementType::I1 ? 1 : shape.headsQ;
      dims.seqQ = shape.seqQ;
      dims.seqK = shape.seqK;
      ref::AttentionData data =
          ref::makeAttentionData(shape, ref::DataKind::Randn, 3);
      data.mask = generateMask(dims, 5);
      ref::Recipe recipe = *preset;
      recipe.blockQ = 64;
      recipe.warpRows = 16;
      std::vector<double> lse, parallelLse, rowsLse;
      std::vector<double> exact =
          ref::exactAttention(data.view(), Causal::None, 0.0, &lse);
      ASSERT_FALSE(exact.empty());
      EXPECT_EQ(parallelExactAttention(data.view(), Causal::None, 0.0,
                                       &parallelLse, 5),
                exact);
      EXPECT_EQ(parallelLse, lse);
      std::vector<float> model = ref::sageAttention(data.view(), recipe);
      ASSERT_FALSE(model.empty());
      EXPECT_EQ(parallelSageAttention(data.view(), recipe, 3), model);
      std::vector<int64_t> rows = sampleQueryRows(shape, 12, 1);
      std::vector<double> exactRows = parallelExactAttentionRows(
          data.view(), Causal::None, 0.0, rows, &rowsLse, 5);
      std::vector<float> modelRows =
          parallelSageAttentionRows(data.view(), recipe, rows, 5);
      const size_t d = static_cast<size_t>(shape.headDim);
      expectRowsOf(rows, d, exactRows, exact, modelRows, model, rowsLse, lse);
    }
}

TEST(ParallelReferenceTest, SampledRowsFollowTheLayout) {
  // What sage-run does with the GPU's output: encode it in the plan's
  // layout, decode it back to canonical order and pick the sampled rows.
  // Stand in the FP64 attention for the GPU's output; the sampled
  // reference must then find its own rows in either layout.
  ref::AttentionShape shape{2, 4, 2, 40, 100, 64};
  ref::AttentionData data =
      ref::makeAttentionData(shape, ref::DataKind::Randn, 2);
  CanonicalDims dims{shape.batch, shape.headsQ, shape.seqQ, shape.headDim};
  const std::vector<DimRole> layouts[] = {
      {DimRole::Batch, DimRole::Heads, DimRole::Tokens, DimRole::Features},
      {DimRole::Batch, DimRole::Tokens, DimRole::Heads, DimRole::Features}};
  for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
    std::vector<double> exact =
        parallelExactAttention(data.view(), causal, 0.0, nullptr, 2);
    std::vector<float> gpu(exact.begin(), exact.end());
    std::vector<int64_t> rows = sampleQueryRows(shape, 10, 4);
    std::vector<double> reference =
        parallelExactAttentionRows(data.view(), causal, 0.0, rows, nullptr, 2);
    for (const std::vector<DimRole> &layout : layouts) {
      std::vector<uint8_t> bytes;
      ASSERT_EQ(encodeToLayout(gpu, layout, dims, ElementType::F32, bytes), "");
      std::vector<float> back;
      ASSERT_EQ(
          decodeFromLayout(bytes.data(), layout, dims, ElementType::F32, back),
          "");
      std::vector<float> sampled;
      for (int64_t row : rows)
        for (int64_t k = 0; k < shape.headDim; ++k)
          sampled.push_back(back[static_cast<size_t>(row * shape.headDim + k)]);
      ref::AccuracyMetrics m = ref::compareOutputs(sampled, reference);
      EXPECT_GT(m.cosSim, 0.9999999) << "causal=" << ref::toString(causal);
      EXPECT_LT(m.maxAbsError, 1e-6);
    }
  }
}

TEST(ParallelReferenceTest, InputsOnThreadsAreTheSerialOnes) {
  // sage-run draws its inputs with forRangesOn: the same bits as the
  // serial makeAttentionData (ranges of 2^16 elements, several per thread).
  ref::AttentionShape shape{1, 2, 1, 3001, 1500, 64};
  for (ref::DataKind kind :
       {ref::DataKind::Randn, ref::DataKind::ChannelOutliers}) {
    ref::AttentionData serial = ref::makeAttentionData(shape, kind, 6);
    ref::AttentionData threaded = ref::makeAttentionData(
        shape, kind, 6, ref::ElementFormat::F16, forRangesOn(3));
    EXPECT_EQ(threaded.q, serial.q);
    EXPECT_EQ(threaded.k, serial.k);
    EXPECT_EQ(threaded.v, serial.v);
  }
}

TEST(ParallelReferenceTest, ForRangesCoverEachIndexOnce) {
  for (unsigned threads : {1u, 2u, 7u})
    for (size_t n :
         {size_t(0), size_t(5), size_t(1) << 16, (size_t(1) << 20) + 3}) {
      std::vector<std::atomic<int>> seen(n);
      forRangesOn(threads)(n, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i)
          ++seen[i];
      });
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(seen[i].load(), 1) << i << " of " << n;
    }
}
