//===- SageAttentionTest.cpp - Behavior of the quantized model ------------===//

#include "sage/Reference/Attention.h"
#include "sage/Reference/Formats.h"
#include "sage/Reference/Metrics.h"
#include "sage/Reference/Random.h"

#include "TestMasks.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace sage::ref;

static Recipe preset(const char *name) { return *recipeFromVariantName(name); }

static bool allFinite(const std::vector<float> &x) {
  for (float v : x)
    if (!std::isfinite(v))
      return false;
  return true;
}

TEST(SageAttentionTest, SingleKeyReturnsItsValue) {
  // One key: P~ = 1 -> 448; V_hat = +-448 per channel; O comes back as V.
  AttentionData data;
  data.shape = AttentionShape{1, 1, 1, 1, 1, 4};
  data.q = {0.5f, -1.0f, 2.0f, 0.25f};
  data.k = {1.0f, 1.0f, -1.0f, 0.5f};
  data.v = {3.0f, -0.1f, 7.5f, -2.0f};
  std::vector<float> o = sageAttention(data.view(), preset("int8-fp8"));
  ASSERT_EQ(o.size(), 4u);
  for (int d = 0; d < 4; ++d)
    EXPECT_NEAR(o[d], data.v[d], 1e-6 * std::fabs(data.v[d]));
}

TEST(SageAttentionTest, Fp22TruncationReachesTheOutput) {
  // Q = 0: every score is 0, so P~ = 1 and P_hat = 448 for all 64 keys of
  // one block (two MMA chunks of 32). Channel 0 of V: 448 at key 0 and
  // 1.125 elsewhere, so delta_V = 1 and V_hat = V.
  AttentionData data;
  data.shape = AttentionShape{1, 1, 1, 1, 64, 1};
  data.q = {0.0f};
  Rng rng(3);
  data.k = randn(rng, 64);
  data.v.assign(64, 1.125f);
  data.v[0] = 448.0f;
  // Chunk 1: 448 * (448 + 31 * 1.125) = 216328; FP22 spacing there is 16,
  // so it truncates to 216320. Chunk 2 adds 448 * 32 * 1.125 = 16128.
  const float r = 216320.0f + 16128.0f;
  std::vector<float> o = sageAttention(data.view(), preset("int8-fp8"));
  ASSERT_EQ(o.size(), 1u);
  // End: O * (1 / l) * (delta_V / P_r) with l = 64.
  EXPECT_EQ(o[0], r * (1.0f / 64.0f) * (1.0f / 448.0f));
  // The exact mean of V is larger: the truncation is visible.
  EXPECT_LT(o[0], (448.0f + 63 * 1.125f) / 64.0f);
}

TEST(SageAttentionTest, OddLengthsAreFinite) {
  for (int64_t n : {17, 1000}) {
    AttentionShape shape{1, 1, 1, n, n, 64};
    AttentionData data =
        makeAttentionData(shape, DataKind::ChannelOutliers, 21 + n);
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      std::vector<double> ref = exactAttention(data.view(), causal);
      for (std::string_view name : kVariantNames) {
        Recipe recipe = *recipeFromVariantName(name);
        recipe.causal = causal;
        std::vector<float> o = sageAttention(data.view(), recipe);
        ASSERT_EQ(o.size(), ref.size()) << name;
        EXPECT_TRUE(allFinite(o)) << name << " n=" << n;
        AccuracyMetrics m = compareOutputs(o, ref);
        EXPECT_GT(m.cosSim, 0.98)
            << name << " n=" << n << " causal=" << sage::ref::toString(causal);
      }
    }
  }
}

TEST(SageAttentionTest, FullyMaskedRowsAreZero) {
  // Causal with Nq = 70 > Nk = 40: rows 0..29 see no key.
  AttentionShape shape{1, 2, 1, 70, 40, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 4);
  for (std::string_view name : kVariantNames) {
    Recipe recipe = *recipeFromVariantName(name);
    recipe.causal = Causal::BottomRight;
    std::vector<float> lse;
    std::vector<float> o = sageAttention(data.view(), recipe, &lse);
    ASSERT_TRUE(allFinite(o)) << name;
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 30; ++i) {
        for (int64_t d = 0; d < 64; ++d)
          ASSERT_EQ(o[shape.qOffset(0, h) + i * 64 + d], 0.0f) << name;
        EXPECT_TRUE(std::isinf(lse[h * 70 + i])) << name;
      }
    // Row 30 sees exactly key 0.
    EXPECT_NE(o[shape.qOffset(0, 0) + 30 * 64], 0.0f) << name;
  }
}

