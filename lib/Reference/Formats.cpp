//===- Formats.cpp - Element formats of the quantized attention -----------===//
//
// One table-driven minifloat rounder serves every format: a value is rounded
// on the grid of its binade (or of the smallest normal binade for
// subnormals) with an unbounded exponent, and overflow is decided after
// rounding, which reproduces IEEE round-to-nearest-even overflow exactly.
//
//===----------------------------------------------------------------------===//

#include "sage/Reference/Formats.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace sage::ref;

namespace {
/// How a format spends its all-ones exponent.
enum class Specials {
  None,      ///< Every code is finite (E2M1).
  NanOnlyFN, ///< Only S.1111.111 is NaN; no infinity (E4M3FN).
  Ieee,      ///< All-ones exponent: inf (mantissa 0) or NaN.
};

/// A binary floating-point format with an implicit leading bit.
struct FormatSpec {
  int exponentBits;
  int mantissaBits;
  int bias;
  double maxFinite;
  Specials specials;

  /// The exponent of the smallest normal binade.
  int minExponent() const { return 1 - bias; }
};
} // namespace

static constexpr FormatSpec kE4M3Spec{4, 3, 7, 448.0, Specials::NanOnlyFN};
static constexpr FormatSpec kE5M2Spec{5, 2, 15, 57344.0, Specials::Ieee};
static constexpr FormatSpec kE2M1Spec{2, 1, 1, 6.0, Specials::None};
static constexpr FormatSpec kF16Spec{5, 10, 15, 65504.0, Specials::Ieee};
static constexpr FormatSpec kBF16Spec{8, 7, 127, 3.3895313892515355e38,
                                      Specials::Ieee};

double sage::ref::roundHalfToEven(double x) {
  if (!std::isfinite(x))
    return x;
  double a = std::fabs(x);
  double floorA = std::floor(a);
  double frac = a - floorA;
  double r = floorA;
  // Above half rounds up; exactly half goes to the even neighbor.
  if (frac > 0.5 || (frac == 0.5 && std::fmod(floorA, 2.0) != 0.0))
    r = floorA + 1.0;
  return std::copysign(r, x);
}

/// Rounds a finite, nonzero magnitude \p a to the grid of \p spec with an
/// unbounded exponent; the caller handles overflow.
static double roundMagnitude(double a, const FormatSpec &spec) {
  int exp2 = 0;
  std::frexp(a, &exp2);
  // frexp gives a = f * 2^exp2 with f in [0.5, 1): the binade is exp2 - 1,
  // clamped to the smallest normal binade so subnormals share its spacing.
  int binade = exp2 - 1;
  if (binade < spec.minExponent())
    binade = spec.minExponent();
  double quantum = std::ldexp(1.0, binade - spec.mantissaBits);
  return roundHalfToEven(a / quantum) * quantum;
}

/// Rounds \p x to \p spec. Overflow saturates when \p saturate is set;
/// otherwise it becomes inf (IEEE formats) or NaN (E4M3FN).
static double roundTo(double x, const FormatSpec &spec, bool saturate) {
  if (std::isnan(x))
    return x;
  if (x == 0.0)
    return x;
  double overflow = saturate ? spec.maxFinite
                    : spec.specials == Specials::Ieee
                        ? std::numeric_limits<double>::infinity()
                        : std::numeric_limits<double>::quiet_NaN();
  double a = std::fabs(x);
  if (std::isinf(a))
    return std::copysign(overflow, x);
  double r = roundMagnitude(a, spec);
  if (r > spec.maxFinite)
    r = overflow;
  return std::copysign(r, x);
}

/// Packs a value already on the grid of \p spec into its bit pattern.
static uint32_t packBits(double r, const FormatSpec &spec) {
  const int totalBits = 1 + spec.exponentBits + spec.mantissaBits;
  const uint32_t signBit = std::signbit(r) ? 1u << (totalBits - 1) : 0u;
  const uint32_t expAllOnes = (1u << spec.exponentBits) - 1;
  const uint32_t mantAllOnes = (1u << spec.mantissaBits) - 1;
  if (std::isnan(r)) {
    // E4M3FN has a single NaN code per sign; IEEE formats use the quiet NaN
    // with the top mantissa bit set.
    uint32_t mant = spec.specials == Specials::NanOnlyFN
                        ? mantAllOnes
                        : 1u << (spec.mantissaBits - 1);
    return signBit | (expAllOnes << spec.mantissaBits) | mant;
  }
  double a = std::fabs(r);
  if (std::isinf(a))
    return signBit | (expAllOnes << spec.mantissaBits);
  if (a == 0.0)
    return signBit;
  int exp2 = 0;
  std::frexp(a, &exp2);
  int binade = exp2 - 1;
  if (binade < spec.minExponent()) {
    // Subnormal: exponent field 0, mantissa counts quanta of the smallest
    // normal binade.
    double mant = std::ldexp(a, spec.mantissaBits - spec.minExponent());
    return signBit | static_cast<uint32_t>(mant);
  }
  uint32_t expField = static_cast<uint32_t>(binade + spec.bias);
  double mant = std::ldexp(a, spec.mantissaBits - binade) -
                std::ldexp(1.0, spec.mantissaBits);
  return signBit | (expField << spec.mantissaBits) |
         static_cast<uint32_t>(mant);
}

