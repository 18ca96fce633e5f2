//===- AccuracyOrderingTest.cpp - The papers' accuracy orderings ----------===//
//
// Reproduces the ablations of SageAttention2 on synthetic data and asserts
// their ordering. Each test prints a table; every line starts with
// "[accuracy]" so scripts can grep it. Metrics are against exactAttention.
//
// Data (Random.h): "randn"; "outliers", randn plus a per-channel bias shared
// by all tokens (Q += 4 b, K += 8 b, V += 2 b), the setting the smoothing
// steps exist for; "sink", an attention sink over a flat bulk with biased V,
// the setting where INT8 P~ loses softmax mass (see PVFormatOrder).
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Attention.h"
#include "sage/Reference/Metrics.h"
#include "sage/Reference/Random.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <map>
#include <string>
#include <utility>

using namespace sage::ref;

namespace {
/// One data set and its exact output.
struct DataCase {
  AttentionData data;
  std::vector<double> ref;
};
} // namespace

/// Returns the cached data set of \p kind with head dim \p headDim: B = 1,
/// H = 2, N = 1024.
static const DataCase &dataCase(DataKind kind, int64_t headDim) {
  static std::map<std::pair<int, int64_t>, DataCase> cache;
  auto key = std::make_pair(static_cast<int>(kind), headDim);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;
  DataCase c;
  c.data = makeAttentionData(AttentionShape{1, 2, 2, 1024, 1024, headDim}, kind,
                             2025 + headDim);
  c.ref = exactAttention(c.data.view(), /*causal=*/Causal::None);
  return cache.emplace(key, std::move(c)).first->second;
}

static void printHeader(const char *title) {
  std::printf("[accuracy] %s\n", title);
  std::printf("[accuracy] %-34s %-9s %9s %8s %9s %8s\n", "config", "data",
              "CosSim", "RelL1", "RMSE", "MaxAbs");
}

/// Runs \p recipe on \p c, prints one table row labeled \p label.
static AccuracyMetrics measure(const char *label, DataKind kind,
                               int64_t headDim, const Recipe &recipe) {
  const DataCase &c = dataCase(kind, headDim);
  std::vector<double> ref = c.ref;
  if (recipe.causal != Causal::None)
    ref = exactAttention(c.data.view(), recipe.causal);
  AccuracyMetrics m = compareOutputs(sageAttention(c.data.view(), recipe), ref);
  std::printf("[accuracy] %-34s %-9s %9.6f %8.5f %9.6f %8.4f\n", label,
              toString(kind), m.cosSim, m.relL1, m.rmse, m.maxAbsError);
  EXPECT_EQ(m.nonFinite, 0u) << label;
  return m;
}

static Recipe preset(const char *name) { return *recipeFromVariantName(name); }

/// 1 - CosSim, the quantity the orderings compare.
static double cosErr(const AccuracyMetrics &m) { return 1.0 - m.cosSim; }

// SageAttention2 Table 4: INT4 QK per thread, smoothing Q+K beats K alone
// beats none on data with channel outliers.
TEST(AccuracyOrderingTest, SmoothingOrderInt4) {
  printHeader("INT4 QK per_thread, E4M3 PV: smoothing (D=64, N=1024, H=2)");
  Recipe r = preset("int4-fp8");
  r.smoothQ = r.smoothK = false;
  AccuracyMetrics none =
      measure("smooth none", DataKind::ChannelOutliers, 64, r);
  r.smoothK = true;
  AccuracyMetrics k = measure("smooth K", DataKind::ChannelOutliers, 64, r);
  r.smoothQ = true;
  r.smoothK = false;
  measure("smooth Q", DataKind::ChannelOutliers, 64, r);
  r.smoothK = true;
  AccuracyMetrics qk = measure("smooth Q+K", DataKind::ChannelOutliers, 64, r);
  // Each step removes most of the remaining error.
  EXPECT_LT(cosErr(qk) * 2.0, cosErr(k));
  EXPECT_LT(cosErr(k) * 2.0, cosErr(none));
  EXPECT_LT(qk.relL1, k.relL1);
  EXPECT_LT(k.relL1, none.relL1);
  EXPECT_LT(qk.rmse, k.rmse);
  EXPECT_LT(k.rmse, none.rmse);
}

