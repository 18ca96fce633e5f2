//===- FormatsTest.cpp - Element format rounding and encoding -------------===//
//
// Expected values are computed by hand from the format definitions.
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Formats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace sage::ref;

static const float kInf = std::numeric_limits<float>::infinity();
static const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(FormatsTest, RoundHalfToEven) {
  EXPECT_EQ(roundHalfToEven(0.5), 0.0);
  EXPECT_EQ(roundHalfToEven(1.5), 2.0);
  EXPECT_EQ(roundHalfToEven(2.5), 2.0);
  EXPECT_EQ(roundHalfToEven(-2.5), -2.0);
  EXPECT_EQ(roundHalfToEven(-3.5), -4.0);
  EXPECT_EQ(roundHalfToEven(2.5000001), 3.0);
  EXPECT_EQ(roundHalfToEven(126.49), 126.0);
}

TEST(FormatsTest, E4M3Rounding) {
  // 0.1 = 1.6 * 2^-4; spacing 2^-7 there: 12.8 quanta round to 13.
  EXPECT_EQ(roundToE4M3(0.1f), 0.1015625f);
  EXPECT_EQ(roundToE4M3(448.0f), 448.0f);
  // 480 would be S.1111.111, which E4M3FN spends on NaN.
  EXPECT_EQ(roundToE4M3(500.0f), 448.0f);
  EXPECT_EQ(roundToE4M3(-1e9f), -448.0f);
  EXPECT_EQ(roundToE4M3(kInf), 448.0f);
  // 464 is the tie between 448 (mantissa 110) and 480: even wins, and even
  // without saturation it is finite.
  EXPECT_EQ(roundToE4M3(464.0f, /*saturate=*/false), 448.0f);
  EXPECT_TRUE(std::isnan(roundToE4M3(465.0f, /*saturate=*/false)));
  EXPECT_TRUE(std::isnan(roundToE4M3(kNaN)));
  // Subnormals: spacing 2^-9.
  EXPECT_EQ(roundToE4M3(std::ldexp(1.0f, -9)), std::ldexp(1.0f, -9));
  EXPECT_EQ(roundToE4M3(std::ldexp(1.0f, -10)), 0.0f); // tie 0 / 2^-9
  EXPECT_EQ(roundToE4M3(std::ldexp(1.1f, -10)), std::ldexp(1.0f, -9));
  EXPECT_EQ(roundToE4M3(std::ldexp(3.0f, -10)), std::ldexp(1.0f, -8));
  EXPECT_EQ(roundToE4M3(std::ldexp(5.0f, -10)), std::ldexp(1.0f, -8));
  // Normal ties: 1.0625 lies between 1.0 (even) and 1.125.
  EXPECT_EQ(roundToE4M3(1.0625f), 1.0f);
  EXPECT_EQ(roundToE4M3(1.1875f), 1.25f);
  float negZero = roundToE4M3(-0.0f);
  EXPECT_EQ(negZero, 0.0f);
  EXPECT_TRUE(std::signbit(negZero));
  EXPECT_TRUE(std::signbit(roundToE4M3(-1e-6f)));
}

TEST(FormatsTest, E4M3Encoding) {
  EXPECT_EQ(encodeE4M3(1.0f), 0x38);
  EXPECT_EQ(encodeE4M3(448.0f), 0x7E);
  EXPECT_EQ(encodeE4M3(-448.0f), 0xFE);
  EXPECT_EQ(encodeE4M3(std::ldexp(1.0f, -9)), 0x01);
  EXPECT_EQ(encodeE4M3(-0.0f), 0x80);
  EXPECT_EQ(encodeE4M3(kNaN), 0x7F);
  EXPECT_TRUE(std::isnan(decodeE4M3(0x7F)));
  EXPECT_TRUE(std::isnan(decodeE4M3(0xFF)));
  EXPECT_EQ(decodeE4M3(0x78), 256.0f); // exponent 15 is a normal binade
  // Every non-NaN code round-trips.
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7F) == 0x7F)
      continue;
    float value = decodeE4M3(static_cast<uint8_t>(code));
    EXPECT_EQ(encodeE4M3(value), code) << "code " << code;
    EXPECT_EQ(roundToE4M3(value), value);
  }
}

