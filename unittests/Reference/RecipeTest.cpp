//===- RecipeTest.cpp - Recipe presets and validation ---------------------===//

#include "sage/Reference/Recipe.h"

#include "gtest/gtest.h"

using namespace sage::ref;

TEST(RecipeTest, Presets) {
  for (std::string_view name : kVariantNames) {
    std::optional<Recipe> recipe = recipeFromVariantName(name);
    ASSERT_TRUE(recipe.has_value()) << name;
    EXPECT_EQ(validateRecipe(*recipe), "") << name;
  }
  EXPECT_FALSE(recipeFromVariantName("int8-fp16-fp32").has_value());

  // int8-fp16 (sm_80): INT8 Q/K as int8-fp8, P and V rounded to f16.
  Recipe fp16 = *recipeFromVariantName("int8-fp16");
  EXPECT_EQ(fp16.qkFormat, QKFormat::Int8);
  EXPECT_EQ(fp16.pvFormat, PVFormat::Fp16);
  EXPECT_EQ(fp16.pRange, 1.0f);
  EXPECT_EQ(fp16.accumulator, PVAccumulator::F32PerBlock);
  // ... and with the f16 accumulator, V scaled per channel so that 32
  // products between flushes fit f16.
  Recipe fp16acc = *recipeFromVariantName("int8-fp16-f16acc");
  EXPECT_EQ(fp16acc.pvFormat, PVFormat::Fp16);
  EXPECT_EQ(fp16acc.vRange, 1023.0f);
  EXPECT_EQ(fp16acc.accumulator, PVAccumulator::F16Delayed);
  fp16acc.vRange = 4096.0f;
  EXPECT_EQ(validateRecipe(fp16acc),
            "expected 16 * flush interval * p range * v range <= 65504, got "
            "131072");

  Recipe int8 = *recipeFromVariantName("int8-fp8");
  EXPECT_EQ(int8.qkFormat, QKFormat::Int8);
  EXPECT_EQ(int8.granularity, Granularity::PerThread);
  EXPECT_TRUE(int8.smoothQ && int8.smoothK && !int8.smoothV);
  EXPECT_EQ(int8.pvFormat, PVFormat::E4M3);
  EXPECT_EQ(int8.pRange, 448.0f);
  EXPECT_EQ(int8.vRange, 448.0f);
  EXPECT_EQ(int8.accumulator, PVAccumulator::F32PerBlock);
  EXPECT_EQ(int8.blockQ, 128);
  EXPECT_EQ(int8.warpRows, 32);
  EXPECT_EQ(int8.blockK, 64);

  EXPECT_EQ(recipeFromVariantName("int4-fp8")->qkFormat, QKFormat::Int4);
  Recipe f16 = *recipeFromVariantName("int4-fp8-f16acc");
  EXPECT_EQ(f16.qkFormat, QKFormat::Int4);
  EXPECT_EQ(f16.pRange, 224.0f);
  EXPECT_EQ(f16.vRange, 4.5f);
  EXPECT_EQ(f16.accumulator, PVAccumulator::F16Delayed);
  EXPECT_EQ(f16.f16FlushEvery, 2);
  EXPECT_EQ(recipeFromVariantName("int8-fp8-f16acc")->qkFormat, QKFormat::Int8);

  Recipe fp4 = *recipeFromVariantName("nvfp4");
  EXPECT_EQ(fp4.qkFormat, QKFormat::NvFp4);
  EXPECT_EQ(fp4.pvFormat, PVFormat::NvFp4);
  EXPECT_TRUE(fp4.smoothK);
  EXPECT_FALSE(fp4.smoothQ);
}

TEST(RecipeTest, Validation) {
  Recipe r = *recipeFromVariantName("int8-fp8-f16acc");
  // 32 * 3 * 224 * 4.5 = 96768 overflows f16 between flushes.
  r.f16FlushEvery = 3;
  EXPECT_EQ(validateRecipe(r), "expected 32 * flush interval * p range * v "
                               "range <= 65504, got 96768");
  r = *recipeFromVariantName("int8-fp8");
  r.accumulator = PVAccumulator::F16Delayed;
  EXPECT_NE(validateRecipe(r), ""); // 448 * 448 overflows f16
  r = *recipeFromVariantName("int8-fp8");
  r.pRange = 500.0f;
  EXPECT_EQ(validateRecipe(r),
            "expected p range in (0, 448] for e4m3, got 500");
  r = *recipeFromVariantName("int8-fp8");
  r.blockK = 48;
  EXPECT_EQ(validateRecipe(r),
            "expected block k to be a multiple of 32 for e4m3 pv, got 48");
  r = *recipeFromVariantName("int8-fp8");
  r.granularity = Granularity::PerChannel;
  EXPECT_NE(validateRecipe(r), "");
  r = *recipeFromVariantName("int8-fp8");
  r.blockQ = 96;
  r.warpRows = 64;
  EXPECT_NE(validateRecipe(r), "");
  r = *recipeFromVariantName("int8-fp8");
  r.pvFormat = PVFormat::Int8;
  r.pRange = r.vRange = defaultRange(PVFormat::Int8);
  EXPECT_EQ(validateRecipe(r), "");
  r.accumulator = PVAccumulator::F16Delayed;
  EXPECT_EQ(validateRecipe(r),
            "the f16 accumulator needs fp8 or f16 p and v, got int8");
}

TEST(RecipeTest, Names) {
  EXPECT_STREQ(toString(Granularity::PerThread), "per_thread");
  EXPECT_STREQ(toString(Granularity::Microscale), "microscale");
  EXPECT_STREQ(toString(QKFormat::Int4), "int4");
  EXPECT_STREQ(toString(PVFormat::E5M2), "e5m2");
  EXPECT_EQ(defaultRange(PVFormat::E5M2), 57344.0f);
}
