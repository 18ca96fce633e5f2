//===- NvFp4.cpp - E2M1 values and UE4M3 scales as IR ---------------------===//

#include "sage/Dialect/Sage/Utils/NvFp4.h"
#include "sage/Dialect/Sage/Utils/ScalarBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::sage;

using Scalars = ScalarBuilder;

std::pair<Value, Value> nvfp4::roundScale(OpBuilder &b, Location loc, Value x) {
  Scalars s{b, loc};
  // cvt.rn.satfinite.e4m3x2.f32 of (0, x): x in the low byte.
  MLIRContext *ctx = b.getContext();
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), s.f32(0), x,
      NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN),
      NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE),
      b.getBoolAttr(false), TypeAttr::get(Float8E4M3FNType::get(ctx)));
  Value bits = s.bitAnd(s.toI32(pair), 0xff);
  return {bits, decodeScale(b, loc, bits)};
}

Value nvfp4::decodeScale(OpBuilder &b, Location loc, Value bits) {
  // (0x7f, NaN, comes only from a NaN x: the block's codes are then +6,
  // roundCode's NaN, and the decoded 480 is never used as a divisor of a
  // finite block.)
  Scalars s{b, loc};
  Value exponent = s.shr(bits, 3);
  Value mantissa = s.bitAnd(bits, 7);
  Value exponentBits = s.shl(s.add(exponent, s.i32(120)), 23);
  Value mantissaBits = s.shl(mantissa, 20);
  Value normal = s.bitsToF32(s.bitOr(exponentBits, mantissaBits));
  Value count = arith::SIToFPOp::create(b, loc, b.getF32Type(), mantissa);
  Value subnormal = arith::MulFOp::create(b, loc, count, s.f32(1.0 / 512));
  Value belowNormals = s.isEqual(exponent, 0);
  return s.select(belowNormals, subnormal, normal);
}

Value nvfp4::roundCode(OpBuilder &b, Location loc, Value x) {
  Scalars s{b, loc};
  // Magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 are codes 0 .. 7; a midpoint
  // goes to the even code, so the comparison is strict where the code
  // below is even and inclusive where the code above is.
  Value magnitude = s.absf(x);
  Value code = s.i32(0);
  const std::pair<double, bool> steps[] = {
      {0.25, false}, {0.75, true}, {1.25, false}, {1.75, true},
      {2.5, false},  {3.5, true},  {5.0, false}};
  for (auto [midpoint, inclusive] : steps) {
    Value above = s.cmpf(inclusive ? arith::CmpFPredicate::OGE
                                   : arith::CmpFPredicate::OGT,
                         magnitude, s.f32(midpoint));
    code = s.add(code, s.toI32(above));
  }
  Value negative = s.cmpf(arith::CmpFPredicate::OLT, x, s.f32(0));
  code = s.select(negative, s.bitOr(code, s.i32(8)), code);
  Value nan = s.cmpf(arith::CmpFPredicate::UNO, x, x);
  return s.select(nan, s.i32(7), code);
}

Value nvfp4::decodeCode(OpBuilder &b, Location loc, Value code) {
  Scalars s{b, loc};
  Value magnitude = s.bitAnd(code, 7);
  Value exponent = s.shr(magnitude, 1);
  Value mantissa = s.bitAnd(magnitude, 1);
  Value exponentBits = s.shl(s.add(exponent, s.i32(126)), 23);
  Value normal = s.bitOr(exponentBits, s.shl(mantissa, 22));
  // Exponent 0: 0.5 with the mantissa bit, else 0.
  Value half = s.i32(0x3f000000);
  Value zero = s.i32(0);
  Value small = s.select(s.isEqual(mantissa, 1), half, zero);
  Value bits = s.select(s.isEqual(exponent, 0), small, normal);
  Value sign = s.shl(s.bitAnd(code, 8), 28);
  return s.bitsToF32(s.bitOr(bits, sign));
}

nvfp4::Block nvfp4::quantizeBlock(OpBuilder &b, Location loc, Value absMax,
                                  ArrayRef<Value> values) {
  Scalars s{b, loc};
  Block block;
  Value scale;
  std::tie(block.scaleBits, scale) =
      roundScale(b, loc, s.divf(absMax, s.f32(6)));
  Value zero = s.cmpf(arith::CmpFPredicate::OEQ, scale, s.f32(0));
  Value divisor = s.select(zero, s.f32(1), scale);
  Value noCode = s.i32(0);
  for (Value value : values)
    block.codes.push_back(
        s.select(zero, noCode, roundCode(b, loc, s.divf(value, divisor))));
  return block;
}
