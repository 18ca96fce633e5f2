//===- ParallelReferenceTest.cpp - The CPU oracles on every core ----------===//

#include "sage/Runtime/ParallelReference.h"

#include "sage/Reference/Random.h"

#include "gtest/gtest.h"

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
    for (bool causal : {false, true}) {
      ref::AttentionData data =
          ref::makeAttentionData(shape, ref::DataKind::Randn, 3);
      std::vector<double> lse, parallelLse;
      std::vector<double> serial =
          ref::exactAttention(data.view(), causal, 0.0, &lse);
      ASSERT_FALSE(serial.empty());
      std::vector<double> parallel =
          parallelExactAttention(data.view(), causal, 0.0, &parallelLse, 5);
      EXPECT_EQ(parallel, serial)
          << "Nq=" << shape.seqQ << " causal=" << causal;
      EXPECT_EQ(parallelLse, lse);
    }
}

TEST(ParallelReferenceTest, ModelMatchesOneCall) {
  std::optional<ref::Recipe> preset = ref::recipeFromVariantName("int8-fp8");
  ASSERT_TRUE(preset);
  for (const ref::AttentionShape &shape : kShapes)
    for (bool causal : {false, true}) {
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
          << "Nq=" << shape.seqQ << " causal=" << causal;
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
  EXPECT_TRUE(recipe.causal);
  EXPECT_DOUBLE_EQ(recipe.scale, 0.08838834764831845);
  EXPECT_EQ(recipe.outputFormat, ref::ElementFormat::F32);

  plan.variant = "int2-fp8";
  EXPECT_EQ(recipeForPlan(plan, recipe),
            "the cpu model has no variant 'int2-fp8' (expected int8-fp8, "
            "int4-fp8, int8-fp8-f16acc, int4-fp8-f16acc, nvfp4)");
  plan.variant = "int8-fp8";
  plan.tiles.warpQ = 24;
  EXPECT_EQ(recipeForPlan(plan, recipe),
            "the plan's recipe does not fit the cpu model: expected warp rows "
            "to be a multiple of 16, got 24");
}