TEST(SageAttentionTest, GqaAndBatchesAreIndependentSlices) {
  AttentionShape shape{2, 4, 2, 130, 90, 64};
  AttentionData data = makeAttentionData(shape, DataKind::ChannelOutliers, 8);
  Recipe recipe = preset("int4-fp8");
  recipe.causal = Causal::BottomRight;
  std::vector<float> all = sageAttention(data.view(), recipe);
  // Batch 1, query head 3 alone, with its KV head 1.
  AttentionData one;
  one.shape = AttentionShape{1, 1, 1, 130, 90, 64};
  int64_t qOff = shape.qOffset(1, 3), kvOff = shape.kvOffset(1, 1);
  one.q.assign(data.q.begin() + qOff, data.q.begin() + qOff + 130 * 64);
  one.k.assign(data.k.begin() + kvOff, data.k.begin() + kvOff + 90 * 64);
  one.v.assign(data.v.begin() + kvOff, data.v.begin() + kvOff + 90 * 64);
  std::vector<float> single = sageAttention(one.view(), recipe);
  ASSERT_EQ(single.size(), 130u * 64u);
  for (size_t i = 0; i < single.size(); ++i)
    ASSERT_EQ(all[qOff + i], single[i]) << i;
  // Deterministic: a second run is bit-identical.
  EXPECT_EQ(sageAttention(data.view(), recipe), all);
}

TEST(SageAttentionTest, LseMatchesExact) {
  AttentionShape shape{1, 1, 1, 200, 300, 64};
  AttentionData data = makeAttentionData(shape, DataKind::ChannelOutliers, 6);
  std::vector<double> refLse;
  exactAttention(data.view(), Causal::BottomRight, 0.0, &refLse);
  Recipe recipe = preset("int8-fp8");
  recipe.causal = Causal::BottomRight;
  std::vector<float> lse;
  sageAttention(data.view(), recipe, &lse);
  ASSERT_EQ(lse.size(), refLse.size());
  // Scores reach about 70 here: INT8 score errors of a few 1e-2 remain, but
  // the K-smoothing term (tens) must be restored.
  double meanAbsError = 0.0;
  for (size_t i = 0; i < lse.size(); ++i) {
    EXPECT_NEAR(lse[i], refLse[i], 0.05) << i;
    meanAbsError += std::fabs(lse[i] - refLse[i]) / lse.size();
  }
  EXPECT_LT(meanAbsError, 0.01);
}

TEST(SageAttentionTest, QSmoothingCorrectionCarriesTheMean) {
  // All queries equal: gamma(Q) = 0, so S is the f32 correction
  // qbar . gamma(K) alone, with no QK quantization error at all.
  AttentionShape shape{1, 1, 1, 128, 256, 64};
  AttentionData data = makeAttentionData(shape, DataKind::ChannelOutliers, 2);
  for (int64_t i = 1; i < 128; ++i)
    std::copy(data.q.begin(), data.q.begin() + 64, data.q.begin() + i * 64);
  std::vector<double> ref = exactAttention(data.view(), Causal::None);
  Recipe recipe = preset("int4-fp8");
  recipe.pvFormat = PVFormat::Fp16;
  AccuracyMetrics smoothed =
      compareOutputs(sageAttention(data.view(), recipe), ref);
  EXPECT_GT(smoothed.cosSim, 0.999999);
  recipe.smoothQ = false;
  AccuracyMetrics plain =
      compareOutputs(sageAttention(data.view(), recipe), ref);
  EXPECT_LT(plain.cosSim, 0.9999);
}

TEST(SageAttentionTest, OutputFormatRounding) {
  AttentionShape shape{1, 1, 1, 64, 64, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 12);
  Recipe recipe = preset("int8-fp8");
  recipe.outputFormat = ElementFormat::BF16;
  std::vector<float> o = sageAttention(data.view(), recipe);
  recipe.outputFormat = ElementFormat::F32;
  std::vector<float> f32 = sageAttention(data.view(), recipe);
  for (size_t i = 0; i < o.size(); ++i)
    ASSERT_EQ(o[i], roundToBF16(f32[i]));
}

TEST(SageAttentionTest, InvalidInputsGiveEmpty) {
  AttentionShape shape{1, 1, 1, 8, 8, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 1);
  Recipe recipe = preset("int8-fp8-f16acc");
  recipe.pRange = 448.0f;
  EXPECT_TRUE(sageAttention(data.view(), recipe).empty());
  data.shape.headsKV = 3;
  EXPECT_TRUE(sageAttention(data.view(), preset("int8-fp8")).empty());
}

