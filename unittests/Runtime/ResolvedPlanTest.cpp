//===- ResolvedPlanTest.cpp - Plans evaluated for given sizes -------------===//

#include "sage/Runtime/ResolvedPlan.h"

#include "gtest/gtest.h"

using namespace sage::rt;

// From TestPlans.cpp.
std::string samplePlanText();
std::string replaceOnce(const std::string &text, const std::string &from,
                        const std::string &to);
std::string rankThreePlanText();

/// Parses \p text; fails the test on error.
static LaunchPlan parse(const std::string &text) {
  LaunchPlan plan;
  EXPECT_EQ(parsePlan(text, plan), "");
  return plan;
}

static ProblemSizes sizes(int64_t b, int64_t h, int64_t hkv, int64_t nq,
                          int64_t nk) {
  ProblemSizes s;
  s.batch = b;
  s.heads = h;
  s.headsKV = hkv;
  s.seqQ = nq;
  s.seqK = nk;
  return s;
}

/// Binds and resolves \p problem for \p plan; returns the error.
static std::string resolve(const LaunchPlan &plan, const ProblemSizes &problem,
                           ResolvedPlan &resolved) {
  SizeBindings bindings;
  std::string error = bindSizes(plan, problem, bindings);
  if (!error.empty())
    return error;
  return resolvePlan(plan, bindings, resolved);
}

