//===- SmoothingTest.cpp - Outlier smoothing ------------------------------===//

#include "sage/Reference/Smoothing.h"
#include "sage/Reference/Random.h"

#include "gtest/gtest.h"

#include <vector>

using namespace sage::ref;

TEST(SmoothingTest, TokenMean) {
  const float x[] = {1.0f, 10.0f, 3.0f, 20.0f, 5.0f, 60.0f};
  SmoothedTokens s = smoothTokens(x, 3, 2);
  EXPECT_EQ(s.mean, (std::vector<float>{3.0f, 30.0f}));
  EXPECT_EQ(s.values,
            (std::vector<float>{-2.0f, -20.0f, 0.0f, -10.0f, 2.0f, 30.0f}));
  EXPECT_EQ(columnMean(x, 0, 2), (std::vector<float>{0.0f, 0.0f}));
}

TEST(SmoothingTest, MeanSumsChunksThenTheirSums) {
  // Chunks {2^53}, {1, 1}, {-2^53}: one running sum loses each 1 to
  // rounding (2^53 + 1 rounds to 2^53) and ends at 0; the chunks' sums
  // 2^53, 2 and -2^53 add up exactly to 2.
  int64_t rows = 2 * kTokensPerChunk + 1;
  std::vector<float> x(static_cast<size_t>(rows), 0.0f);
  x[0] = 9007199254740992.0f;
  x[kTokensPerChunk] = 1.0f;
  x[kTokensPerChunk + 1] = 1.0f;
  x[2 * kTokensPerChunk] = -9007199254740992.0f;
  float chunked = static_cast<float>(2.0 / static_cast<double>(rows));
  EXPECT_EQ(columnMean(x.data(), rows, 1), (std::vector<float>{chunked}));
}

TEST(SmoothingTest, BlockMeansCoverValidRowsOnly) {
  // Blocks of 2 rows over 3 rows: the last block holds one row.
  const float x[] = {1.0f, 3.0f, 5.0f};
  SmoothedBlocks s = smoothBlocks(x, 3, 1, 2);
  EXPECT_EQ(s.blockMeans, (std::vector<float>{2.0f, 5.0f}));
  EXPECT_EQ(s.values, (std::vector<float>{-1.0f, 1.0f, 0.0f}));
}

TEST(SmoothingTest, CorrectionRestoresScores) {
  // q . k = gamma(q) . gamma(k) + qbar . gamma(k) + q . kbar, where the last
  // term is constant along a row of S (softmax-invariant).
  Rng rng(7);
  const int64_t n = 8, d = 4, block = 4;
  std::vector<float> q = randn(rng, n * d), k = randn(rng, n * d);
  SmoothedTokens gk = smoothTokens(k.data(), n, d);
  SmoothedBlocks gq = smoothBlocks(q.data(), n, d, block);
  std::vector<float> dS =
      smoothingCorrection(gq.blockMeans.data(), 2, gk.values.data(), n, d);
  ASSERT_EQ(dS.size(), 16u);
  for (int64_t i = 0; i < n; ++i) {
    double rowShift = 0.0;
    for (int64_t c = 0; c < d; ++c)
      rowShift += static_cast<double>(q[i * d + c]) * gk.mean[c];
    for (int64_t j = 0; j < n; ++j) {
      double full = 0.0, smoothed = 0.0;
      for (int64_t c = 0; c < d; ++c) {
        full += static_cast<double>(q[i * d + c]) * k[j * d + c];
        smoothed +=
            static_cast<double>(gq.values[i * d + c]) * gk.values[j * d + c];
      }
      EXPECT_NEAR(smoothed + dS[(i / block) * n + j] + rowShift, full, 1e-5);
    }
  }
}
