//===- QuantizeTest.cpp - Quantization groups and integer quantizer -------===//

#include "sage/Reference/Quantize.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <vector>

using namespace sage::ref;

/// Returns the members (tokens) of each group over \p tokens tokens.
static std::map<int64_t, std::vector<int64_t>>
membersByGroup(const GroupLayout &layout, int64_t tokens) {
  std::map<int64_t, std::vector<int64_t>> groups;
  for (int64_t t = 0; t < tokens; ++t)
    groups[groupOf(layout, t, 0, 64)].push_back(t);
  return groups;
}

TEST(QuantizeTest, PerThreadA) {
  GroupLayout layout{Granularity::PerThread, OperandRole::A, 128, 32, 16};
  // 8 groups per warp segment, 4 warps per 128-row block: 32 per block.
  EXPECT_EQ(numGroups(layout, 128, 64), 32);
  EXPECT_EQ(numGroups(layout, 256, 64), 64);
  EXPECT_EQ(numGroups(layout, 129, 64), 64);
  auto groups = membersByGroup(layout, 128);
  EXPECT_EQ(groups.size(), 32u);
  for (auto &[group, rows] : groups) {
    // Each group: the 4 rows of one warp with the same r mod 8.
    ASSERT_EQ(rows.size(), 4u);
    for (int64_t r : rows) {
      EXPECT_EQ(r / 32, rows[0] / 32);
      EXPECT_EQ(r % 8, rows[0] % 8);
    }
  }
  EXPECT_EQ(groupOf(layout, 0, 0, 64), 0);
  EXPECT_EQ(groupOf(layout, 8, 0, 64), 0);
  EXPECT_EQ(groupOf(layout, 24, 63, 64), 0);
  EXPECT_EQ(groupOf(layout, 5, 0, 64), 5);
  EXPECT_EQ(groupOf(layout, 32, 0, 64), 8);
  EXPECT_EQ(groupOf(layout, 127, 0, 64), 31);
  EXPECT_EQ(groupOf(layout, 128, 0, 64), 32);
  EXPECT_EQ(groupOf(layout, 128 + 33, 0, 64), 32 + 9);
}

TEST(QuantizeTest, PerThreadB) {
  GroupLayout layout{Granularity::PerThread, OperandRole::B, 64, 32, 16};
  // 4 groups per K block: tokens 8k+2t and 8k+2t+1 share one.
  EXPECT_EQ(numGroups(layout, 64, 128), 4);
  EXPECT_EQ(numGroups(layout, 65, 128), 8);
  auto groups = membersByGroup(layout, 64);
  EXPECT_EQ(groups.size(), 4u);
  for (auto &[group, tokens] : groups) {
    ASSERT_EQ(tokens.size(), 16u);
    for (int64_t n : tokens)
      EXPECT_EQ((n % 8) / 2, group);
  }
  for (int64_t n : {0, 1, 8, 9, 16, 17, 56, 57})
    EXPECT_EQ(groupOf(layout, n, 0, 128), 0) << n;
  for (int64_t n : {6, 7, 14, 15, 63})
    EXPECT_EQ(groupOf(layout, n, 0, 128), 3) << n;
  EXPECT_EQ(groupOf(layout, 64, 0, 128), 4);
  EXPECT_EQ(groupOf(layout, 64 + 10, 0, 128), 5);
}

TEST(QuantizeTest, PerWarpAndPerBlock) {
  GroupLayout warpA{Granularity::PerWarp, OperandRole::A, 128, 32, 16};
  EXPECT_EQ(numGroups(warpA, 256, 64), 8);
  EXPECT_EQ(groupOf(warpA, 31, 0, 64), 0);
  EXPECT_EQ(groupOf(warpA, 32, 0, 64), 1);
  EXPECT_EQ(groupOf(warpA, 130, 0, 64), 4);
  // B operands are read whole by each warp: per_warp is per block there.
  GroupLayout warpB{Granularity::PerWarp, OperandRole::B, 64, 32, 16};
  EXPECT_EQ(numGroups(warpB, 128, 64), 2);
  EXPECT_EQ(groupOf(warpB, 63, 0, 64), 0);
  EXPECT_EQ(groupOf(warpB, 64, 0, 64), 1);
  GroupLayout blockA{Granularity::PerBlock, OperandRole::A, 128, 32, 16};
  EXPECT_EQ(numGroups(blockA, 300, 64), 3);
  EXPECT_EQ(groupOf(blockA, 127, 5, 64), 0);
  EXPECT_EQ(groupOf(blockA, 128, 5, 64), 1);
  GroupLayout blockB{Granularity::PerBlock, OperandRole::B, 64, 32, 16};
  EXPECT_EQ(groupOf(blockB, 127, 5, 64), 1);
}

TEST(QuantizeTest, TokenTensorChannelMicroscale) {
  GroupLayout token{Granularity::PerToken, OperandRole::A, 128, 32, 16};
  EXPECT_EQ(numGroups(token, 77, 64), 77);
  EXPECT_EQ(groupOf(token, 76, 3, 64), 76);
  GroupLayout tensor{Granularity::PerTensor, OperandRole::B, 64, 32, 16};
  EXPECT_EQ(numGroups(tensor, 77, 64), 1);
  EXPECT_EQ(groupOf(tensor, 76, 3, 64), 0);
  GroupLayout channel{Granularity::PerChannel, OperandRole::B, 64, 32, 16};
  EXPECT_EQ(numGroups(channel, 77, 64), 64);
  EXPECT_EQ(groupOf(channel, 76, 3, 64), 3);
  GroupLayout micro{Granularity::Microscale, OperandRole::A, 128, 32, 16};
  EXPECT_EQ(numGroups(micro, 3, 40), 9);
  EXPECT_EQ(groupOf(micro, 2, 33, 40), 8);
  EXPECT_EQ(groupOf(micro, 1, 15, 40), 3);
}

