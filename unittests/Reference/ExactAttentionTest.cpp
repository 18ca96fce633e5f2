//===- ExactAttentionTest.cpp - FP64 ground truth -------------------------===//

#include "sage/Reference/Attention.h"
#include "sage/Reference/Random.h"

#include "TestMasks.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace sage::ref;

/// The textbook formula, written independently of the library: exp of the
/// raw scores (no max shift) plus the mask's bias, normalized, for one
/// (b, h, i).
static std::vector<double> naiveRow(const AttentionData &data, int64_t b,
                                    int64_t h, int64_t i, Causal causal,
                                    double scale) {
  const MaskData &mask = data.mask;
  const AttentionShape &s = data.shape;
  int64_t hk = h / (s.headsQ / s.headsKV);
  const float *q =
      data.q.data() + ((b * s.headsQ + h) * s.seqQ + i) * s.headDim;
  std::vector<double> num(s.headDim, 0.0);
  double den = 0.0;
  for (int64_t j = 0; j < s.seqK; ++j) {
    // Written out, not through isKeyVisible: bottom-right ends the
    // diagonal at the last key, top-left starts it at the first.
    if ((causal == Causal::BottomRight && j > i + s.seqK - s.seqQ) ||
        (causal == Causal::TopLeft && j > i))
      continue;
    const float *k =
        data.k.data() + ((b * s.headsKV + hk) * s.seqK + j) * s.headDim;
    const float *v =
        data.v.data() + ((b * s.headsKV + hk) * s.seqK + j) * s.headDim;
    double dot = 0.0;
    for (int64_t d = 0; d < s.headDim; ++d)
      dot += static_cast<double>(q[d]) * k[d];
    double bias = 0.0;
    if (!mask.bias.empty())
      bias = mask.bias[(((mask.batch == 1 ? 0 : b) * mask.heads +
                         (mask.heads == 1 ? 0 : h)) *
                            s.seqQ +
                        i) *
                           s.seqK +
                       j];
    double w = std::exp(scale * dot + bias);
    den += w;
    for (int64_t d = 0; d < s.headDim; ++d)
      num[d] += w * v[d];
  }
  for (double &x : num)
    x = den > 0.0 ? x / den : 0.0;
  return num;
}

TEST(ExactAttentionTest, HandComputedTwoKeys) {
  // q = 1, keys 0 and 1, values 1 and 3, scale 1: weights 1 and e.
  AttentionData data;
  data.shape = AttentionShape{1, 1, 1, 1, 2, 1};
  data.q = {1.0f};
  data.k = {0.0f, 1.0f};
  data.v = {1.0f, 3.0f};
  std::vector<double> lse;
  std::vector<double> o = exactAttention(data.view(), Causal::None, 1.0, &lse);
  const double e = std::exp(1.0);
  ASSERT_EQ(o.size(), 1u);
  EXPECT_NEAR(o[0], (1.0 + 3.0 * e) / (1.0 + e), 1e-15);
  EXPECT_NEAR(lse[0], std::log(1.0 + e), 1e-15);
  // Causal with Nq = 1 < Nk = 2: the one query sees both keys.
  EXPECT_NEAR(exactAttention(data.view(), Causal::BottomRight, 1.0)[0], o[0],
              1e-15);
}

TEST(ExactAttentionTest, NonFiniteInputsGiveNonFiniteRows) {
  // Two query rows, two keys, D = 1: a NaN in query 0 makes row 0 NaN (a
  // max that dropped NaN scores would call it a row without keys: 0); an
  // inf in key 1 makes the row whose score is +inf NaN and drops the key
  // from the row whose score is -inf, as SDPA does.
  AttentionData data;
  data.shape = AttentionShape{1, 1, 1, 2, 2, 1};
  data.q = {std::numeric_limits<float>::quiet_NaN(), 1.0f};
  data.k = {0.5f, 1.0f};
  data.v = {1.0f, 3.0f};
  std::vector<double> o = exactAttention(data.view(), Causal::None, 1.0);
  EXPECT_TRUE(std::isnan(o[0]));
  EXPECT_TRUE(std::isfinite(o[1]));
  data.q = {-1.0f, 1.0f};
  data.k = {0.5f, std::numeric_limits<float>::infinity()};
  o = exactAttention(data.view(), Causal::None, 1.0);
  EXPECT_DOUBLE_EQ(o[0], 1.0);
  EXPECT_TRUE(std::isnan(o[1]));
}