/// Unpacks the bit pattern \p bits of \p spec.
static double unpackBits(uint32_t bits, const FormatSpec &spec) {
  const int totalBits = 1 + spec.exponentBits + spec.mantissaBits;
  const uint32_t expAllOnes = (1u << spec.exponentBits) - 1;
  const uint32_t mantAllOnes = (1u << spec.mantissaBits) - 1;
  bool negative = (bits >> (totalBits - 1)) & 1u;
  uint32_t expField = (bits >> spec.mantissaBits) & expAllOnes;
  uint32_t mant = bits & mantAllOnes;
  double value = 0.0;
  if (spec.specials == Specials::Ieee && expField == expAllOnes) {
    value = mant == 0 ? std::numeric_limits<double>::infinity()
                      : std::numeric_limits<double>::quiet_NaN();
  } else if (spec.specials == Specials::NanOnlyFN && expField == expAllOnes &&
             mant == mantAllOnes) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (expField == 0) {
    value = std::ldexp(static_cast<double>(mant),
                       spec.minExponent() - spec.mantissaBits);
  } else {
    double significand =
        1.0 + std::ldexp(static_cast<double>(mant), -spec.mantissaBits);
    value = std::ldexp(significand, static_cast<int>(expField) - spec.bias);
  }
  return negative ? -value : value;
}

float sage::ref::roundToFormat(float x, ElementFormat format) {
  switch (format) {
  case ElementFormat::F32:
    return x;
  case ElementFormat::F16:
    return roundToF16(x);
  case ElementFormat::BF16:
    return roundToBF16(x);
  case ElementFormat::E4M3:
    return roundToE4M3(x);
  case ElementFormat::E5M2:
    return roundToE5M2(x);
  case ElementFormat::E2M1:
    return roundToE2M1(x);
  }
  return x;
}

float sage::ref::roundToE4M3(float x, bool saturate) {
  return static_cast<float>(roundTo(x, kE4M3Spec, saturate));
}

float sage::ref::roundToE5M2(float x, bool saturate) {
  return static_cast<float>(roundTo(x, kE5M2Spec, saturate));
}

float sage::ref::roundToE2M1(float x) {
  // E2M1 cannot carry NaN: the model maps it to +max (documented choice).
  if (std::isnan(x))
    return kE2M1Max;
  return static_cast<float>(roundTo(x, kE2M1Spec, /*saturate=*/true));
}

float sage::ref::roundToF16(float x) {
  return static_cast<float>(roundTo(x, kF16Spec, /*saturate=*/false));
}

float sage::ref::roundF64ToF16(double x) {
  return static_cast<float>(roundTo(x, kF16Spec, /*saturate=*/false));
}

float sage::ref::roundToBF16(float x) {
  return static_cast<float>(roundTo(x, kBF16Spec, /*saturate=*/false));
}

uint8_t sage::ref::encodeE4M3(float x, bool saturate) {
  return static_cast<uint8_t>(
      packBits(roundTo(x, kE4M3Spec, saturate), kE4M3Spec));
}

float sage::ref::decodeE4M3(uint8_t bits) {
  return static_cast<float>(unpackBits(bits, kE4M3Spec));
}

uint8_t sage::ref::encodeE5M2(float x, bool saturate) {
  return static_cast<uint8_t>(
      packBits(roundTo(x, kE5M2Spec, saturate), kE5M2Spec));
}

float sage::ref::decodeE5M2(uint8_t bits) {
  return static_cast<float>(unpackBits(bits, kE5M2Spec));
}

uint8_t sage::ref::encodeE2M1(float x) {
  return static_cast<uint8_t>(packBits(roundToE2M1(x), kE2M1Spec));
}

float sage::ref::decodeE2M1(uint8_t bits) {
  return static_cast<float>(unpackBits(bits & 0xFu, kE2M1Spec));
}

uint16_t sage::ref::encodeF16(float x) {
  return static_cast<uint16_t>(
      packBits(roundTo(x, kF16Spec, /*saturate=*/false), kF16Spec));
}

float sage::ref::decodeF16(uint16_t bits) {
  return static_cast<float>(unpackBits(bits, kF16Spec));
}

uint16_t sage::ref::encodeBF16(float x) {
  return static_cast<uint16_t>(
      packBits(roundTo(x, kBF16Spec, /*saturate=*/false), kBF16Spec));
}

float sage::ref::decodeBF16(uint16_t bits) {
  return static_cast<float>(unpackBits(bits, kBF16Spec));
}

uint8_t sage::ref::encodeUE8M0(float scale) {
  if (std::isnan(scale))
    return 0xFF;
  if (!(scale > 0.0f))
    return 0;
  int exp2 = 0;
  double f = std::frexp(static_cast<double>(scale), &exp2);
  // scale = f * 2^exp2 with f in [0.5, 1): a power of two is 2^(exp2 - 1);
  // anything else rounds up to 2^exp2.
  int e = f == 0.5 ? exp2 - 1 : exp2;
  if (e < -127)
    e = -127;
  if (e > 127)
    e = 127;
  return static_cast<uint8_t>(e + 127);
}

float sage::ref::decodeUE8M0(uint8_t bits) {
  if (bits == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(std::ldexp(1.0, static_cast<int>(bits) - 127));
}

float sage::ref::truncateToFp22(double x) {
  if (!std::isfinite(x) || x == 0.0)
    return static_cast<float>(x);
  constexpr int kMantissaBits = 13;
  constexpr int kMinExponent = -126;
  double a = std::fabs(x);
  int exp2 = 0;
  std::frexp(a, &exp2);
  int binade = exp2 - 1;
  if (binade < kMinExponent)
    binade = kMinExponent;
  // Drop every bit below the 13th mantissa bit (round toward zero).
  double quantum = std::ldexp(1.0, binade - kMantissaBits);
  double r = std::floor(a / quantum) * quantum;
  return static_cast<float>(std::copysign(r, x));
}
