//===- ScalarBuilder.h - i32 / f32 scalar ops, tersely ----------*- C++ -*-===//
//
// The scalar arith ops that lane-level lowerings (NVFP4 rounding, the
// fragment patterns of convert-sage-to-nvvm) are written in.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_UTILS_SCALARBUILDER_H
#define SAGE_DIALECT_SAGE_UTILS_SCALARBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::sage {

/// i32 / f32 scalar ops at one insertion point. (One op a statement where
/// two arguments would build ops: the IR must not depend on the compiler's
/// order of evaluating them.)
struct ScalarBuilder {
  OpBuilder &b;
  Location loc;

  Value i32(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, value, 32);
  }
  Value f32(double value) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(float(value)));
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value shl(Value x, int64_t bits) {
    return arith::ShLIOp::create(b, loc, x, i32(bits));
  }
  Value shr(Value x, int64_t bits) {
    return arith::ShRUIOp::create(b, loc, x, i32(bits));
  }
  Value bitAnd(Value x, int64_t mask) {
    return arith::AndIOp::create(b, loc, x, i32(mask));
  }
  Value bitOr(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value isEqual(Value x, int64_t value) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x,
                                 i32(value));
  }
  Value cmpf(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }
  Value addf(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value mulf(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value divf(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  Value toI32(Value bits) {
    return arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
  }
  Value bitsToF32(Value bits) {
    return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
  }
  /// |x| by clearing the sign bit (no libdevice call).
  Value absf(Value x) {
    Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
    return bitsToF32(bitAnd(bits, 0x7fffffff));
  }
};

} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_UTILS_SCALARBUILDER_H