TEST(QuantizeTest, IntRounding) {
  // Half cases round to even, as cvt.rni does.
  EXPECT_EQ(quantizeToInt(0.5f, 1.0f, kInt8Max), 0);
  EXPECT_EQ(quantizeToInt(1.5f, 1.0f, kInt8Max), 2);
  EXPECT_EQ(quantizeToInt(2.5f, 1.0f, kInt8Max), 2);
  EXPECT_EQ(quantizeToInt(-2.5f, 1.0f, kInt8Max), -2);
  EXPECT_EQ(quantizeToInt(-3.5f, 1.0f, kInt8Max), -4);
  EXPECT_EQ(quantizeToInt(126.5f, 1.0f, kInt8Max), 126);
  EXPECT_EQ(quantizeToInt(127.5f, 1.0f, kInt8Max), 127);
  EXPECT_EQ(quantizeToInt(-1000.0f, 1.0f, kInt8Max), -127);
  EXPECT_EQ(quantizeToInt(6.5f, 1.0f, kInt4Max), 6);
  EXPECT_EQ(quantizeToInt(7.5f, 1.0f, kInt4Max), 7);
  EXPECT_EQ(quantizeToInt(-9.0f, 1.0f, kInt4Max), -7);
  EXPECT_EQ(quantizeToInt(3.0f, 0.5f, kInt8Max), 6);
  EXPECT_EQ(quantizeToInt(3.0f, 0.0f, kInt8Max), 0);
  EXPECT_FLOAT_EQ(symmetricScale(254.0f, kInt8Max), 2.0f);
}

TEST(QuantizeTest, NonFiniteValuesPoisonTheScale) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // The abs-max keeps a NaN from either side, as max.NaN.f32 does.
  EXPECT_TRUE(std::isnan(absMaxStep(2.0f, nan)));
  EXPECT_TRUE(std::isnan(absMaxStep(nan, 2.0f)));
  EXPECT_EQ(absMaxStep(2.0f, -inf), inf);
  EXPECT_EQ(absMaxStep(2.0f, -3.0f), 3.0f);
  // cvt.rni of a NaN quotient is 0: a NaN value or scale quantizes to 0.
  EXPECT_EQ(quantizeToInt(nan, 1.0f, kInt8Max), 0);
  EXPECT_EQ(quantizeToInt(1.0f, nan, kInt8Max), 0);
  EXPECT_EQ(quantizeToInt(inf, inf, kInt8Max), 0);
  EXPECT_EQ(quantizeToInt(inf, 1.0f, kInt8Max), 127);
  // A group holding a NaN gets a NaN scale.
  std::vector<float> x(64 * 16, 1.0f);
  x[5 * 16 + 3] = nan;
  // Per-thread A groups of 64-row blocks, 16 rows per warp: rows 5 and 13
  // share a scale.
  GroupLayout layout{Granularity::PerThread, OperandRole::A, 64, 16, 16};
  IntQuantized q = quantizeInt(x.data(), 64, 16, kInt8Max, layout);
  EXPECT_TRUE(std::isnan(q.scaleAt(5, 0)));
  EXPECT_TRUE(std::isnan(q.scaleAt(13, 0)));
  EXPECT_FALSE(std::isnan(q.scaleAt(6, 0)));
}

TEST(QuantizeTest, ZeroGroupGivesZeros) {
  std::vector<float> x(64 * 16, 0.0f);
  // Only token 3 is nonzero: every other per-token group is all zeros.
  x[3 * 16 + 2] = -5.0f;
  GroupLayout layout{Granularity::PerToken, OperandRole::A, 64, 32, 16};
  IntQuantized q = quantizeInt(x.data(), 64, 16, kInt4Max, layout);
  for (int64_t t = 0; t < 64; ++t) {
    EXPECT_FALSE(std::isnan(q.scales[t]));
    EXPECT_EQ(q.scales[t], t == 3 ? 5.0f / 7.0f : 0.0f);
  }
  for (int64_t i = 0; i < 64 * 16; ++i)
    EXPECT_EQ(q.values[i], i == 3 * 16 + 2 ? -7 : 0);
  EXPECT_FLOAT_EQ(q.dequantized(3, 2), -5.0f);
}

TEST(QuantizeTest, PerThreadScalesFollowGroups) {
  // A 128 x 8 Q block, all ones except one large value in row 5.
  std::vector<float> x(128 * 8, 1.0f);
  x[5 * 8 + 1] = 127.0f;
  GroupLayout layout{Granularity::PerThread, OperandRole::A, 128, 32, 16};
  IntQuantized q = quantizeInt(x.data(), 128, 8, kInt8Max, layout);
  ASSERT_EQ(q.scales.size(), 32u);
  // Rows 5, 13, 21, 29 (warp 0, r mod 8 = 5) share the large scale.
  for (int64_t r : {5, 13, 21, 29})
    EXPECT_EQ(q.scaleAt(r, 0), 1.0f) << r;
  for (int64_t r : {4, 6, 37, 69})
    EXPECT_EQ(q.scaleAt(r, 0), 1.0f / 127.0f) << r;
  EXPECT_EQ(q.values[13 * 8], 1);
  EXPECT_EQ(q.values[6 * 8], 127);
  std::set<int8_t> distinct(q.values.begin(), q.values.end());
  EXPECT_EQ(distinct, (std::set<int8_t>{1, 127}));
}