/// Checks exactAttention of \p data, with and without the causal mask,
/// against naiveRow for every row (scale 1/sqrt(D)).
static void expectMatchesNaive(const AttentionData &data) {
  const AttentionShape &shape = data.shape;
  const int64_t dim = shape.headDim;
  const double scale = 1.0 / std::sqrt(static_cast<double>(dim));
  for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
    std::vector<double> o = exactAttention(data.view(), causal);
    for (int64_t b = 0; b < shape.batch; ++b)
      for (int64_t h = 0; h < shape.headsQ; ++h)
        for (int64_t i = 0; i < shape.seqQ; ++i) {
          std::vector<double> want = naiveRow(data, b, h, i, causal, scale);
          for (int64_t d = 0; d < dim; ++d)
            EXPECT_NEAR(o[shape.qOffset(b, h) + i * dim + d], want[d], 1e-12);
        }
  }
}

TEST(ExactAttentionTest, MatchesNaiveFormulaWithGqa) {
  AttentionShape shape{2, 4, 2, 5, 7, 8};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 11);
  expectMatchesNaive(data);
}

TEST(ExactAttentionTest, CausalBottomRightWithFewerQueries) {
  // Nq = 3, Nk = 5: query i sees keys 0 .. i + 2.
  AttentionShape shape{1, 1, 1, 3, 5, 4};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 5);
  std::vector<double> o = exactAttention(data.view(), Causal::BottomRight);
  for (int64_t i = 0; i < 3; ++i) {
    // The same row, non-causal, over the first i + 3 keys only.
    AttentionData sub;
    sub.shape = AttentionShape{1, 1, 1, 1, i + 3, 4};
    sub.q.assign(data.q.begin() + i * 4, data.q.begin() + i * 4 + 4);
    sub.k.assign(data.k.begin(), data.k.begin() + (i + 3) * 4);
    sub.v.assign(data.v.begin(), data.v.begin() + (i + 3) * 4);
    std::vector<double> want = exactAttention(sub.view(), Causal::None);
    for (int64_t d = 0; d < 4; ++d)
      EXPECT_NEAR(o[i * 4 + d], want[d], 1e-14);
  }
}

TEST(ExactAttentionTest, FullyMaskedRowIsZero) {
  // Nq = 5 > Nk = 3: rows 0 and 1 see no key (j <= i - 2).
  AttentionShape shape{1, 2, 1, 5, 3, 4};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 9);
  std::vector<double> lse;
  std::vector<double> o =
      exactAttention(data.view(), Causal::BottomRight, 0.0, &lse);
  for (int64_t h = 0; h < 2; ++h) {
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t d = 0; d < 4; ++d) {
        double x = o[shape.qOffset(0, h) + i * 4 + d];
        EXPECT_FALSE(std::isnan(x));
        if (i < 2) {
          EXPECT_EQ(x, 0.0);
        }
      }
    EXPECT_TRUE(std::isinf(lse[h * 5]) && lse[h * 5] < 0);
    // Row 2 sees key 0 only: its output is v_0.
    for (int64_t d = 0; d < 4; ++d)
      EXPECT_NEAR(o[shape.qOffset(0, h) + 2 * 4 + d], data.v[d], 1e-7);
  }
}

TEST(ExactAttentionTest, GqaHeadMapping) {
  // Hq = 4 over Hkv = 2 equals Hkv = 4 with each KV head duplicated.
  AttentionShape shape{1, 4, 2, 6, 9, 8};
  AttentionData gqa = makeAttentionData(shape, DataKind::Randn, 13);
  AttentionData mha = gqa;
  mha.shape.headsKV = 4;
  mha.k.clear();
  mha.v.clear();
  for (int64_t h = 0; h < 4; ++h) {
    int64_t off = shape.kvOffset(0, h / 2);
    mha.k.insert(mha.k.end(), gqa.k.begin() + off, gqa.k.begin() + off + 72);
    mha.v.insert(mha.v.end(), gqa.v.begin() + off, gqa.v.begin() + off + 72);
  }
  EXPECT_EQ(exactAttention(gqa.view(), Causal::BottomRight),
            exactAttention(mha.view(), Causal::BottomRight));
  EXPECT_EQ(shape.kvHeadOf(3), 1);
}