TEST(SageAttentionTest, RowsMatchTheWholeProblem) {
  // Every variant (integer and NVFP4 QK, FP8 / f16-accumulated / NVFP4
  // PV), Q/K/V smoothing and a per-tensor Q scale, whose absmax spans all
  // Q blocks; GQA, causal, Nq != Nk, and rows that start no Q block.
  const AttentionShape shapes[] = {{2, 4, 2, 70, 150, 64},
                                   {1, 2, 1, 150, 40, 64}};
  std::vector<Recipe> recipes;
  for (std::string_view name : kVariantNames)
    recipes.push_back(*recipeFromVariantName(name));
  Recipe smoothAll = preset("int8-fp8");
  smoothAll.smoothQ = smoothAll.smoothK = smoothAll.smoothV = true;
  smoothAll.blockQ = 32;
  smoothAll.warpRows = 16;
  recipes.push_back(smoothAll);
  Recipe perTensor = preset("int8-fp8");
  perTensor.granularity = Granularity::PerTensor;
  recipes.push_back(perTensor);
  for (const AttentionShape &shape : shapes)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft})
      for (Recipe recipe : recipes) {
        recipe.causal = causal;
        ASSERT_EQ(validateRecipe(recipe), "");
        AttentionData data =
            makeAttentionData(shape, DataKind::ChannelOutliers, 5);
        std::vector<float> lse, rowsLse;
        std::vector<float> all = sageAttention(data.view(), recipe, &lse);
        ASSERT_FALSE(all.empty());
        const int64_t total = shape.queryRows();
        std::vector<int64_t> rows = {total - 1, 0,  shape.seqQ - 1, 33, 33,
                                     total / 2, 69, shape.seqQ};
        std::vector<float> some =
            sageAttentionRows(data.view(), recipe, rows, &rowsLse);
        ASSERT_EQ(some.size(), rows.size() * shape.headDim);
        for (size_t r = 0; r < rows.size(); ++r) {
          std::vector<float> expected(all.begin() + rows[r] * shape.headDim,
                                      all.begin() +
                                          (rows[r] + 1) * shape.headDim);
          std::vector<float> got(some.begin() + r * shape.headDim,
                                 some.begin() + (r + 1) * shape.headDim);
          EXPECT_EQ(got, expected)
              << toString(recipe.qkFormat) << "/" << toString(recipe.pvFormat)
              << " row " << rows[r]
              << " causal=" << sage::ref::toString(causal);
          EXPECT_EQ(rowsLse[r], lse[rows[r]]) << "row " << rows[r];
        }
      }
}

TEST(SageAttentionTest, KeepMaskOfTheCausalMaskIsCausal) {
  // The bias adds 0 to the kept scores and -inf to the others; the blocks
  // past the diagonal, which the causal kernel skips, add exact zeros.
  // Every variant, Nq < Nk and Nq > Nk (rows that see no key).
  const AttentionShape shapes[] = {{1, 2, 1, 70, 150, 64},
                                   {1, 2, 2, 150, 40, 64}};
  for (const AttentionShape &shape : shapes)
    for (std::string_view name : kVariantNames) {
      AttentionData data =
          makeAttentionData(shape, DataKind::ChannelOutliers, 3);
      Recipe recipe = *recipeFromVariantName(name);
      recipe.causal = Causal::BottomRight;
      std::vector<float> lse, maskedLse;
      std::vector<float> causal = sageAttention(data.view(), recipe, &lse);
      ASSERT_FALSE(causal.empty()) << name;
      data.mask = causalKeepMask(shape);
      recipe.causal = Causal::None;
      EXPECT_EQ(sageAttention(data.view(), recipe, &maskedLse), causal) << name;
      EXPECT_EQ(maskedLse, lse) << name;
    }
}

