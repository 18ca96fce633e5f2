//===- HostMemoryTest.cpp - sage-run's host memory estimate ---------------===//

#include "sage/Runtime/HostMemory.h"

#include "gtest/gtest.h"

using namespace sage::rt;

// From TestPlans.cpp.
std::string samplePlanText();
std::string withMask(const std::string &text, const std::string &type,
                     const std::string &shape);

/// The estimate for \p text at B = 2, H = Hkv = 4, Nq = 100, Nk = 300.
static double estimate(const std::string &text, const HostChecks &checks) {
  LaunchPlan plan;
  EXPECT_EQ(parsePlan(text, plan), "");
  ProblemSizes sizes;
  sizes.batch = 2;
  sizes.heads = sizes.headsKV = 4;
  sizes.seqQ = 100;
  sizes.seqK = 300;
  SizeBindings bindings;
  ResolvedPlan resolved;
  EXPECT_EQ(bindSizes(plan, sizes, bindings), "");
  EXPECT_EQ(resolvePlan(plan, bindings, resolved), "");
  return estimateHostBytes(plan, resolved, sizes, checks);
}

TEST(HostMemoryTest, CountsInputsResultsMaskAndReferences) {
  const double queryRows = 2 * 4 * 100, keyRows = 2 * 4 * 300;
  // f32 Q, K, V, O and LSE, and the largest buffer (K or V in f16).
  const double base = 4 * (queryRows * 128 + keyRows * 256 + queryRows * 129) +
                      2 * keyRows * 128;
  EXPECT_DOUBLE_EQ(estimate(samplePlanText(), {}), base);
  // FP64 rows and model rows, every row or the sample.
  EXPECT_DOUBLE_EQ(estimate(samplePlanText(), {true, true, 0}),
                   base + 12 * queryRows * 129);
  EXPECT_DOUBLE_EQ(estimate(samplePlanText(), {true, false, 16}),
                   base + 8 * 16 * 129);
  // The mask as f32 on the host, broadcast over heads.
  std::string masked =
      withMask(samplePlanText(), "i1", R"(["B", 1, "Nq", "Nk"])");
  EXPECT_DOUBLE_EQ(estimate(masked, {}), base + 4.0 * 2 * 100 * 300);
}

TEST(HostMemoryTest, RefusesWithBothNumbers) {
  EXPECT_EQ(checkHostMemory(1e9, 2000000000ull), "");
  std::string error = checkHostMemory(3.0 * (1ull << 30), 1ull << 30);
  EXPECT_NE(error.find("needs about 3.0 GiB"), std::string::npos) << error;
  EXPECT_NE(error.find("but 1.0 GiB is available"), std::string::npos) << error;
  EXPECT_NE(error.find("--sample-rows"), std::string::npos) << error;
}

TEST(HostMemoryTest, ReadsTheAvailableMemory) {
  // Linux has /proc/meminfo; the value is positive where it exists.
  if (std::optional<uint64_t> available = getAvailableHostBytes()) {
    EXPECT_GT(*available, 0u);
  }
}