TEST(ExactAttentionTest, InvalidShapeGivesEmpty) {
  AttentionData data;
  data.shape = AttentionShape{1, 3, 2, 4, 4, 4};
  EXPECT_TRUE(exactAttention(data.view(), Causal::None).empty());
}

TEST(ExactAttentionTest, RowsMatchTheWholeProblem) {
  // GQA (2 query heads per KV head), Nq < Nk and Nq > Nk, causal or not:
  // any row, in any order and repeated, is the row of the whole call.
  const AttentionShape shapes[] = {{2, 4, 2, 40, 100, 64},
                                   {1, 3, 1, 130, 70, 32}};
  for (const AttentionShape &shape : shapes)
    for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
      AttentionData data = makeAttentionData(shape, DataKind::Randn, 17);
      std::vector<double> lse, rowsLse;
      std::vector<double> all = exactAttention(data.view(), causal, 0.0, &lse);
      const int64_t total = shape.queryRows();
      std::vector<int64_t> rows = {total - 1, 0,         shape.seqQ - 1, 5,
                                   5,         total / 2, shape.seqQ};
      std::vector<double> some =
          exactAttentionRows(data.view(), causal, 0.0, rows, &rowsLse);
      ASSERT_EQ(some.size(), rows.size() * shape.headDim);
      ASSERT_EQ(rowsLse.size(), rows.size());
      for (size_t r = 0; r < rows.size(); ++r) {
        std::vector<double> expected(all.begin() + rows[r] * shape.headDim,
                                     all.begin() +
                                         (rows[r] + 1) * shape.headDim);
        std::vector<double> got(some.begin() + r * shape.headDim,
                                some.begin() + (r + 1) * shape.headDim);
        EXPECT_EQ(got, expected)
            << "row " << rows[r] << " causal=" << sage::ref::toString(causal);
        // Bitwise, -inf included (rows that see no key under the mask).
        EXPECT_EQ(rowsLse[r], lse[rows[r]]) << "row " << rows[r];
      }
    }
}

TEST(ExactAttentionTest, RowsOutOfRangeGiveNothing) {
  AttentionShape shape{1, 2, 1, 8, 8, 16};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 1);
  EXPECT_TRUE(exactAttentionRows(data.view(), Causal::None, 0.0, {16}).empty());
  EXPECT_TRUE(exactAttentionRows(data.view(), Causal::None, 0.0, {-1}).empty());
  EXPECT_TRUE(exactAttentionRows(data.view(), Causal::None, 0.0, {}).empty());
  EXPECT_EQ(exactAttentionRows(data.view(), Causal::None, 0.0, {15}).size(),
            16u);
}

TEST(ExactAttentionTest, MaskMatchesNaiveFormula) {
  // An additive mask with -inf entries, per batch and broadcast over heads.
  AttentionShape shape{2, 4, 2, 5, 7, 8};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 11);
  data.mask = randomMask(shape, 2, 1, 3);
  expectMatchesNaive(data);
}

TEST(ExactAttentionTest, KeepMaskOfTheCausalMaskIsCausal) {
  // Nq < Nk and Nq > Nk (rows that see no key): bit for bit, LSE too.
  const AttentionShape shapes[] = {{2, 4, 2, 5, 9, 8}, {1, 2, 1, 9, 5, 8}};
  for (const AttentionShape &shape : shapes) {
    AttentionData data = makeAttentionData(shape, DataKind::Randn, 7);
    std::vector<double> lse, maskedLse;
    std::vector<double> causal =
        exactAttention(data.view(), Causal::BottomRight, 0.0, &lse);
    data.mask = causalKeepMask(shape);
    EXPECT_EQ(exactAttention(data.view(), Causal::None, 0.0, &maskedLse),
              causal);
    EXPECT_EQ(maskedLse, lse);
    // Both at once are the causal mask too.
    EXPECT_EQ(exactAttention(data.view(), Causal::BottomRight), causal);
  }
}

TEST(ExactAttentionTest, RowConstantBiasOnlyShiftsTheLse) {
  // Softmax does not see a constant per row; the LSE moves by it.
  AttentionShape shape{1, 2, 1, 6, 10, 16};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 4);
  std::vector<double> lse, maskedLse;
  std::vector<double> plain =
      exactAttention(data.view(), Causal::None, 0.0, &lse);
  data.mask.bias.resize(6 * 10);
  for (int64_t i = 0; i < 6; ++i)
    std::fill(data.mask.bias.begin() + i * 10,
              data.mask.bias.begin() + (i + 1) * 10, 1.5f * i - 4.0f);
  std::vector<double> masked =
      exactAttention(data.view(), Causal::None, 0.0, &maskedLse);
  ASSERT_EQ(masked.size(), plain.size());
  for (size_t n = 0; n < plain.size(); ++n)
    EXPECT_NEAR(masked[n], plain[n], 1e-12);
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 6; ++i)
      EXPECT_NEAR(maskedLse[h * 6 + i], lse[h * 6 + i] + 1.5 * i - 4.0, 1e-12);
}