TEST(SageAttentionTest, BiasIsAddedInBaseTwoAfterTheScore) {
  // Q = 0: every quantized score and correction is 0, so S_j is the bias
  // times f32 log2(e) alone, and the LSE follows from it in f32.
  AttentionData data;
  data.shape = AttentionShape{1, 1, 1, 1, 2, 4};
  data.q.assign(4, 0.0f);
  data.k = {1.0f, 2.0f, -1.0f, 0.5f, 0.25f, -3.0f, 2.0f, 1.0f};
  data.v = {1.0f, 2.0f, 3.0f, 4.0f, -1.0f, 0.5f, 2.0f, -4.0f};
  data.mask.bias = {0.5f, -1.25f};
  const float log2e = static_cast<float>(1.4426950408889634);
  float s0 = 0.0f + 0.5f * log2e, s1 = 0.0f + -1.25f * log2e;
  // The row max is s0: P~_0 = 2^0 = 1.
  float l = 1.0f + std::exp2(s1 - s0);
  std::vector<float> lse;
  sageAttention(data.view(), preset("int8-fp8"), &lse);
  ASSERT_EQ(lse.size(), 1u);
  EXPECT_EQ(lse[0], static_cast<float>(0.6931471805599453 *
                                       (s0 + std::log2(double(l)))));
}

TEST(SageAttentionTest, RowConstantBiasIsNearlyInvisible) {
  // Softmax does not see a constant per row; the model only rounds the
  // shifted f32 scores differently, and its LSE moves by the constant.
  AttentionShape shape{1, 2, 1, 128, 200, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 6);
  Recipe recipe = preset("int8-fp8");
  std::vector<float> lse, maskedLse;
  std::vector<float> plain = sageAttention(data.view(), recipe, &lse);
  data.mask.bias.resize(128 * 200);
  for (int64_t i = 0; i < 128; ++i)
    std::fill(data.mask.bias.begin() + i * 200,
              data.mask.bias.begin() + (i + 1) * 200, 0.25f * (i % 7) - 1.0f);
  std::vector<float> masked = sageAttention(data.view(), recipe, &maskedLse);
  AccuracyMetrics m =
      compareOutputs(masked, std::vector<double>(plain.begin(), plain.end()));
  EXPECT_LT(m.relL1, 2e-3);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 128; ++i)
      EXPECT_NEAR(maskedLse[h * 128 + i],
                  lse[h * 128 + i] + 0.25f * (i % 7) - 1.0f, 1e-4);
}

TEST(SageAttentionTest, MaskedModelTracksMaskedExact) {
  AttentionShape shape{2, 2, 1, 100, 160, 64};
  AttentionData data = makeAttentionData(shape, DataKind::ChannelOutliers, 9);
  data.mask = randomMask(shape, 2, 1, 4);
  std::vector<double> refLse;
  std::vector<double> ref =
      exactAttention(data.view(), Causal::BottomRight, 0.0, &refLse);
  Recipe recipe = preset("int8-fp8");
  recipe.causal = Causal::BottomRight;
  std::vector<float> lse;
  std::vector<float> o = sageAttention(data.view(), recipe, &lse);
  AccuracyMetrics m = compareOutputs(o, ref);
  EXPECT_GT(m.cosSim, 0.999);
  for (size_t i = 0; i < lse.size(); ++i)
    if (std::isfinite(refLse[i]))
      EXPECT_NEAR(lse[i], refLse[i], 0.05) << i;
    else
      EXPECT_EQ(lse[i], refLse[i]) << i;
}

TEST(SageAttentionTest, FullyMaskedRowsOfTheMaskAreZero) {
  AttentionShape shape{1, 1, 1, 70, 90, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 4);
  data.mask.bias.assign(70 * 90, 0.0f);
  // Row 5 is hidden whole; row 69 keeps key 80 alone (its second block).
  std::fill(data.mask.bias.begin() + 5 * 90, data.mask.bias.begin() + 6 * 90,
            keepBias(false));
  std::fill(data.mask.bias.begin() + 69 * 90, data.mask.bias.end(),
            keepBias(false));
  data.mask.bias[69 * 90 + 80] = 0.0f;
  for (std::string_view name : kVariantNames) {
    Recipe recipe = *recipeFromVariantName(name);
    recipe.outputFormat = ElementFormat::F32;
    std::vector<float> lse;
    std::vector<float> o = sageAttention(data.view(), recipe, &lse);
    ASSERT_TRUE(allFinite(o)) << name;
    for (int64_t d = 0; d < 64; ++d)
      ASSERT_EQ(o[5 * 64 + d], 0.0f) << name;
    EXPECT_TRUE(std::isinf(lse[5]) && lse[5] < 0) << name;
    EXPECT_TRUE(std::isfinite(lse[69])) << name;
    // One key: O is its quantized value.
    std::vector<double> v(data.v.begin() + 80 * 64, data.v.begin() + 81 * 64);
    std::vector<float> row(o.begin() + 69 * 64, o.begin() + 70 * 64);
    EXPECT_GT(compareOutputs(row, v).cosSim, 0.99) << name;
  }
}

