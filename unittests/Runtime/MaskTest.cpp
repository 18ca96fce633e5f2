//===- MaskTest.cpp - A plan's attention mask on the host -----------------===//

#include "sage/Runtime/Mask.h"

#include "sage/Reference/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace sage::rt;
namespace ref = sage::ref;

// From TestPlans.cpp.
std::string samplePlanText();
std::string rankThreePlanText();
std::string withMask(const std::string &text, const std::string &type,
                     const std::string &shape);

static const float kNegInf = -std::numeric_limits<float>::infinity();

/// Resolves \p text for B, H (= Hkv), Nq, Nk and returns its mask's dims;
/// fails the test if it has none.
static MaskDims dimsOf(const std::string &text, int64_t b, int64_t h,
                       int64_t nq, int64_t nk) {
  LaunchPlan plan;
  EXPECT_EQ(parsePlan(text, plan), "");
  ProblemSizes sizes;
  sizes.batch = b;
  sizes.heads = sizes.headsKV = h;
  sizes.seqQ = nq;
  sizes.seqK = nk;
  SizeBindings bindings;
  ResolvedPlan resolved;
  EXPECT_EQ(bindSizes(plan, sizes, bindings), "");
  EXPECT_EQ(resolvePlan(plan, bindings, resolved), "");
  MaskDims dims;
  EXPECT_TRUE(getMaskDims(plan, resolved, sizes, dims));
  return dims;
}

/// Returns the dims of an unresolved [batch, heads, Nq, Nk] mask.
static MaskDims makeDims(ElementType type, int64_t batch, int64_t heads,
                         int64_t nq, int64_t nk) {
  MaskDims dims;
  dims.type = type;
  dims.shape = {batch, heads, nq, nk};
  dims.batch = batch;
  dims.heads = heads;
  dims.seqQ = nq;
  dims.seqK = nk;
  return dims;
}

TEST(MaskTest, DimsFollowThePlan) {
  MaskDims dims =
      dimsOf(withMask(samplePlanText(), "i1", R"([1, "H", "Nq", "Nk"])"), 2, 4,
             100, 300);
  EXPECT_EQ(dims.type, ElementType::I1);
  EXPECT_EQ(dims.shape, (std::vector<int64_t>{1, 4, 100, 300}));
  EXPECT_EQ(dims.batch, 1);
  EXPECT_EQ(dims.heads, 4);
  EXPECT_EQ(dims.elements(), 4 * 100 * 300);
  // Rank 3: the plan's batch is B * H, one mask per (batch, head).
  dims = dimsOf(withMask(rankThreePlanText(), "bf16", R"(["B", "Nq", "Nk"])"),
                2, 4, 64, 32);
  EXPECT_EQ(dims.shape, (std::vector<int64_t>{8, 64, 32}));
  EXPECT_EQ(dims.batch, 2);
  EXPECT_EQ(dims.heads, 4);
  dims = dimsOf(withMask(rankThreePlanText(), "f32", R"([1, "Nq", "Nk"])"), 2,
                4, 64, 32);
  EXPECT_EQ(dims.batch, 1);
  EXPECT_EQ(dims.heads, 1);
  LaunchPlan plain;
  ASSERT_EQ(parsePlan(samplePlanText(), plain), "");
  EXPECT_FALSE(getMaskDims(plain, ResolvedPlan(), ProblemSizes(), dims));
}

TEST(MaskTest, GeneratedKeepMask) {
  MaskDims dims = makeDims(ElementType::I1, 3, 2, 40, 100);
  ref::MaskData mask = generateMask(dims, 7);
  ASSERT_EQ(mask.bias.size(), size_t(3 * 2 * 40 * 100));
  EXPECT_EQ(mask.batch, 3);
  EXPECT_EQ(mask.heads, 2);
  size_t kept = 0;
  for (int64_t b = 0; b < 3; ++b) {
    // Every row of a batch keeps keys below the same padding length only,
    // at least Nk / 2 long.
    int64_t longest = 0;
    for (int64_t row = b * 2 * 40; row < (b + 1) * 2 * 40; ++row) {
      const float *bias = mask.bias.data() + row * 100;
      bool last = row % 40 == 39;
      for (int64_t j = 0; j < 100; ++j) {
        ASSERT_TRUE(bias[j] == 0.0f || bias[j] == kNegInf);
        if (bias[j] == 0.0f) {
          EXPECT_FALSE(last) << "the last row is masked whole";
          longest = std::max(longest, j + 1);
          ++kept;
        }
      }
    }
    EXPECT_GE(longest, 50);
    EXPECT_LE(longest, 100);
  }
  // 3/4 of a prefix of 1/2 to all of the keys, 39 rows of 40.
  double fraction = static_cast<double>(kept) / mask.bias.size();
  EXPECT_GT(fraction, 0.3);
  EXPECT_LT(fraction, 0.75);
  // The seed alone decides: the same on threads, another with another seed.
  EXPECT_EQ(generateMask(dims, 7, 4).bias, mask.bias);
  EXPECT_NE(generateMask(dims, 8).bias, mask.bias);
}

