//===- Formats.h - Element formats of the quantized attention ---*- C++ -*-===//
//
// Encode, decode and round-to-format for every element format a sage kernel
// touches: FP8 E4M3 (FN variant), FP8 E5M2, FP4 E2M1, FP16, BF16, the UE8M0
// scale format, and the FP22 model of the FP8 MMA accumulator.
//
// Every conversion rounds to nearest, ties to even (the `cvt.rn` behavior),
// including subnormals, unless its comment says otherwise. Rounding is done
// in double from a float input, which is exact, so there is one rounding.
// The code does not depend on the floating-point environment.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_FORMATS_H
#define SAGE_REFERENCE_FORMATS_H

#include <cstdint>

namespace sage::ref {

/// Element formats the model can round to.
enum class ElementFormat {
  F32,  ///< No rounding (identity on float).
  F16,  ///< IEEE binary16: overflow goes to inf.
  BF16, ///< bfloat16: overflow goes to inf.
  E4M3, ///< FP8 E4M3FN, saturating (cvt.rn.satfinite.e4m3x2).
  E5M2, ///< FP8 E5M2, saturating (cvt.rn.satfinite.e5m2x2).
  E2M1, ///< FP4 E2M1, saturating (cvt.rn.satfinite.e2m1x2).
};

/// Largest finite value of FP8 E4M3FN.
constexpr float kE4M3Max = 448.0f;
/// Largest finite value of FP8 E5M2.
constexpr float kE5M2Max = 57344.0f;
/// Largest value of FP4 E2M1.
constexpr float kE2M1Max = 6.0f;
/// Largest finite value of FP16.
constexpr float kF16Max = 65504.0f;

/// Rounds \p x to the nearest integer, ties to even, independent of the
/// floating-point environment. Used for the integer quantizers (the GPU's
/// cvt.rni.s32.f32) and inside every format rounding.
double roundHalfToEven(double x);

/// Rounds \p x to \p format and returns the rounded value as a float.
float roundToFormat(float x, ElementFormat format);

/// Rounds to FP8 E4M3FN. Finite values beyond +-448 saturate to +-448 when
/// \p saturate is set (the satfinite conversion the kernels use); otherwise
/// they become NaN, as E4M3FN has no infinity. Infinities follow the same
/// rule. NaN stays NaN.
float roundToE4M3(float x, bool saturate = true);

/// Rounds to FP8 E5M2. With \p saturate (the default, matching
/// cvt.rn.satfinite), finite overflow and +-inf both clamp to +-57344;
/// without it, overflow rounds to +-inf as in IEEE. NaN stays NaN.
float roundToE5M2(float x, bool saturate = true);

/// Rounds to FP4 E2M1 (+-{0, 0.5, 1, 1.5, 2, 3, 4, 6}); the format has no
/// inf or NaN, so anything beyond +-6 saturates to +-6, infinities included.
/// NaN maps to +6: this is the model's choice (the format cannot carry it);
/// callers that must detect NaN check their input.
float roundToE2M1(float x);

/// Rounds to IEEE binary16; values at or beyond 65520 become +-inf.
float roundToF16(float x);

/// Rounds a double straight to binary16 with one rounding (no detour
/// through f32, which could round twice).
float roundF64ToF16(double x);

/// Rounds to bfloat16; overflow becomes +-inf.
float roundToBF16(float x);

/// Encodes \p x (rounded first, as roundToE4M3) as E4M3FN bits. NaN encodes
/// as S.1111.111.
uint8_t encodeE4M3(float x, bool saturate = true);
/// Decodes E4M3FN bits.
float decodeE4M3(uint8_t bits);

/// Encodes \p x (rounded first, as roundToE5M2) as E5M2 bits.
uint8_t encodeE5M2(float x, bool saturate = true);
/// Decodes E5M2 bits (exponent 31 encodes inf and NaN).
float decodeE5M2(uint8_t bits);

/// Encodes \p x (rounded first, as roundToE2M1) in the low 4 bits.
uint8_t encodeE2M1(float x);
/// Decodes the low 4 bits as E2M1.
float decodeE2M1(uint8_t bits);

/// Encodes \p x (rounded first) as binary16 bits.
uint16_t encodeF16(float x);
/// Decodes binary16 bits.
float decodeF16(uint16_t bits);

/// Encodes \p x (rounded first) as bfloat16 bits.
uint16_t encodeBF16(float x);
/// Decodes bfloat16 bits.
float decodeBF16(uint16_t bits);

/// Encodes a positive scale as UE8M0 (a bare power of two, 2^(bits - 127)).
/// The exponent is rounded up (cvt.rp.satfinite.ue8m0x2), so a block's
/// largest value never overflows its element format. Zero and values below
/// 2^-127 encode as 0 (2^-127); NaN encodes as 0xFF; saturates at 2^127.
uint8_t encodeUE8M0(float scale);
/// Decodes UE8M0 bits (0xFF is NaN).
float decodeUE8M0(uint8_t bits);

/// The FP8 MMA accumulator model ("FP22": 1 sign, 8 exponent, 13 mantissa
/// bits). Truncates \p x toward zero to 13 explicit mantissa bits, with the
/// exponent range of f32 (subnormals below 2^-126 keep 2^-139 spacing).
/// Truncation (not rounding) is this model's assumption about the hardware.
float truncateToFp22(double x);

} // namespace sage::ref

#endif // SAGE_REFERENCE_FORMATS_H
