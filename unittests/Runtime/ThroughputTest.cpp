//===- ThroughputTest.cpp - Benchmark arithmetic --------------------------===//

#include "sage/Runtime/Throughput.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace sage::rt;

/// Counts the visible (query, key) pairs one by one: the diagonal ends at
/// the last key (bottom-right) or starts at the first (top-left).
static double countPairs(int64_t seqQ, int64_t seqK, bool topLeft = false) {
  double pairs = 0;
  for (int64_t i = 0; i < seqQ; ++i)
    for (int64_t j = 0; j < seqK; ++j)
      pairs += j <= i + (topLeft ? 0 : seqK - seqQ) ? 1 : 0;
  return pairs;
}

TEST(ThroughputTest, OpsWithoutMask) {
  // 4 * B * H * Nq * Nk * D when Dv == D.
  EXPECT_DOUBLE_EQ(attentionOps(2, 16, 4096, 4096, 128, 128, Causal::None),
                   4.0 * 2 * 16 * 4096 * 4096 * 128);
  EXPECT_DOUBLE_EQ(attentionOps(1, 1, 100, 300, 64, 32, Causal::None),
                   2.0 * 100 * 300 * (64 + 32));
}

TEST(ThroughputTest, CausalHalvesSquareProblems) {
  EXPECT_DOUBLE_EQ(
      attentionOps(2, 16, 4096, 4096, 128, 128, Causal::BottomRight),
      4.0 * 2 * 16 * 4096 * 4096 * 128 / 2);
  EXPECT_DOUBLE_EQ(attentionPairs(7, 7, Causal::BottomRight), 24.5);
}

TEST(ThroughputTest, CausalCountsVisiblePairsExactly) {
  const std::pair<int64_t, int64_t> cases[] = {
      {1, 1000}, {100, 300}, {300, 100}, {64, 65},
      {65, 64},  {1000, 1},  {5, 3},     {3, 5}};
  for (const auto &[seqQ, seqK] : cases)
    EXPECT_DOUBLE_EQ(attentionPairs(seqQ, seqK, Causal::BottomRight),
                     countPairs(seqQ, seqK))
        << "Nq=" << seqQ << " Nk=" << seqK;
  for (const auto &[seqQ, seqK] : cases)
    EXPECT_DOUBLE_EQ(attentionPairs(seqQ, seqK, Causal::TopLeft),
                     countPairs(seqQ, seqK, /*topLeft=*/true))
        << "top-left Nq=" << seqQ << " Nk=" << seqK;
  // Top-left, Nq = 300, Nk = 100: rows 0..99 see 1..100 keys, rows
  // 100..299 all 100.
  EXPECT_DOUBLE_EQ(attentionPairs(300, 100, Causal::TopLeft),
                   5050.0 + 200 * 100);
  // Nq = 300, Nk = 100: rows 200..299 see 1..100 keys.
  EXPECT_DOUBLE_EQ(attentionPairs(300, 100, Causal::BottomRight), 5050.0);
  EXPECT_DOUBLE_EQ(attentionOps(1, 2, 300, 100, 64, 64, Causal::BottomRight),
                   2.0 * 2 * 5050 * 128);
}

TEST(ThroughputTest, TeraOps) {
  // 4 * 2 * 16 * 4096^2 * 128 = 2.749e11 operations in 1 ms = 274.9 TOPS.
  double ops = attentionOps(2, 16, 4096, 4096, 128, 128, Causal::None);
  EXPECT_NEAR(teraOpsPerSecond(ops, 1.0), 274.877906944, 1e-9);
  EXPECT_EQ(teraOpsPerSecond(ops, 0.0), 0.0);
}

TEST(ThroughputTest, Median) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({3.0}), 3.0);
  EXPECT_EQ(median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
}

TEST(ThroughputTest, BufferSets) {
  const size_t mib = size_t(1) << 20;
  const size_t gib = size_t(1) << 30;
  // 4 x 60 MiB = 240 MiB of 10 MiB sets: 24 of them.
  EXPECT_EQ(chooseBufferSets(10 * mib, 50 * mib, 100 * gib), 24);
  // A larger L2 asks for more.
  EXPECT_EQ(chooseBufferSets(10 * mib, 120 * mib, 100 * gib), 48);
  // A set larger than the target is used alone.
  EXPECT_EQ(chooseBufferSets(2 * gib, 60 * mib, 100 * gib), 1);
  // Capped by the maximum and by 80% of the free memory.
  EXPECT_EQ(chooseBufferSets(1024, 60 * mib, 100 * gib), 64);
  EXPECT_EQ(chooseBufferSets(10 * mib, 60 * mib, 50 * mib), 4);
  EXPECT_EQ(chooseBufferSets(10 * mib, 60 * mib, 0), 1);
}