TEST(MaskTest, GeneratedAdditiveMask) {
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    MaskDims dims = makeDims(type, 1, 3, 16, 64);
    ref::MaskData mask = generateMask(dims, 2, 3);
    size_t masked = 0;
    double sumSquares = 0.0;
    for (size_t n = 0; n < mask.bias.size(); ++n) {
      float bias = mask.bias[n];
      if (n / 64 % 16 == 15) {
        ASSERT_EQ(bias, kNegInf) << "the last row is masked whole";
        continue;
      }
      if (bias == kNegInf) {
        ++masked;
        continue;
      }
      ASSERT_TRUE(std::isfinite(bias));
      ref::ElementFormat format =
          type == ElementType::F16    ? ref::ElementFormat::F16
          : type == ElementType::BF16 ? ref::ElementFormat::BF16
                                      : ref::ElementFormat::F32;
      EXPECT_EQ(ref::roundToFormat(bias, format), bias) << "rounded";
      sumSquares += static_cast<double>(bias) * bias;
    }
    // The rows but the last, 1/5 of them -inf.
    size_t entries = 3 * 15 * 64;
    EXPECT_NEAR(static_cast<double>(masked) / entries, 0.2, 0.05);
    // 2 * randn: a standard deviation of 2.
    EXPECT_NEAR(std::sqrt(sumSquares / (entries - masked)), 2.0, 0.2);
  }
}

TEST(MaskTest, ShortQueriesKeepTheirLastRow) {
  // Fewer than 4 queries: no row is masked whole on purpose.
  ref::MaskData mask =
      generateMask(makeDims(ElementType::F32, 1, 1, 3, 512), 1);
  for (int64_t i = 0; i < 3; ++i) {
    int64_t finite = 0;
    for (int64_t j = 0; j < 512; ++j)
      finite += std::isfinite(mask.bias[i * 512 + j]);
    EXPECT_GT(finite, 300) << i;
  }
}

TEST(MaskTest, EncodesForThePlan) {
  ref::MaskData mask;
  mask.bias = {0.0f, kNegInf, 0.0f, kNegInf};
  std::vector<uint8_t> bytes;
  ASSERT_EQ(encodeMask(mask, ElementType::I1, bytes), "");
  EXPECT_EQ(bytes, (std::vector<uint8_t>{1, 0, 1, 0}));
  mask.bias[3] = -1.5f;
  ASSERT_EQ(encodeMask(mask, ElementType::F16, bytes), "");
  ASSERT_EQ(bytes.size(), 8u);
  uint16_t bits[4];
  std::memcpy(bits, bytes.data(), 8);
  EXPECT_EQ(bits[0], 0x0000);
  EXPECT_EQ(bits[1], 0xFC00);
  EXPECT_EQ(bits[3], 0xBE00);
  ASSERT_EQ(encodeMask(mask, ElementType::BF16, bytes), "");
  std::memcpy(bits, bytes.data(), 8);
  EXPECT_EQ(bits[1], 0xFF80);
  EXPECT_EQ(bits[3], 0xBFC0);
  ASSERT_EQ(encodeMask(mask, ElementType::F32, bytes), "");
  EXPECT_EQ(bytes.size(), 16u);
}

TEST(MaskTest, DecodesFileElements) {
  MaskDims dims = makeDims(ElementType::I1, 1, 1, 2, 2);
  const uint8_t keep[] = {1, 0, 0, 7};
  ref::MaskData mask;
  ASSERT_EQ(decodeMask(keep, ElementType::I1, dims, mask), "");
  EXPECT_EQ(mask.bias, (std::vector<float>{0.0f, kNegInf, kNegInf, 0.0f}));
  // f32 values rounded to the plan's bf16; -inf stays.
  dims.type = ElementType::BF16;
  const float values[] = {0.1f, kNegInf, -3.0f, 1e30f};
  ASSERT_EQ(decodeMask(reinterpret_cast<const uint8_t *>(values),
                       ElementType::F32, dims, mask),
            "");
  EXPECT_EQ(mask.bias[0], ref::roundToBF16(0.1f));
  EXPECT_EQ(mask.bias[1], kNegInf);
  EXPECT_EQ(mask.bias[2], -3.0f);
  EXPECT_EQ(mask.batch, 1);
  // NaN, +inf, and a value that its type rounds to inf are refused.
  dims.type = ElementType::F16;
  EXPECT_EQ(decodeMask(reinterpret_cast<const uint8_t *>(values),
                       ElementType::F32, dims, mask),
            "mask element [0, 0, 1, 1] is 1e+30, inf as f16 (an additive "
            "mask holds finite values or -inf)");
  const float nan[] = {0.0f, 0.0f, std::nanf(""), 0.0f};
  EXPECT_EQ(decodeMask(reinterpret_cast<const uint8_t *>(nan), ElementType::F32,
                       dims, mask),
            "mask element [0, 0, 1, 0] is nan (an additive mask holds finite "
            "values or -inf)");
  const float inf[] = {std::numeric_limits<float>::infinity(), 0.0f, 0.0f,
                       0.0f};
  EXPECT_EQ(decodeMask(reinterpret_cast<const uint8_t *>(inf), ElementType::F32,
                       dims, mask),
            "mask element [0, 0, 0, 0] is inf (an additive mask holds finite "
            "values or -inf)");
}

TEST(MaskTest, Describes) {
  MaskDims dims = makeDims(ElementType::I1, 1, 2, 2, 4);
  ref::MaskData mask;
  mask.bias = {0.0f,    0.0f,    0.0f,    kNegInf, kNegInf, kNegInf,
               kNegInf, kNegInf, 0.0f,    kNegInf, 0.0f,    0.0f,
               kNegInf, kNegInf, kNegInf, kNegInf};
  EXPECT_EQ(describeMask(mask, dims),
            "i1 [1, 2, 2, 4]: keeps 37.5% of the scores, 2 rows masked whole");
}
