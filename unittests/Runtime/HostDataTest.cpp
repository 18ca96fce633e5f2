//===- HostDataTest.cpp - Host-side tensors of plan buffers ---------------===//

#include "sage/Runtime/HostData.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace sage::rt;

TEST(HostDataTest, EncodesAndDecodesFloats) {
  std::vector<float> values = {1.0f, -2.5f, 65504.0f, 0.1f};
  std::vector<uint8_t> bytes;
  ASSERT_EQ(
      encodeElements(values.data(), values.size(), ElementType::F16, bytes),
      "");
  ASSERT_EQ(bytes.size(), 8u);
  uint16_t bits;
  std::memcpy(&bits, bytes.data(), 2);
  EXPECT_EQ(bits, 0x3C00);
  std::memcpy(&bits, bytes.data() + 4, 2);
  EXPECT_EQ(bits, 0x7BFF);
  std::vector<float> back;
  ASSERT_EQ(decodeElements(bytes.data(), 4, ElementType::F16, back), "");
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], -2.5f);
  EXPECT_EQ(back[2], 65504.0f);
  // 0.1 rounds to the nearest f16, 0.0999755859375.
  EXPECT_EQ(back[3], 0.0999755859375f);

  ASSERT_EQ(
      encodeElements(values.data(), values.size(), ElementType::BF16, bytes),
      "");
  std::memcpy(&bits, bytes.data(), 2);
  EXPECT_EQ(bits, 0x3F80);
  ASSERT_EQ(decodeElements(bytes.data(), 4, ElementType::BF16, back), "");
  EXPECT_EQ(back[1], -2.5f);
  EXPECT_EQ(back[2], 65536.0f);

  ASSERT_EQ(
      encodeElements(values.data(), values.size(), ElementType::F32, bytes),
      "");
  ASSERT_EQ(decodeElements(bytes.data(), 4, ElementType::F32, back), "");
  EXPECT_EQ(back, values);

  EXPECT_EQ(encodeElements(values.data(), 4, ElementType::I8, bytes),
            "cannot encode floats as i8");
  EXPECT_EQ(decodeElements(bytes.data(), 4, ElementType::F8E4M3FN, back),
            "cannot decode f8E4M3FN as floats");
}

TEST(HostDataTest, PoisonBytesAreNaN) {
  // The runner fills outputs with 0xFF bytes before a run.
  std::vector<uint8_t> poison(8, 0xFF);
  std::vector<float> values;
  for (ElementType type :
       {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    ASSERT_EQ(
        decodeElements(poison.data(), 8 / elementSize(type), type, values), "");
    EXPECT_EQ(countNonFinite(values), values.size()) << toString(type);
  }
}

TEST(HostDataTest, ReordersIntoTheLayout) {
  CanonicalDims dims;
  dims.batch = 2;
  dims.heads = 3;
  dims.tokens = 4;
  dims.features = 5;
  std::vector<float> canonical(static_cast<size_t>(dims.elements()));
  for (size_t i = 0; i < canonical.size(); ++i)
    canonical[i] = static_cast<float>(i);
  // [batch, tokens, heads, features]: element (b, h, n, d) moves to
  // ((b * 4 + n) * 3 + h) * 5 + d.
  std::vector<DimRole> bnhd = {DimRole::Batch, DimRole::Tokens, DimRole::Heads,
                               DimRole::Features};
  std::vector<float> laid = canonicalToLayout(canonical, bnhd, dims);
  auto canonicalIndex = [](int b, int h, int n, int d) {
    return ((b * 3 + h) * 4 + n) * 5 + d;
  };
  EXPECT_EQ(laid[((1 * 4 + 2) * 3 + 1) * 5 + 3], canonicalIndex(1, 1, 2, 3));
  EXPECT_EQ(laid[((0 * 4 + 3) * 3 + 2) * 5 + 4], canonicalIndex(0, 2, 3, 4));
  EXPECT_EQ(layoutToCanonical(laid, bnhd, dims), canonical);
  // The canonical layout is the identity.
  std::vector<DimRole> bhnd = {DimRole::Batch, DimRole::Heads, DimRole::Tokens,
                               DimRole::Features};
  EXPECT_EQ(canonicalToLayout(canonical, bhnd, dims), canonical);
  // Rank 3 with heads folded: the identity as well.
  dims.batch = 6;
  dims.heads = 1;
  EXPECT_EQ(canonicalToLayout(
                canonical, {DimRole::Batch, DimRole::Tokens, DimRole::Features},
                dims),
            canonical);
  // Features first: [features, batch, tokens].
  std::vector<DimRole> dbn = {DimRole::Features, DimRole::Batch,
                              DimRole::Tokens};
  laid = canonicalToLayout(canonical, dbn, dims);
  EXPECT_EQ(laid[(3 * 6 + 5) * 4 + 2], (5 * 4 + 2) * 5 + 3);
  EXPECT_EQ(layoutToCanonical(laid, dbn, dims), canonical);
}

TEST(HostDataTest, CountsNonFinite) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(countNonFinite({1.0f, inf, -inf, nan, 0.0f}), 3u);
  EXPECT_EQ(countNonFinite({}), 0u);
}

TEST(HostDataTest, EncodesIntoTheLayoutInOnePass) {
  // encodeToLayout / decodeFromLayout are canonicalToLayout +
  // encodeElements and decodeElements + layoutToCanonical, byte for byte.
  CanonicalDims dims;
  dims.batch = 2;
  dims.heads = 3;
  dims.tokens = 5;
  dims.features = 4;
  std::vector<float> canonical(static_cast<size_t>(dims.elements()));
  for (size_t i = 0; i < canonical.size(); ++i)
    canonical[i] = 0.37f * static_cast<float>(i) - 20.0f;
  const std::vector<DimRole> layouts[] = {
      {DimRole::Batch, DimRole::Heads, DimRole::Tokens, DimRole::Features},
      {DimRole::Batch, DimRole::Tokens, DimRole::Heads, DimRole::Features}};
  for (const std::vector<DimRole> &layout : layouts)
    for (ElementType type :
         {ElementType::F16, ElementType::BF16, ElementType::F32}) {
      std::vector<float> laid = canonicalToLayout(canonical, layout, dims);
      std::vector<uint8_t> expected, bytes;
      ASSERT_EQ(encodeElements(laid.data(), laid.size(), type, expected), "");
      ASSERT_EQ(encodeToLayout(canonical, layout, dims, type, bytes), "");
      EXPECT_EQ(bytes, expected) << toString(type);
      std::vector<float> decoded, back;
      ASSERT_EQ(decodeElements(bytes.data(), laid.size(), type, decoded), "");
      ASSERT_EQ(decodeFromLayout(bytes.data(), layout, dims, type, back), "");
      EXPECT_EQ(back, layoutToCanonical(decoded, layout, dims))
          << toString(type);
    }
  std::vector<uint8_t> bytes;
  std::vector<DimRole> bhnd = layouts[0];
  EXPECT_EQ(encodeToLayout(canonical, bhnd, dims, ElementType::I8, bytes),
            "cannot encode floats as i8");
  EXPECT_EQ(encodeToLayout({1.0f}, bhnd, dims, ElementType::F16, bytes),
            "cannot encode 1 values as a tensor of 120 elements");
  std::vector<float> values;
  EXPECT_EQ(
      decodeFromLayout(bytes.data(), bhnd, dims, ElementType::I32, values),
      "cannot decode i32 as floats");
}