TEST(ExactAttentionTest, FullyMaskedRowOfTheMaskIsZero) {
  AttentionShape shape{1, 1, 1, 3, 4, 4};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 2);
  data.mask.bias.assign(12, 0.0f);
  std::fill(data.mask.bias.begin() + 4, data.mask.bias.begin() + 8,
            keepBias(false));
  // Row 2 keeps key 3 alone: its output is v_3.
  std::fill(data.mask.bias.begin() + 8, data.mask.bias.begin() + 11,
            keepBias(false));
  std::vector<double> lse;
  std::vector<double> o = exactAttention(data.view(), Causal::None, 0.0, &lse);
  for (int64_t d = 0; d < 4; ++d) {
    EXPECT_EQ(o[4 + d], 0.0);
    EXPECT_NEAR(o[8 + d], data.v[12 + d], 1e-7);
  }
  EXPECT_TRUE(std::isinf(lse[1]) && lse[1] < 0);
  EXPECT_TRUE(std::isfinite(lse[0]) && std::isfinite(lse[2]));
}

TEST(ExactAttentionTest, BroadcastMaskEqualsTheExpandedOne) {
  AttentionShape shape{2, 4, 2, 6, 9, 8};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 5);
  for (auto [batch, heads] :
       {std::pair<int64_t, int64_t>{1, 1}, {1, 4}, {2, 1}}) {
    data.mask = randomMask(shape, batch, heads, 9);
    std::vector<double> lse, expandedLse;
    std::vector<double> o =
        exactAttention(data.view(), Causal::BottomRight, 0.0, &lse);
    data.mask = expandMask(data.mask, shape);
    EXPECT_EQ(
        exactAttention(data.view(), Causal::BottomRight, 0.0, &expandedLse), o)
        << batch << "x" << heads;
    EXPECT_EQ(expandedLse, lse);
  }
}

TEST(ExactAttentionTest, MaskedRowsMatchTheWholeProblem) {
  AttentionShape shape{2, 4, 2, 40, 100, 32};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 17);
  data.mask = randomMask(shape, 2, 4, 1, 0.5);
  // A row the mask hides whole.
  std::fill(data.mask.bias.begin() + 7 * 100, data.mask.bias.begin() + 800,
            keepBias(false));
  for (Causal causal : {Causal::None, Causal::BottomRight, Causal::TopLeft}) {
    std::vector<double> lse, rowsLse;
    std::vector<double> all = exactAttention(data.view(), causal, 0.0, &lse);
    std::vector<int64_t> rows = {shape.queryRows() - 1, 7, 0, 45, 201};
    std::vector<double> some =
        exactAttentionRows(data.view(), causal, 0.0, rows, &rowsLse);
    ASSERT_EQ(some.size(), rows.size() * 32);
    for (size_t r = 0; r < rows.size(); ++r) {
      EXPECT_EQ(std::vector<double>(some.begin() + r * 32,
                                    some.begin() + (r + 1) * 32),
                std::vector<double>(all.begin() + rows[r] * 32,
                                    all.begin() + (rows[r] + 1) * 32))
          << "row " << rows[r] << " causal=" << sage::ref::toString(causal);
      EXPECT_EQ(rowsLse[r], lse[rows[r]]) << "row " << rows[r];
    }
    EXPECT_TRUE(std::isinf(rowsLse[1]));
  }
}

TEST(ExactAttentionTest, MaskThatDoesNotFitGivesEmpty) {
  AttentionShape shape{2, 4, 2, 4, 4, 4};
  AttentionData data = makeAttentionData(shape, DataKind::Randn, 1);
  data.mask = randomMask(shape, 1, 2, 1);
  EXPECT_TRUE(exactAttention(data.view(), Causal::None).empty());
  EXPECT_TRUE(exactAttentionRows(data.view(), Causal::None, 0.0, {0}).empty());
}