// SageAttention2 Table 6: per_thread is close to per_token and both beat
// per_block, which beats per_tensor. INT4 with Q+K smoothing, where the
// remaining spread of magnitudes is what the groups have to capture.
//
// Tolerance of "close": after smoothing this data is Gaussian, so a group's
// scale follows the expected max of its samples: about 2.4 sigma for a
// per_token group (64 values), 2.9 for a per_thread Q group (4 rows x 64)
// and 3.3 for a per_thread K group (16 x 64), 3.7 for a per_block group.
// QK error grows with the scales, and the E4M3 PV error common to every row
// dilutes the ratios, so per_thread should land within about 1.25x of
// per_token in RelL1 (1.5x in 1 - CosSim, which is quadratic) while
// per_block lands near 1.4x. The paper's real activations vary more from
// token to token than this data, hence its larger per_block gap.
TEST(AccuracyOrderingTest, GranularityOrderInt4) {
  printHeader("INT4 QK, smooth Q+K, E4M3 PV: granularity (D=64, N=1024)");
  Recipe r = preset("int4-fp8");
  std::map<Granularity, AccuracyMetrics> m;
  for (Granularity g :
       {Granularity::PerToken, Granularity::PerThread, Granularity::PerWarp,
        Granularity::PerBlock, Granularity::PerTensor}) {
    r.granularity = g;
    m[g] = measure(toString(g), DataKind::ChannelOutliers, 64, r);
  }
  const AccuracyMetrics &token = m[Granularity::PerToken];
  const AccuracyMetrics &thread = m[Granularity::PerThread];
  const AccuracyMetrics &block = m[Granularity::PerBlock];
  const AccuracyMetrics &tensor = m[Granularity::PerTensor];
  // "Close": within 25% (RelL1) and 50% (1 - CosSim) of per_token.
  EXPECT_LE(token.relL1, thread.relL1);
  EXPECT_LE(thread.relL1, 1.25 * token.relL1);
  EXPECT_LE(cosErr(thread), 1.5 * cosErr(token));
  EXPECT_LT(thread.relL1, block.relL1);
  EXPECT_LT(cosErr(thread), cosErr(block));
  EXPECT_LT(block.relL1, tensor.relL1);
  EXPECT_LT(cosErr(block), cosErr(tensor));
  EXPECT_LT(block.rmse, tensor.rmse);
}

// SageAttention2 Table 7: E4M3 beats E5M2 for P~ and V, and is far better
// than INT8 (static P scale 127). INT8's uniform grid zeroes every P~ below
// 1/254 of the row max; that costs accuracy only when such keys carry much
// of the softmax mass and their values do not average out. Gaussian scores
// at N = 1024 keep most mass above 1/254 (the mass sits near the max), and
// there INT8 is as good as E4M3 or better (its grid is finer near 1). So
// INT8 is printed for every data set and asserted on "sink" only: half the
// mass on one key, the rest spread thin over keys with biased values.
TEST(AccuracyOrderingTest, PVFormatOrder) {
  printHeader("INT8 QK per_thread, smooth Q+K: P and V format (D=64)");
  for (DataKind kind :
       {DataKind::Randn, DataKind::ChannelOutliers, DataKind::AttentionSink}) {
    std::map<PVFormat, AccuracyMetrics> m;
    for (PVFormat f :
         {PVFormat::Fp16, PVFormat::E4M3, PVFormat::E5M2, PVFormat::Int8}) {
      Recipe r = preset("int8-fp8");
      r.pvFormat = f;
      r.pRange = r.vRange = defaultRange(f);
      std::string label = std::string("pv ") + toString(f);
      m[f] = measure(label.c_str(), kind, 64, r);
    }
    const AccuracyMetrics &e4m3 = m[PVFormat::E4M3];
    const AccuracyMetrics &e5m2 = m[PVFormat::E5M2];
    EXPECT_LT(cosErr(m[PVFormat::Fp16]), cosErr(e4m3)) << toString(kind);
    EXPECT_LT(cosErr(e4m3), cosErr(e5m2)) << toString(kind);
    EXPECT_LT(e4m3.relL1, e5m2.relL1) << toString(kind);
    if (kind == DataKind::AttentionSink) {
      // "Far": at least 5x the RelL1 and 10x the 1 - CosSim of E4M3.
      const AccuracyMetrics &int8 = m[PVFormat::Int8];
      EXPECT_LT(cosErr(e5m2), cosErr(int8));
      EXPECT_LT(e5m2.relL1, int8.relL1);
      EXPECT_GT(int8.relL1, 5.0 * e4m3.relL1);
      EXPECT_GT(cosErr(int8), 10.0 * cosErr(e4m3));
    }
  }
}

// The named recipes: int8-fp8 meets CosSim >= 0.999 on randn and outliers;
// the f16-accumulator variants stay close to their f32 counterparts; nvfp4
// is reasonable.
TEST(AccuracyOrderingTest, RecipeAccuracy) {
  printHeader("named recipes (D=128, N=1024, H=2)");
  for (DataKind kind : {DataKind::Randn, DataKind::ChannelOutliers}) {
    std::map<std::string, AccuracyMetrics> m;
    for (std::string_view name : kVariantNames)
      m[std::string(name)] = measure(std::string(name).c_str(), kind, 128,
                                     *recipeFromVariantName(name));
    Recipe causal = preset("int8-fp8");
    causal.causal = Causal::BottomRight;
    AccuracyMetrics c = measure("int8-fp8 causal", kind, 128, causal);
    const char *data = toString(kind);
    EXPECT_GE(m["int8-fp8"].cosSim, 0.999) << data;
    EXPECT_GE(c.cosSim, 0.999) << data;
    // "Close": within 1e-4 CosSim and 25% RelL1 of the f32 accumulator.
    for (const char *base : {"int8-fp8", "int4-fp8"}) {
      const AccuracyMetrics &f32 = m[base];
      const AccuracyMetrics &f16 = m[std::string(base) + "-f16acc"];
      EXPECT_LE(f16.cosSim, f32.cosSim + 1e-4) << base << " " << data;
      EXPECT_GE(f16.cosSim, f32.cosSim - 1e-4) << base << " " << data;
      EXPECT_LE(f16.relL1, 1.25 * f32.relL1) << base << " " << data;
    }
    EXPECT_LT(cosErr(m["int8-fp8"]), cosErr(m["int4-fp8"])) << data;
    EXPECT_GT(m["nvfp4"].cosSim, kind == DataKind::Randn ? 0.97 : 0.99) << data;
  }
}
