//===- AccumulatorsTest.cpp - MMA accumulator models ----------------------===//

#include "sage/Reference/Accumulators.h"
#include "sage/Reference/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace sage::ref;

TEST(AccumulatorsTest, ChunkDotIsExactForFp8Operands) {
  // 32 products of E4M3 values spanning 2^-18 .. 2^17 sum exactly in double.
  std::vector<float> a(32), b(32);
  double expected = 0.0, expectedEven = 0.0;
  for (int i = 0; i < 32; ++i) {
    a[i] = i % 2 ? 448.0f : std::ldexp(1.0f, -9);
    b[i] = i % 3 ? 416.0f : std::ldexp(3.0f, -9);
    expected += static_cast<double>(a[i]) * b[i];
    if (i % 2 == 0)
      expectedEven += static_cast<double>(a[i]) * b[i];
  }
  EXPECT_EQ(chunkDot(a.data(), 1, b.data(), 1, 32), expected);
  EXPECT_EQ(chunkDot(a.data(), 2, b.data(), 2, 16), expectedEven);
}

TEST(AccumulatorsTest, Fp22TruncatesAfterEachChunk) {
  Fp22Accumulator acc;
  acc.addChunk(1.0);
  acc.addChunk(std::ldexp(1.0, -14)); // below the 13th mantissa bit: lost
  EXPECT_EQ(acc.value, 1.0f);
  acc.addChunk(std::ldexp(1.0, -13)); // exactly the last kept bit
  EXPECT_EQ(acc.value, 1.0f + std::ldexp(1.0f, -13));
  // Truncation is toward zero for negative sums as well.
  Fp22Accumulator neg;
  neg.addChunk(-1.0 - std::ldexp(1.0, -14));
  EXPECT_EQ(neg.value, -1.0f);
}

TEST(AccumulatorsTest, Fp22LosesWhatF32Keeps) {
  // Chunk 1 sums to 1; chunk 2 holds one product 2^-7 * 2^-7 = 2^-14
  // (both E4M3 subnormals): an f32 accumulator keeps it, FP22 drops it.
  std::vector<float> p(64, 0.0f), v(64, 0.0f);
  p[0] = 1.0f;
  v[0] = 1.0f;
  p[40] = std::ldexp(1.0f, -7);
  v[40] = std::ldexp(1.0f, -7);
  ASSERT_EQ(roundToE4M3(p[40]), p[40]);
  EXPECT_EQ(dotFp22(p.data(), 1, v.data(), 1, 64), 1.0f);
  EXPECT_EQ(dotF32(p.data(), 1, v.data(), 1, 64, kFp8MmaK),
            1.0f + std::ldexp(1.0f, -14));
  // Within one chunk the sum is exact before the truncation.
  p[40] = 0.0f;
  p[10] = std::ldexp(1.0f, -7);
  v[10] = std::ldexp(1.0f, -7);
  EXPECT_EQ(dotFp22(p.data(), 1, v.data(), 1, 64), 1.0f);
  // A small running sum keeps full precision.
  EXPECT_EQ(dotFp22(p.data() + 10, 1, v.data() + 10, 1, 32),
            std::ldexp(1.0f, -14));
}

TEST(AccumulatorsTest, F16DelayedBuffering) {
  // Flush every 2: 2048 + 1 rounds in f16 (tie -> 2048) before the flush.
  F16DelayedAccumulator delayed;
  delayed.flushEvery = 2;
  delayed.addChunk(2048.0);
  delayed.addChunk(1.0);
  EXPECT_EQ(delayed.pending, 0);
  EXPECT_EQ(delayed.buffer, 2048.0f);
  EXPECT_EQ(delayed.partial, 0.0f);
  // Flush every MMA: each chunk reaches the f32 buffer on its own.
  F16DelayedAccumulator eager;
  eager.flushEvery = 1;
  eager.addChunk(2048.0);
  eager.addChunk(1.0);
  EXPECT_EQ(eager.buffer, 2049.0f);
  // The chunk itself is rounded to f16 on the way in: 1 + 2^-12 -> 1.
  F16DelayedAccumulator fine;
  fine.addChunk(1.0 + std::ldexp(1.0, -12));
  EXPECT_EQ(fine.partial, 1.0f);
  EXPECT_EQ(fine.pending, 1);
  fine.flush();
  EXPECT_EQ(fine.buffer, 1.0f);
  // Overflow of the f16 accumulator is modeled as inf.
  F16DelayedAccumulator overflow;
  overflow.addChunk(40000.0);
  overflow.addChunk(40000.0);
  EXPECT_EQ(overflow.buffer, std::numeric_limits<float>::infinity());
}

TEST(AccumulatorsTest, F32RoundsOncePerChunk) {
  F32Accumulator acc;
  acc.addChunk(1.0);
  acc.addChunk(std::ldexp(1.0, -24)); // tie with 1: stays 1
  EXPECT_EQ(acc.value, 1.0f);
  acc.addChunk(std::ldexp(1.0, -24) + std::ldexp(1.0, -40));
  EXPECT_EQ(acc.value, 1.0f + std::ldexp(1.0f, -23));
}