TEST(SageAttentionTest, LowestFloatMasksLikeMinusInfinity) {
  // Hugging Face masks with torch.finfo(dtype).min: bias * f32(log2 e)
  // overflows to -inf in the kernels, and the FP64 attention and the model
  // drop the key for it as for -inf (a whole row of it gives 0).
  AttentionShape shape{1, 2, 1, 70, 90, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 5);
  data.mask = randomMask(shape, 1, 1, 6);
  std::fill(data.mask.bias.begin() + 3 * 90, data.mask.bias.begin() + 4 * 90,
            keepBias(false));
  AttentionData lowest = data;
  for (float &bias : lowest.mask.bias)
    if (std::isinf(bias))
      bias = std::numeric_limits<float>::lowest();
  EXPECT_TRUE(dropsKey(std::numeric_limits<float>::lowest()));
  EXPECT_TRUE(dropsKey(-3.3895314e38f)); // the bf16 minimum
  EXPECT_FALSE(dropsKey(-65504.0f));     // the f16 minimum adds
  std::vector<double> exactLse, lowestExactLse;
  EXPECT_EQ(exactAttention(lowest.view(), Causal::None, 0.0, &lowestExactLse),
            exactAttention(data.view(), Causal::None, 0.0, &exactLse));
  EXPECT_EQ(lowestExactLse, exactLse);
  for (std::string_view name : kVariantNames) {
    Recipe recipe = *recipeFromVariantName(name);
    EXPECT_EQ(sageAttention(lowest.view(), recipe),
              sageAttention(data.view(), recipe))
        << name;
  }
}

TEST(SageAttentionTest, BroadcastMaskEqualsTheExpandedOne) {
  AttentionShape shape{2, 4, 2, 70, 90, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 5);
  Recipe recipe = preset("int4-fp8");
  for (auto [batch, heads] :
       {std::pair<int64_t, int64_t>{1, 1}, {1, 4}, {2, 1}}) {
    data.mask = randomMask(shape, batch, heads, 9);
    std::vector<float> lse, expandedLse;
    std::vector<float> o = sageAttention(data.view(), recipe, &lse);
    data.mask = expandMask(data.mask, shape);
    EXPECT_EQ(sageAttention(data.view(), recipe, &expandedLse), o)
        << batch << "x" << heads;
    EXPECT_EQ(expandedLse, lse);
  }
}

TEST(SageAttentionTest, MaskedRowsMatchTheWholeProblem) {
  AttentionShape shape{2, 4, 2, 70, 150, 64};
  AttentionData data = makeAttentionData(shape, DataKind::ChannelOutliers, 5);
  data.mask = randomMask(shape, 1, 4, 2, 0.5);
  std::fill(data.mask.bias.begin() + 33 * 150,
            data.mask.bias.begin() + 34 * 150, keepBias(false));
  for (std::string_view name : kVariantNames)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      Recipe recipe = *recipeFromVariantName(name);
      recipe.causal = causal;
      std::vector<float> lse, rowsLse;
      std::vector<float> all = sageAttention(data.view(), recipe, &lse);
      std::vector<int64_t> rows = {shape.queryRows() - 1, 33, 0, 69,
                                   4 * 70 + 33};
      std::vector<float> some =
          sageAttentionRows(data.view(), recipe, rows, &rowsLse);
      ASSERT_EQ(some.size(), rows.size() * 64);
      for (size_t r = 0; r < rows.size(); ++r) {
        EXPECT_EQ(std::vector<float>(some.begin() + r * 64,
                                     some.begin() + (r + 1) * 64),
                  std::vector<float>(all.begin() + rows[r] * 64,
                                     all.begin() + (rows[r] + 1) * 64))
            << name << " row " << rows[r]
            << " causal=" << sage::ref::toString(causal);
        EXPECT_EQ(rowsLse[r], lse[rows[r]]) << name << " row " << rows[r];
      }
      // Row 33 of every (b, h): the mask broadcasts over the batch.
      EXPECT_TRUE(std::isinf(rowsLse[1]) && std::isinf(rowsLse[4])) << name;
    }
}

TEST(SageAttentionTest, MaskThatDoesNotFitGivesEmpty) {
  AttentionShape shape{2, 4, 2, 8, 8, 64};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 1);
  data.mask = randomMask(shape, 3, 1, 1);
  EXPECT_TRUE(sageAttention(data.view(), preset("int8-fp8")).empty());
  EXPECT_TRUE(sageAttentionRows(data.view(), preset("int8-fp8"), {0}).empty());
}
