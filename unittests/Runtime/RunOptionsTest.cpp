//===- RunOptionsTest.cpp - Command line of sage-run ----------------------===//

#include "sage/Runtime/RunOptions.h"

#include "gtest/gtest.h"

#include <vector>

using namespace sage::rt;

/// Parses sage-run \p args into \p options; returns the error.
static std::string parse(std::vector<const char *> args, RunOptions &options) {
  args.insert(args.begin(), "sage-run");
  return parseRunOptions(static_cast<int>(args.size()), args.data(), options);
}

TEST(RunOptionsTest, Defaults) {
  RunOptions options;
  ASSERT_EQ(parse({"plan.json"}, options), "");
  EXPECT_EQ(options.planPath, "plan.json");
  EXPECT_EQ(options.sizes.batch, 1);
  EXPECT_EQ(options.sizes.heads, 1);
  EXPECT_EQ(options.sizes.headsKV, 1);
  EXPECT_EQ(options.sizes.seqQ, 128);
  EXPECT_EQ(options.sizes.seqK, 128);
  EXPECT_EQ(options.sizes.headDim, 0);
  EXPECT_EQ(options.seed, 0u);
  EXPECT_EQ(options.dist, sage::ref::DataKind::Randn);
  EXPECT_TRUE(options.reference);
  EXPECT_TRUE(options.modelEnabled());
  EXPECT_FALSE(options.bench);
  EXPECT_EQ(options.warmup, 5);
  EXPECT_EQ(options.repeat, 20);
  EXPECT_FALSE(options.minCosSim.has_value());
}

TEST(RunOptionsTest, SizesFollowEachOther) {
  RunOptions options;
  ASSERT_EQ(parse({"p.json", "--H", "16", "--Nq=4096", "--B", "2"}, options),
            "");
  EXPECT_EQ(options.sizes.heads, 16);
  EXPECT_EQ(options.sizes.headsKV, 16);
  EXPECT_EQ(options.sizes.seqQ, 4096);
  EXPECT_EQ(options.sizes.seqK, 4096);
  ASSERT_EQ(parse({"p.json", "--H", "16", "--Hkv", "4", "--Nq", "100", "--Nk",
                   "300", "--D", "64"},
                  options),
            "");
  EXPECT_EQ(options.sizes.headsKV, 4);
  EXPECT_EQ(options.sizes.seqK, 300);
  EXPECT_EQ(options.sizes.headDim, 64);
}

TEST(RunOptionsTest, ChecksAndFiles) {
  RunOptions options;
  ASSERT_EQ(parse({"p.json",
                   "--min-cossim",
                   "0.99",
                   "--max-rel-l1=0.05",
                   "--max-model-rel-l1",
                   "1e-3",
                   "--q",
                   "q.npy",
                   "--out",
                   "o.npy",
                   "--dist",
                   "outliers",
                   "--seed",
                   "7",
                   "--bench",
                   "--repeat",
                   "3",
                   "--warmup",
                   "0",
                   "--ptx",
                   "x.ptx",
                   "--mask-npy=m.npy"},
                  options),
            "");
  EXPECT_DOUBLE_EQ(*options.minCosSim, 0.99);
  EXPECT_DOUBLE_EQ(*options.maxRelL1, 0.05);
  EXPECT_DOUBLE_EQ(*options.maxModelRelL1, 1e-3);
  EXPECT_EQ(options.qPath, "q.npy");
  EXPECT_EQ(options.outPath, "o.npy");
  EXPECT_EQ(options.ptxPath, "x.ptx");
  EXPECT_EQ(options.maskPath, "m.npy");
  EXPECT_EQ(options.dist, sage::ref::DataKind::ChannelOutliers);
  EXPECT_EQ(options.seed, 7u);
  EXPECT_TRUE(options.bench);
  EXPECT_EQ(options.repeat, 3);
  EXPECT_EQ(options.warmup, 0);
}

TEST(RunOptionsTest, ModelFollowsTheReferenceUnlessAsked) {
  RunOptions options;
  ASSERT_EQ(parse({"p.json", "--no-reference"}, options), "");
  EXPECT_FALSE(options.reference);
  EXPECT_FALSE(options.modelEnabled());
  ASSERT_EQ(parse({"p.json", "--no-reference", "--model"}, options), "");
  EXPECT_TRUE(options.modelEnabled());
  ASSERT_EQ(parse({"p.json", "--no-model"}, options), "");
  EXPECT_TRUE(options.reference);
  EXPECT_FALSE(options.modelEnabled());
}