TEST(FormatsTest, E5M2) {
  EXPECT_EQ(roundToE5M2(57344.0f), 57344.0f);
  EXPECT_EQ(roundToE5M2(60000.0f), 57344.0f);
  // 61440 is the tie between 57344 (odd mantissa) and 65536: IEEE overflows.
  EXPECT_EQ(roundToE5M2(61440.0f, /*saturate=*/false), kInf);
  EXPECT_EQ(roundToE5M2(61440.0f), 57344.0f);
  EXPECT_EQ(roundToE5M2(1e6f, /*saturate=*/false), kInf);
  EXPECT_EQ(roundToE5M2(-kInf), -57344.0f);
  EXPECT_EQ(roundToE5M2(-kInf, /*saturate=*/false), -kInf);
  EXPECT_TRUE(std::isnan(roundToE5M2(kNaN)));
  // Ties: 1.125 -> 1.0 (mantissa 00), 1.375 -> 1.5 (mantissa 10).
  EXPECT_EQ(roundToE5M2(1.125f), 1.0f);
  EXPECT_EQ(roundToE5M2(1.375f), 1.5f);
  EXPECT_EQ(roundToE5M2(0.1f), 0.09375f);
  // Smallest subnormal 2^-16 and the tie below it.
  EXPECT_EQ(roundToE5M2(std::ldexp(1.0f, -16)), std::ldexp(1.0f, -16));
  EXPECT_EQ(roundToE5M2(std::ldexp(1.0f, -17)), 0.0f);
  EXPECT_EQ(roundToE5M2(std::ldexp(3.0f, -17)), std::ldexp(1.0f, -15));
  EXPECT_EQ(encodeE5M2(std::ldexp(1.0f, -16)), 0x01);
  EXPECT_EQ(encodeE5M2(57344.0f), 0x7B);
  EXPECT_EQ(encodeE5M2(kInf, /*saturate=*/false), 0x7C);
  EXPECT_EQ(decodeE5M2(0x7C), kInf);
  EXPECT_EQ(decodeE5M2(0xFC), -kInf);
  EXPECT_TRUE(std::isnan(decodeE5M2(0x7E)));
  for (int code = 0; code < 256; ++code) {
    float value = decodeE5M2(static_cast<uint8_t>(code));
    if (std::isnan(value))
      continue;
    EXPECT_EQ(encodeE5M2(value, /*saturate=*/false), code) << "code " << code;
  }
}

TEST(FormatsTest, E2M1) {
  const float grid[] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (int code = 0; code < 8; ++code) {
    EXPECT_EQ(decodeE2M1(static_cast<uint8_t>(code)), grid[code]);
    EXPECT_EQ(decodeE2M1(static_cast<uint8_t>(code | 8)), -grid[code]);
    EXPECT_EQ(encodeE2M1(grid[code]), code);
    EXPECT_EQ(roundToE2M1(-grid[code]), -grid[code]);
  }
  // Ties go to the even mantissa.
  EXPECT_EQ(roundToE2M1(0.25f), 0.0f);
  EXPECT_EQ(roundToE2M1(0.75f), 1.0f);
  EXPECT_EQ(roundToE2M1(1.25f), 1.0f);
  EXPECT_EQ(roundToE2M1(1.75f), 2.0f);
  EXPECT_EQ(roundToE2M1(2.5f), 2.0f);
  EXPECT_EQ(roundToE2M1(3.5f), 4.0f);
  EXPECT_EQ(roundToE2M1(5.0f), 4.0f);
  EXPECT_EQ(roundToE2M1(-5.0f), -4.0f);
  EXPECT_EQ(roundToE2M1(5.01f), 6.0f);
  EXPECT_EQ(roundToE2M1(0.26f), 0.5f);
  // Saturation; NaN maps to +6 by the model's choice.
  EXPECT_EQ(roundToE2M1(7.0f), 6.0f);
  EXPECT_EQ(roundToE2M1(-100.0f), -6.0f);
  EXPECT_EQ(roundToE2M1(kInf), 6.0f);
  EXPECT_EQ(roundToE2M1(kNaN), 6.0f);
  EXPECT_EQ(encodeE2M1(-6.0f), 0xF);
}