TEST(ResolvedPlanTest, EvaluatesBuffersAndLaunches) {
  LaunchPlan plan = parse(samplePlanText());
  ResolvedPlan resolved;
  ASSERT_EQ(resolve(plan, sizes(2, 8, 2, 100, 300), resolved), "");
  ASSERT_EQ(resolved.buffers.size(), 5u);
  EXPECT_EQ(resolved.buffers[0].shape, (std::vector<int64_t>{2, 8, 100, 128}));
  EXPECT_EQ(resolved.buffers[0].bytes, 2u * 8 * 100 * 128 * 2);
  EXPECT_EQ(resolved.buffers[1].shape, (std::vector<int64_t>{2, 2, 300, 128}));
  EXPECT_EQ(resolved.buffers[3].elements, 2 * 2 * 128);
  EXPECT_EQ(resolved.buffers[3].bytes, 2u * 2 * 128 * 4);
  ASSERT_EQ(resolved.launches.size(), 2u);
  const ResolvedLaunch &quantize = resolved.launches[0];
  EXPECT_EQ(quantize.grid, (std::array<uint32_t, 3>{5, 2, 2}));
  EXPECT_EQ(quantize.block, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_FALSE(quantize.skipped);
  EXPECT_FALSE(quantize.isAttention);
  ASSERT_EQ(quantize.params.size(), 3u);
  EXPECT_EQ(quantize.params[1].buffer, 3);
  EXPECT_EQ(quantize.params[2].value, 300);
  const ResolvedLaunch &attention = resolved.launches[1];
  EXPECT_TRUE(attention.isAttention);
  EXPECT_EQ(attention.grid, (std::array<uint32_t, 3>{2, 8, 2}));
  EXPECT_EQ(attention.sharedBytes, 65536u);
  EXPECT_EQ(attention.params[5].value, 100);
  // Every buffer rounded up to 256 bytes.
  size_t expected = 0;
  for (const ResolvedBuffer &buffer : resolved.buffers)
    expected += (buffer.bytes + 255) / 256 * 256;
  EXPECT_EQ(resolved.totalBytes(), expected);
}

TEST(ResolvedPlanTest, SizeChecks) {
  LaunchPlan plan = parse(samplePlanText());
  SizeBindings bindings;
  EXPECT_EQ(bindSizes(plan, sizes(1, 6, 4, 128, 128), bindings),
            "--H 6 is not a multiple of --Hkv 4 (each key/value head serves "
            "H/Hkv query heads)");
  EXPECT_EQ(bindSizes(plan, sizes(1, 1, 1, 0, 128), bindings),
            "--Nq must be positive, got 0");
  ProblemSizes wrongDim = sizes(1, 1, 1, 128, 128);
  wrongDim.headDim = 64;
  EXPECT_EQ(bindSizes(plan, wrongDim, bindings),
            "--D 64 does not match the plan's head_dim 128");
  wrongDim.headDim = 128;
  EXPECT_EQ(bindSizes(plan, wrongDim, bindings), "");
}

// The kernels take i32 sizes and index in 32 bits all but element offsets
// (docs/LaunchPlan.md): sizes whose products would wrap are refused by
// option, before any buffer is evaluated.
TEST(ResolvedPlanTest, IndexLimits) {
  LaunchPlan plan = parse(samplePlanText());
  SizeBindings bindings;
  // Blocks of 256 (the statistics kernels' chunks, larger than the tiles of
  // 64): 2147483647 rounded down to a block, less two blocks.
  EXPECT_EQ(bindSizes(plan, sizes(1, 1, 1, 2147482880, 1), bindings), "");
  EXPECT_EQ(bindSizes(plan, sizes(1, 1, 1, 2147482881, 1), bindings),
            "--Nq 2147482881 exceeds 2147482880, the most tokens the kernels "
            "index in 32 bits (2147483647 less two 256-token blocks of "
            "padding)");
  EXPECT_EQ(bindSizes(plan, sizes(1, 1, 1, 1, INT64_MAX), bindings),
            "--Nk 9223372036854775807 exceeds 2147482880, the most tokens the "
            "kernels index in 32 bits (2147483647 less two 256-token blocks of "
            "padding)");
  // B * H * head_dim: 65536 * 256 * 128 = 2^31.
  EXPECT_EQ(bindSizes(plan, sizes(65535, 256, 256, 1, 1), bindings), "");
  EXPECT_EQ(bindSizes(plan, sizes(65536, 256, 256, 1, 1), bindings),
            "--B 65536 * --H 256 * head_dim 128 exceeds 2147483647, the most "
            "(batch, head, feature) offsets the kernels index in 32 bits");
  // A product over 64 bits is caught too.
  EXPECT_EQ(bindSizes(plan, sizes(INT64_MAX, INT64_MAX, 1, 1, 1), bindings),
            "--B 9223372036854775807 * --H 9223372036854775807 * head_dim 128 "
            "exceeds 2147483647, the most (batch, head, feature) offsets the "
            "kernels index in 32 bits");
  // With tokens before heads, (batch, token) is an i32 row as well.
  LaunchPlan bthd = parse(samplePlanText());
  bthd.layout = {DimRole::Batch, DimRole::Tokens, DimRole::Heads,
                 DimRole::Features};
  EXPECT_EQ(bindSizes(plan, sizes(2, 1, 1, 1, 1073741824), bindings), "");
  EXPECT_EQ(bindSizes(bthd, sizes(2, 1, 1, 1, 1073741823), bindings), "");
  EXPECT_EQ(bindSizes(bthd, sizes(2, 1, 1, 1, 1073741824), bindings),
            "--B 2 * --Nk 1073741824 exceeds 2147483647, the most (batch, "
            "token) rows the kernels index in 32 bits with the layout [batch, "
            "tokens, heads, features]");
}

TEST(ResolvedPlanTest, RankThreeFoldsHeadsIntoTheBatch) {
  std::string text = rankThreePlanText();
  LaunchPlan plan = parse(text);
  SizeBindings bindings;
  EXPECT_EQ(bindSizes(plan, sizes(2, 8, 2, 64, 64), bindings),
            "the plan's layout [batch, tokens, features] has no heads: --H 8 "
            "and --Hkv 2 must be equal (heads fold into the batch)");
  ASSERT_EQ(bindSizes(plan, sizes(2, 8, 8, 64, 64), bindings), "");
  EXPECT_EQ(bindings.batch, 16);
  EXPECT_EQ(bindings.heads, 1);
  EXPECT_EQ(bindings.headsKV, 1);
  ResolvedPlan resolved;
  ASSERT_EQ(resolvePlan(plan, bindings, resolved), "");
  EXPECT_EQ(resolved.buffers[0].shape, (std::vector<int64_t>{16, 64, 128}));
}

TEST(ResolvedPlanTest, ShapeMismatch) {
  LaunchPlan plan = parse(replaceOnce(samplePlanText(),
                                      R"("k", "kind": "input", "type": "f16",
     "shape": ["B", "Hkv", "Nk", 128])",
                                      R"("k", "kind": "input", "type": "f16",
     "shape": ["B", "H", "Nk", 128])"));
  ResolvedPlan resolved;
  EXPECT_EQ(resolve(plan, sizes(2, 8, 2, 100, 300), resolved),
            "buffer 'k' has shape [2, 8, 300, 128] but the layout [batch, "
            "heads, tokens, features] expects [2, 2, 300, 128] with B=2 H=8 "
            "Hkv=2 Nq=100 Nk=300 D=128");
}

TEST(ResolvedPlanTest, OtherLayouts) {
  // [batch, tokens, heads, features] (BNHD).
  std::vector<DimRole> layout = {DimRole::Batch, DimRole::Tokens,
                                 DimRole::Heads, DimRole::Features};
  EXPECT_EQ(layoutShape(layout, 2, 8, 100, 64),
            (std::vector<int64_t>{2, 100, 8, 64}));
  EXPECT_EQ(layoutShape({DimRole::Tokens, DimRole::Batch, DimRole::Features}, 3,
                        99, 7, 5),
            (std::vector<int64_t>{7, 3, 5}));
}

TEST(ResolvedPlanTest, LseNeedsOneValuePerRow) {
  std::string text =
      replaceOnce(samplePlanText(), R"({"name": "k_sum", "kind": "workspace")",
                  R"({"name": "lse", "kind": "output", "type": "f32",
     "shape": ["B", "H", "Nk"]},
    {"name": "k_sum", "kind": "workspace")");
  LaunchPlan plan = parse(text);
  ResolvedPlan resolved;
  EXPECT_EQ(resolve(plan, sizes(1, 2, 2, 16, 32), resolved),
            "buffer 'lse' has shape [1, 2, 32] (64 elements) but expects "
            "B*H*Nq = 32 elements with B=1 H=2 Hkv=2 Nq=16 Nk=32 D=128");
  EXPECT_EQ(resolve(plan, sizes(1, 2, 2, 32, 32), resolved), "");
}

TEST(ResolvedPlanTest, ZeroGridSkipsTheLaunch) {
  // A grid extent that evaluates to 0 skips the launch, not the plan.
  LaunchPlan plan = parse(replaceOnce(
      samplePlanText(), R"-("grid": [{"cdiv": ["Nk", 64]}, "Hkv", "B"])-",
      R"-("grid": [{"mul": ["Nk", 0]}, "Hkv", "B"])-"));
  ResolvedPlan resolved;
  ASSERT_EQ(resolve(plan, sizes(1, 1, 1, 64, 64), resolved), "");
  EXPECT_TRUE(resolved.launches[0].skipped);
  EXPECT_FALSE(resolved.launches[1].skipped);
}

TEST(ResolvedPlanTest, LaunchLimits) {
  LaunchPlan plan = parse(replaceOnce(
      samplePlanText(), R"-("grid": [{"cdiv": ["Nk", 64]}, "Hkv", "B"])-",
      R"("grid": [1, "Nk", "B"])"));
  ResolvedPlan resolved;
  EXPECT_EQ(resolve(plan, sizes(1, 1, 1, 64, 70000), resolved),
            "field 'kernels[0].grid[1]': value 70000 of 'Nk' (from --Nk) "
            "exceeds the limit 65535 with B=1 H=1 Hkv=1 Nq=64 Nk=70000");
  plan = parse(replaceOnce(samplePlanText(),
                           R"("block": [128, 1, 1], "shared_bytes": 0)",
                           R"("block": [128, 16, 1], "shared_bytes": 0)"));
  EXPECT_EQ(resolve(plan, sizes(1, 1, 1, 64, 64), resolved),
            "field 'kernels[0].block': kernel 'sage_quantize_k' has 2048 "
            "threads per block, more than 1024");
  plan = parse(replaceOnce(samplePlanText(),
                           R"("block": [128, 1, 1], "shared_bytes": 0)",
                           R"("block": [128, 0, 1], "shared_bytes": 0)"));
  EXPECT_EQ(resolve(plan, sizes(1, 1, 1, 64, 64), resolved),
            "field 'kernels[0].block[1]': kernel 'sage_quantize_k' has "
            "block.y = 0 with B=1 H=1 Hkv=1 Nq=64 Nk=64");
  plan = parse(replaceOnce(samplePlanText(), R"({"i32": "Nk"}]},)",
                           R"({"i32": {"mul": ["Nk", 65536]}}]},)"));
  EXPECT_EQ(resolve(plan, sizes(1, 1, 1, 64, 65536), resolved),
            "field 'kernels[0].params[2].i32': value 4294967296 of "
            "'Nk*65536' (from --Nk) exceeds the limit 2147483647 with B=1 "
            "H=1 Hkv=1 Nq=64 Nk=65536");
  // The options are named as the user gave them: a rank-3 plan's B is
  // --B times --H.
  plan = parse(replaceOnce(rankThreePlanText(), R"({"i32": "Nk"}]},)",
                           R"({"i32": {"mul": ["B", 2147483648]}}]},)"));
  EXPECT_EQ(resolve(plan, sizes(1, 1, 1, 64, 64), resolved),
            "field 'kernels[0].params[2].i32': value 2147483648 of "
            "'B*2147483648' (from --B and --H) exceeds the limit 2147483647 "
            "with B=1 H=1 Hkv=1 Nq=64 Nk=64");
}

TEST(ResolvedPlanTest, DescribesTheLaunches) {
  LaunchPlan plan = parse(samplePlanText());
  ResolvedPlan resolved;
  ASSERT_EQ(resolve(plan, sizes(1, 2, 1, 64, 128), resolved), "");
  std::string text = describeResolvedPlan(plan, resolved);
  EXPECT_NE(text.find("buffer k_sum: workspace f32 [1, 1, 128] 512 bytes "
                      "init=zero\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("launch sage_quantize_k: grid [2, 1, 1] block [128, 1, "
                      "1] shared 0 params (k, k_sum, 128)\n"),
            std::string::npos)
      << text;
}

TEST(ResolvedPlanTest, FormatsBytes) {
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1536), "1.50 KiB");
  EXPECT_EQ(formatBytes(12.0 * 1024 * 1024), "12.00 MiB");
  EXPECT_EQ(formatBytes(1.5 * 1024 * 1024 * 1024), "1.50 GiB");
}
