//===- Mma.cpp - the MMAs of the SageToGPU kernels, as sage.warp_mma ------===//
//
// The kernels hold their operands as 32-bit registers; each MMA becomes one
// sage.warp_mma on fragments built from them, which convert-sage-to-nvvm
// turns into the instruction its #sage.mma row names (docs/Levels.md, L5).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sage;

MmaAttr mlir::sage::getWarpMma(MLIRContext *ctx, Type operands,
                               Type accumulator) {
  int64_t k = 256 / operands.getIntOrFloatBitWidth();
  return MmaAttr::get(ctx, MmaScope::Warp, /*m=*/16, /*n=*/8, k, operands,
                      OperandSource::Registers, operands,
                      OperandSource::Registers, accumulator,
                      MmaScaleKind::None);
}

/// The fragment of `count` elements of `element` held in `words`.
static Value packFragment(KernelBuilder &kb, ArrayRef<Value> words,
                          Type element) {
  Value packed = vector::FromElementsOp::create(
      kb.b, kb.loc, VectorType::get({int64_t(words.size())}, kb.i32Type()),
      words);
  int64_t count = int64_t(words.size()) * 32 / element.getIntOrFloatBitWidth();
  return vector::BitCastOp::create(kb.b, kb.loc,
                                   VectorType::get({count}, element), packed);
}

MmaAcc mlir::sage::emitWarpMma(KernelBuilder &kb, MmaAttr mma,
                               ArrayRef<Value> a, ArrayRef<Value> b,
                               const MmaAcc &acc) {
  return emitWarpMma(kb, mma, packFragment(kb, a, mma.getA()), b, acc);
}

MmaAcc mlir::sage::emitWarpMma(KernelBuilder &kb, MmaAttr mma, Value a,
                               ArrayRef<Value> b, const MmaAcc &acc) {
  auto accType = VectorType::get({4}, mma.getAcc());
  Value result = WarpMmaOp::create(
      kb.b, kb.loc, accType, a, packFragment(kb, b, mma.getB()),
      vector::FromElementsOp::create(kb.b, kb.loc, accType, acc),
      /*a_scales=*/Value(), /*b_scales=*/Value(), mma,
      /*scale_selectors=*/nullptr);
  MmaAcc values;
  for (int64_t i = 0; i < 4; ++i)
    values[i] = vector::ExtractOp::create(kb.b, kb.loc, result, i);
  return values;
}
