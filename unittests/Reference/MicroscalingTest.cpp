//===- MicroscalingTest.cpp - NVFP4 block quantization --------------------===//

#include "sage/Reference/Microscaling.h"
#include "sage/Reference/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace sage::ref;

TEST(MicroscalingTest, BlockScaleIsE4M3OfMaxOverSix) {
  EXPECT_EQ(nvfp4BlockScale(6.0f), 1.0f);
  EXPECT_EQ(nvfp4BlockScale(12.0f), 2.0f);
  // 1/6 = 10.67 quanta of 2^-6 in its binade: rounds to 11/64.
  EXPECT_EQ(nvfp4BlockScale(1.0f), 0.171875f);
  // Beyond 448 * 6 the scale saturates.
  EXPECT_EQ(nvfp4BlockScale(1e6f), 448.0f);
  EXPECT_EQ(nvfp4BlockScale(0.0f), 0.0f);
  EXPECT_EQ(quantizeNvFp4Element(3.0f, 0.0f), 0.0f);
  // 1 / (11/64) = 5.82 rounds to 6, so the block max comes back as 1.03125.
  EXPECT_EQ(quantizeNvFp4Element(1.0f, 0.171875f), 6.0f);
}

TEST(MicroscalingTest, AlongColsUsesOneScalePerSixteen) {
  // Two rows of 20 columns: blocks [0, 16) and the partial [16, 20).
  std::vector<float> x(40, 0.0f);
  for (int c = 0; c < 16; ++c)
    x[c] = 0.75f * static_cast<float>(c % 9); // max 6: scale 1
  x[16] = -12.0f;                             // partial block: scale 2
  x[17] = 5.0f;                               // 2.5 -> 2 -> 4
  NvFp4Matrix q = quantizeNvFp4(x.data(), 2, 20, MicroscaleAxis::AlongCols);
  ASSERT_EQ(q.scales.size(), 4u);
  EXPECT_EQ(q.scales[0], 1.0f);
  EXPECT_EQ(q.scales[1], 2.0f);
  EXPECT_EQ(q.scales[2], 0.0f);
  EXPECT_EQ(q.scales[3], 0.0f);
  EXPECT_EQ(q.dequantized(0, 2), 1.5f); // 1.5 exact
  EXPECT_EQ(q.dequantized(0, 3), 2.0f); // 2.25 -> 2
  EXPECT_EQ(q.dequantized(0, 5), 4.0f); // 3.75 -> 4
  EXPECT_EQ(q.dequantized(0, 16), -12.0f);
  EXPECT_EQ(q.dequantized(0, 17), 4.0f);
  EXPECT_EQ(q.dequantized(1, 7), 0.0f);
  for (float e : q.elements)
    EXPECT_EQ(roundToE2M1(e), e);
}

// The kernels feed P V's 64-key chunks in the accumulator order: each
// block holds keys 32h + 8j + 4c + {0..3} of a chunk (docs/Layouts.md).
TEST(MicroscalingTest, MmaOrderBlocksInterleaveKeys) {
  EXPECT_EQ(nvfp4KeyBlock(0), 0);
  EXPECT_EQ(nvfp4KeyBlock(3), 0);
  EXPECT_EQ(nvfp4KeyBlock(4), 1);
  EXPECT_EQ(nvfp4KeyBlock(8), 0);
  EXPECT_EQ(nvfp4KeyBlock(28), 1);
  EXPECT_EQ(nvfp4KeyBlock(32), 2);
  EXPECT_EQ(nvfp4KeyBlock(63), 3);
  EXPECT_EQ(nvfp4KeyBlock(64), 4);
  // The kernels' V layout (#sage.mma_packed<along = tokens, k = 64, order
  // = accumulator>, docs/Layouts.md) feeds key 32h + 8(i/2) + 2t + i%2 at
  // MMA position 32h + 8t + i; the MMA scales positions 16b .. 16b + 15 by
  // scale b. The model's blocks must be those.
  for (int h = 0; h < 2; ++h)
    for (int t = 0; t < 4; ++t)
      for (int i = 0; i < 8; ++i) {
        int position = 32 * h + 8 * t + i;
        int key = 32 * h + 8 * (i / 2) + 2 * t + i % 2;
        EXPECT_EQ(nvfp4KeyBlock(key), position / 16) << "key " << key;
        EXPECT_EQ(nvfp4KeyBlock(64 + key), 4 + position / 16);
      }
  // Each block of a chunk has 16 keys.
  std::vector<int> members(4, 0);
  for (int key = 0; key < 64; ++key)
    ++members[nvfp4KeyBlock(key)];
  EXPECT_EQ(members, std::vector<int>(4, 16));
  // 70 tokens of one channel, token t = t: the block of keys 4..7,
  // 12..15, ..., 28..31 has max 31; the partial chunk's key 69 its own.
  std::vector<float> x(70);
  for (int t = 0; t < 70; ++t)
    x[t] = static_cast<float>(t);
  NvFp4Matrix q =
      quantizeNvFp4(x.data(), 70, 1, MicroscaleAxis::AlongRowsMmaOrder);
  ASSERT_EQ(q.scales.size(), 8u);
  EXPECT_EQ(q.scaleAt(4, 0), roundToE4M3(31.0f / 6.0f));
  EXPECT_EQ(q.scaleAt(27, 0), roundToE4M3(27.0f / 6.0f));
  EXPECT_EQ(q.scaleAt(69, 0), roundToE4M3(69.0f / 6.0f));
  EXPECT_EQ(q.scaleAt(64, 0), roundToE4M3(67.0f / 6.0f));
}

TEST(MicroscalingTest, AlongRowsBlocksTokens) {
  // 32 tokens x 2 channels: channel 0 grows with the token, channel 1 is 1.
  std::vector<float> x(64);
  for (int t = 0; t < 32; ++t) {
    x[t * 2] = static_cast<float>(t);
    x[t * 2 + 1] = 1.0f;
  }
  NvFp4Matrix q = quantizeNvFp4(x.data(), 32, 2, MicroscaleAxis::AlongRows);
  ASSERT_EQ(q.scales.size(), 4u);
  // Tokens 0..15 of channel 0: max 15 -> 2.5; tokens 16..31: 31/6 -> 5.
  EXPECT_EQ(q.scaleAt(0, 0), 2.5f);
  EXPECT_EQ(q.scaleAt(16, 0), 5.0f);
  EXPECT_EQ(q.scaleAt(3, 1), roundToE4M3(1.0f / 6.0f));
  EXPECT_EQ(q.dequantized(15, 0), 15.0f);
  EXPECT_EQ(q.dequantized(31, 0), 30.0f);
  std::vector<float> all = q.dequantizedAll();
  EXPECT_EQ(all[31 * 2], 30.0f);
}
