//===- Mma.cpp - the MMAs of the SageToGPU kernels ------------------------===//
//
// The kernels hold their operands as 32-bit registers (and, for wgmma, B in
// shared memory); each MMA becomes one sage.warp_mma or sage.warpgroup_mma
// on fragments built from them, which convert-sage-to-nvvm turns into the
// instruction its #sage.mma row names (docs/Levels.md, L5).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::sage;

MmaAttr mlir::sage::getWarpMma(MLIRContext *ctx, Type operands,
                               Type accumulator) {
  int64_t k = 256 / operands.getIntOrFloatBitWidth();
  // E2M1 is NVFP4's: the instruction applies a UE4M3 scale a 16 elements.
  MmaScaleKind scales = isa<Float4E2M1FNType>(operands)
                            ? MmaScaleKind::Ue4m3Block16
                            : MmaScaleKind::None;
  return MmaAttr::get(ctx, MmaScope::Warp, /*m=*/16, /*n=*/8, k, operands,
                      OperandSource::Registers, operands,
                      OperandSource::Registers, accumulator, scales);
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
                               const MmaAcc &acc, Value aScales,
                               Value bScales) {
  return emitWarpMma(kb, mma, packFragment(kb, a, mma.getA()), b, acc, aScales,
                     bScales);
}

MmaAcc mlir::sage::emitWarpMma(KernelBuilder &kb, MmaAttr mma, Value a,
                               ArrayRef<Value> b, const MmaAcc &acc,
                               Value aScales, Value bScales) {
  assert(bool(aScales) == (mma.getScales() != MmaScaleKind::None) &&
         bool(bScales) == bool(aScales) && "a block-scaled row takes scales");
  auto accType = VectorType::get({4}, mma.getAcc());
  // Block scales from lanes t = 0 (A: row g; B: column g) and t = 1 (A:
  // row g + 8): the selectors' defaults (docs/Mma.md).
  Value bFragment = packFragment(kb, b, mma.getB());
  Value accFragment =
      vector::FromElementsOp::create(kb.b, kb.loc, accType, acc);
  Value result =
      WarpMmaOp::create(kb.b, kb.loc, accType, a, bFragment, accFragment,
                        aScales, bScales, mma, /*scale_selectors=*/nullptr);
  MmaAcc values;
  for (int64_t i = 0; i < 4; ++i)
    values[i] = vector::ExtractOp::create(kb.b, kb.loc, result, i);
  return values;
}

MmaAttr mlir::sage::getWarpgroupMma(MLIRContext *ctx, Type operands,
                                    Type accumulator, int64_t n,
                                    OperandSource aSource) {
  return MmaAttr::get(ctx, MmaScope::Warpgroup, /*m=*/64, n, /*k=*/32, operands,
                      aSource, operands, OperandSource::Shared, accumulator,
                      MmaScaleKind::None);
}

Value mlir::sage::getMatrixDescriptor(KernelBuilder &kb, MmaAttr mma,
                                      Value base, Value offset, int64_t leading,
                                      int64_t stride) {
  Type i64 = kb.b.getI64Type();
  Value address = LLVM::PtrToIntOp::create(kb.b, kb.loc, i64, base);
  address = arith::AddIOp::create(kb.b, kb.loc, address, kb.toI64(offset));
  return MatrixDescriptorOp::create(kb.b, kb.loc, i64, address, mma,
                                    kb.b.getI64IntegerAttr(leading),
                                    kb.b.getI64IntegerAttr(stride));
}

SmallVector<Value> mlir::sage::fenceWarpgroupOperands(KernelBuilder &kb,
                                                      ValueRange registers) {
  return llvm::to_vector_of<Value>(
      WarpgroupFenceOp::create(kb.b, kb.loc, registers.getTypes(), registers)
          .getResults());
}

WarpgroupChain mlir::sage::issueWarpgroupMmas(KernelBuilder &kb, MmaAttr mma,
                                              ArrayRef<Value> aOperands,
                                              ArrayRef<Value> bDescriptors,
                                              bool fenced) {
  int64_t count = mma.getM() * mma.getN() / 128;
  auto accType = VectorType::get({count}, mma.getAcc());
  // The A registers are written by ordinary instructions before the first
  // wgmma reads them; the chain's first wgmma starts the accumulator
  // (D = A * B), so none is written between the fence and the wgmmas.
  WarpgroupChain chain;
  bool fromRegisters = mma.getASource() == OperandSource::Registers;
  SmallVector<Value> fragments(aOperands);
  if (!fenced) {
    SmallVector<Value> fencedRegisters = fenceWarpgroupOperands(
        kb, fromRegisters ? ValueRange(aOperands) : ValueRange());
    if (fromRegisters)
      fragments = fencedRegisters;
  }
  if (fromRegisters)
    chain.aRegisters = fragments;
  for (auto [a, descriptor] : llvm::zip_equal(fragments, bDescriptors))
    chain.acc = WarpgroupMmaOp::create(kb.b, kb.loc, accType, a, descriptor,
                                       chain.acc, mma);
  chain.group = WarpgroupCommitOp::create(
      kb.b, kb.loc, WgmmaGroupType::get(kb.b.getContext()),
      ValueRange{chain.acc});
  return chain;
}

SmallVector<MmaAcc> mlir::sage::waitWarpgroupMmas(KernelBuilder &kb,
                                                  int64_t pending,
                                                  const WarpgroupChain &chain) {
  // The A registers are read until the chain completes: passed through the
  // wait, they stay untouched (and allocated) until then.
  SmallVector<Value> fragments = {chain.acc};
  llvm::append_range(fragments, chain.aRegisters);
  Value acc =
      WarpgroupWaitOp::create(kb.b, kb.loc, ValueRange(fragments).getTypes(),
                              pending, chain.group, fragments)
          .getResult(0);
  int64_t count = cast<VectorType>(acc.getType()).getNumElements();
  SmallVector<MmaAcc> tiles(count / 4);
  for (int64_t i = 0; i < count; ++i)
    tiles[i / 4][i % 4] = vector::ExtractOp::create(kb.b, kb.loc, acc, i);
  return tiles;
}
