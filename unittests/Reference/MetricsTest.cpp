//===- MetricsTest.cpp - Accuracy metrics ---------------------------------===//

#include "sage/Reference/Metrics.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace sage::ref;

TEST(MetricsTest, HandComputed) {
  std::vector<double> ref = {1.0, -2.0, 2.0};
  std::vector<float> out = {1.0f, -2.0f, 3.0f};
  AccuracyMetrics m = compareOutputs(out, ref);
  // <o, r> = 1 + 4 + 6 = 11; |o| = sqrt(14); |r| = 3.
  EXPECT_DOUBLE_EQ(m.cosSim, 11.0 / (std::sqrt(14.0) * 3.0));
  EXPECT_DOUBLE_EQ(m.relL1, 1.0 / 5.0);
  EXPECT_DOUBLE_EQ(m.rmse, std::sqrt(1.0 / 3.0));
  EXPECT_DOUBLE_EQ(m.maxAbsError, 1.0);
  EXPECT_EQ(m.nonFinite, 0u);
}

TEST(MetricsTest, IdenticalAndDegenerate) {
  std::vector<double> ref = {0.5, 0.25};
  AccuracyMetrics same = compareOutputs(ref, ref);
  EXPECT_DOUBLE_EQ(same.cosSim, 1.0);
  EXPECT_EQ(same.relL1, 0.0);
  EXPECT_EQ(same.rmse, 0.0);
  std::vector<double> zeros = {0.0, 0.0};
  EXPECT_EQ(compareOutputs(zeros, zeros).cosSim, 1.0);
  EXPECT_EQ(compareOutputs(zeros, ref).cosSim, 0.0);
  std::vector<float> withNaN = {std::numeric_limits<float>::quiet_NaN(), 0.25f};
  EXPECT_EQ(compareOutputs(withNaN, ref).nonFinite, 1u);
  // Where the reference is non-finite: counted, left out of the metrics,
  // and a finite output there is counted apart.
  std::vector<double> refNaN = {std::numeric_limits<double>::quiet_NaN(), 0.25,
                                std::numeric_limits<double>::infinity()};
  std::vector<float> out = {std::numeric_limits<float>::quiet_NaN(), 0.25f,
                            7.0f};
  AccuracyMetrics partial = compareOutputs(out, refNaN);
  EXPECT_EQ(partial.nonFinite, 1u);
  EXPECT_EQ(partial.referenceNonFinite, 2u);
  EXPECT_EQ(partial.finiteWhereReferenceIsNot, 1u);
  EXPECT_DOUBLE_EQ(partial.cosSim, 1.0);
  EXPECT_EQ(partial.relL1, 0.0);
  std::vector<float> shorter = {0.5f};
  EXPECT_EQ(compareOutputs(shorter, ref).nonFinite, 2u);
}
