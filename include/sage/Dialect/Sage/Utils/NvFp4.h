//===- NvFp4.h - E2M1 values and UE4M3 scales as IR -------------*- C++ -*-===//
//
// NVFP4 (docs/Algorithm.md section 5) in i32 / f32 arithmetic: the rounding
// of a block of 16 elements to E2M1 codes under a UE4M3 scale, and the
// decoding of both. The quantizer kernels, the lowering of sage.quantize on
// fragments and the block-scaled MMA emulation all build their NVFP4
// arithmetic here, so they round alike.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_UTILS_NVFP4_H
#define SAGE_DIALECT_SAGE_UTILS_NVFP4_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace mlir::sage::nvfp4 {

/// The UE4M3 scale of `x` (f32, >= 0): cvt.rn.satfinite to E4M3, as its
/// bits (i32, 0 .. 0x7e; 0x7f, NaN's, for a NaN x) and its exact f32
/// value.
std::pair<Value, Value> roundScale(OpBuilder &b, Location loc, Value x);

/// The f32 value of UE4M3 bits (i32, 0 .. 0x7f): 2^(e - 7) (1 + m / 8), or
/// m 2^-9 below the normals (0x7f, NaN's code, decodes to 480).
Value decodeScale(OpBuilder &b, Location loc, Value bits);

/// The E2M1 code (i32, sign in bit 3) nearest `x` (f32), ties to the even
/// code; magnitudes beyond 6 saturate, NaN becomes code 7 (+6, as the CPU
/// model has it).
Value roundCode(OpBuilder &b, Location loc, Value x);

/// The f32 value of the E2M1 code in bits 3 .. 0 of `code` (i32): 0, 0.5,
/// 1, 1.5, 2, 3, 4 or 6 with the sign of bit 3.
Value decodeCode(OpBuilder &b, Location loc, Value code);

/// A block of NVFP4 values: its scale's bits and the elements' codes.
struct Block {
  Value scaleBits;
  SmallVector<Value> codes;
};

/// Quantizes `values` (f32), a block whose max |x| is `absMax`: scale =
/// roundScale(absMax / 6), codes of x / scale; a block whose scale is 0
/// gets codes 0.
Block quantizeBlock(OpBuilder &b, Location loc, Value absMax,
                    ArrayRef<Value> values);

} // namespace mlir::sage::nvfp4

#endif // SAGE_DIALECT_SAGE_UTILS_NVFP4_H