TEST(RunOptionsTest, ChecksNeedTheirReference) {
  RunOptions options;
  EXPECT_EQ(
      parse({"p.json", "--no-reference", "--min-cossim", "0.99"}, options),
      "option '--min-cossim' checks against the fp64 reference, which "
      "--no-reference turns off");
  EXPECT_EQ(
      parse({"p.json", "--no-model", "--max-model-rel-l1", "0.01"}, options),
      "option '--max-model-rel-l1' checks against the cpu model, which "
      "--no-model turns off");
  // A model threshold turns the model on even without the reference.
  ASSERT_EQ(parse({"p.json", "--no-reference", "--max-model-rel-l1", "0.01"},
                  options),
            "");
  EXPECT_TRUE(options.modelEnabled());
}

TEST(RunOptionsTest, ProbeAndHelpNeedNoPlan) {
  RunOptions options;
  ASSERT_EQ(parse({"--probe"}, options), "");
  EXPECT_TRUE(options.probe);
  ASSERT_EQ(parse({"-h"}, options), "");
  EXPECT_TRUE(options.help);
}

TEST(RunOptionsTest, Errors) {
  RunOptions options;
  EXPECT_EQ(parse({}, options),
            "no plan given (usage: sage-run PLAN.json [options]; --help)");
  EXPECT_EQ(parse({"p.json", "--frobnicate"}, options),
            "unknown option '--frobnicate'");
  EXPECT_EQ(parse({"p.json", "-x"}, options), "unknown option '-x'");
  EXPECT_EQ(parse({"p.json", "q.json"}, options),
            "unexpected argument 'q.json' (the plan is 'p.json')");
  EXPECT_EQ(parse({"p.json", "--Nq"}, options), "option '--Nq' needs a value");
  EXPECT_EQ(parse({"p.json", "--Nq", "12x"}, options),
            "option '--Nq' expects an integer from 1 to 2147483647, got '12x'");
  EXPECT_EQ(parse({"p.json", "--H", "0"}, options),
            "option '--H' expects an integer from 1 to 2147483647, got '0'");
  // The kernels take i32 sizes.
  EXPECT_EQ(parse({"p.json", "--Nk=2147483648"}, options),
            "option '--Nk' expects an integer from 1 to 2147483647, got "
            "'2147483648'");
  EXPECT_EQ(parse({"p.json", "--Nk=2147483647"}, options), "");
  EXPECT_EQ(parse({"p.json", "--min-cossim", "high"}, options),
            "option '--min-cossim' expects a number, got 'high'");
  EXPECT_EQ(parse({"p.json", "--dist", "uniform"}, options),
            "option '--dist' expects randn, outliers or sink, got 'uniform'");
  EXPECT_EQ(parse({"p.json", "--bench=1"}, options),
            "option '--bench' takes no value");
  EXPECT_EQ(parse({"p.json", "--repeat", "0"}, options),
            "option '--repeat' expects a positive integer, got '0'");
  EXPECT_EQ(parse({"p.json", "--out="}, options),
            "option '--out' expects a file name, got ''");
  EXPECT_EQ(parse({"p.json", "--mask-npy"}, options),
            "option '--mask-npy' needs a value");
}

TEST(RunOptionsTest, SampleRows) {
  RunOptions options;
  ASSERT_EQ(parse({"p.json"}, options), "");
  EXPECT_EQ(options.sampleRows, 0);
  ASSERT_EQ(parse({"p.json", "--sample-rows", "256"}, options), "");
  EXPECT_EQ(options.sampleRows, 256);
  // More than B*H*Nq is taken (sage-run then checks every row); 64 bits.
  ASSERT_EQ(parse({"p.json", "--sample-rows=9223372036854775807"}, options),
            "");
  EXPECT_EQ(options.sampleRows, INT64_MAX);
  EXPECT_EQ(parse({"p.json", "--sample-rows", "0"}, options),
            "option '--sample-rows' expects a positive integer, got '0'");
  EXPECT_EQ(parse({"p.json", "--sample-rows", "-3"}, options),
            "option '--sample-rows' expects a positive integer, got '-3'");
  EXPECT_EQ(parse({"p.json", "--sample-rows", "9223372036854775808"}, options),
            "option '--sample-rows' expects a positive integer, got "
            "'9223372036854775808'");
  EXPECT_EQ(parse({"p.json", "--sample-rows"}, options),
            "option '--sample-rows' needs a value");
  // It samples what the checks compare: one of them must be on.
  EXPECT_EQ(parse({"p.json", "--no-reference", "--sample-rows", "8"}, options),
            "option '--sample-rows' picks the rows of the fp64 and cpu model "
            "checks, which --no-reference turns off");
  EXPECT_EQ(parse({"p.json", "--no-reference", "--model", "--sample-rows", "8"},
                  options),
            "");
  EXPECT_EQ(parse({"p.json", "--no-model", "--sample-rows", "8"}, options), "");
}