TEST(FormatsTest, F16) {
  EXPECT_EQ(roundToF16(1.0f / 3.0f), 0.333251953125f);
  EXPECT_EQ(encodeF16(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(encodeF16(1.0f), 0x3C00);
  EXPECT_EQ(roundToF16(65504.0f), 65504.0f);
  EXPECT_EQ(roundToF16(65519.0f), 65504.0f);
  EXPECT_EQ(roundToF16(65520.0f), kInf);
  EXPECT_EQ(roundToF16(-65520.0f), -kInf);
  EXPECT_EQ(encodeF16(kInf), 0x7C00);
  EXPECT_EQ(encodeF16(kNaN), 0x7E00);
  // Subnormals: spacing 2^-24, ties to even.
  EXPECT_EQ(roundToF16(std::ldexp(1.0f, -24)), std::ldexp(1.0f, -24));
  EXPECT_EQ(roundToF16(std::ldexp(1.0f, -25)), 0.0f);
  EXPECT_EQ(roundToF16(std::ldexp(3.0f, -25)), std::ldexp(1.0f, -23));
  EXPECT_EQ(roundToF16(std::ldexp(1.5f, -20)), std::ldexp(1.5f, -20));
  EXPECT_EQ(encodeF16(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(decodeF16(0x03FF), std::ldexp(1023.0f, -24));
  // 2049 is the tie between 2048 and 2050.
  EXPECT_EQ(roundToF16(2049.0f), 2048.0f);
  EXPECT_EQ(roundToF16(2051.0f), 2052.0f);
  // The double entry point rounds once: 2049 + 2^-30 is above the tie, but
  // a detour through f32 would land on the tie and go down.
  EXPECT_EQ(roundF64ToF16(2049.0 + std::ldexp(1.0, -30)), 2050.0f);
}

TEST(FormatsTest, BF16) {
  EXPECT_EQ(encodeBF16(1.0f / 3.0f), 0x3EAB);
  EXPECT_EQ(roundToBF16(1.0f / 3.0f), 0.333984375f);
  EXPECT_EQ(roundToBF16(1.00390625f), 1.0f); // tie 1 + 2^-8
  EXPECT_EQ(roundToBF16(1.01171875f), 1.015625f);
  EXPECT_EQ(roundToBF16(3.4e38f), kInf);
  EXPECT_EQ(decodeBF16(0x3F80), 1.0f);
}

TEST(FormatsTest, UE8M0) {
  EXPECT_EQ(encodeUE8M0(1.0f), 127);
  EXPECT_EQ(encodeUE8M0(0.75f), 127); // rounds up to 2^0
  EXPECT_EQ(encodeUE8M0(0.125f), 124);
  EXPECT_EQ(encodeUE8M0(3.0f), 129);
  EXPECT_EQ(encodeUE8M0(0.0f), 0);
  EXPECT_EQ(encodeUE8M0(kNaN), 0xFF);
  EXPECT_EQ(decodeUE8M0(127), 1.0f);
  EXPECT_EQ(decodeUE8M0(130), 8.0f);
  EXPECT_TRUE(std::isnan(decodeUE8M0(0xFF)));
}

TEST(FormatsTest, Fp22Truncation) {
  EXPECT_EQ(truncateToFp22(1.0 + std::ldexp(1.0, -13)),
            1.0f + std::ldexp(1.0f, -13));
  EXPECT_EQ(truncateToFp22(1.0 + std::ldexp(1.0, -14)), 1.0f);
  // Toward zero, not to nearest: 1 + 2^-13 - 2^-20 keeps only 1.
  EXPECT_EQ(truncateToFp22(1.0 + std::ldexp(1.0, -13) - std::ldexp(1.0, -20)),
            1.0f);
  EXPECT_EQ(truncateToFp22(-(1.0 + std::ldexp(5.0, -15))),
            -(1.0f + std::ldexp(1.0f, -13)));
  // At 3 * 2^20 the spacing is 2^8.
  EXPECT_EQ(truncateToFp22(3.0 * 1048576.0 + 255.0), 3.0f * 1048576.0f);
  EXPECT_EQ(truncateToFp22(3.0 * 1048576.0 + 256.0),
            3.0f * 1048576.0f + 256.0f);
  EXPECT_EQ(truncateToFp22(0.0), 0.0f);
}

TEST(FormatsTest, RoundToFormatDispatch) {
  EXPECT_EQ(roundToFormat(0.1f, ElementFormat::F32), 0.1f);
  EXPECT_EQ(roundToFormat(0.1f, ElementFormat::E4M3), 0.1015625f);
  EXPECT_EQ(roundToFormat(0.1f, ElementFormat::E5M2), 0.09375f);
  EXPECT_EQ(roundToFormat(2.5f, ElementFormat::E2M1), 2.0f);
  EXPECT_EQ(roundToFormat(1.0f / 3.0f, ElementFormat::F16), 0.333251953125f);
  EXPECT_EQ(roundToFormat(1.0f / 3.0f, ElementFormat::BF16), 0.333984375f);
}
