//===- SelectMma.cpp - pick each sage.qmma's instruction ------------------===//
//
// For every sage.qmma (on tiles, after sage-tile-attention) chooses the row
// of the MMA table (docs/Mma.md) that computes it on the target chip and
// records it as the op's `mma` attribute; the levels below derive the
// operand layouts and the code from that row. Preference, unless `scope`
// forces one: tcgen05 on sm_100a, wgmma on sm_90a, mma.sync otherwise;
// within a scope the widest n that divides the tile.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGESELECTMMA
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Where an instruction of `scope` reads operand `a` from: a tile computed
/// in the loop (P) stays where it was computed; a loaded tile is staged in
/// shared memory for the instructions that read shared memory.
static OperandSource getASource(MmaScope scope, bool computed) {
  if (scope == MmaScope::Warp)
    return OperandSource::Registers;
  if (!computed)
    return OperandSource::Shared;
  return scope == MmaScope::Tcgen05 ? OperandSource::TensorMemory
                                    : OperandSource::Registers;
}

/// The scopes to try on `chip`, best first.
static SmallVector<MmaScope> getScopes(Chip chip, StringRef forced) {
  if (forced == "warp")
    return {MmaScope::Warp};
  if (forced == "warpgroup")
    return {MmaScope::Warpgroup};
  if (forced == "tcgen05")
    return {MmaScope::Tcgen05};
  SmallVector<MmaScope> scopes;
  if (chip.archSpecific && chip.sm == 100)
    scopes.push_back(MmaScope::Tcgen05);
  if (chip.archSpecific && chip.sm == 90)
    scopes.push_back(MmaScope::Warpgroup);
  scopes.push_back(MmaScope::Warp);
  return scopes;
}

/// Picks the instruction for `op`, or fails with every candidate's reason.
static LogicalResult selectInstruction(QMmaOp op, Chip chip, StringRef chipName,
                                       StringRef forcedScope) {
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
  int64_t rank = aType.getRank();
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1);
  int64_t n = bType.getDimSize(rank - 2);
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(n) ||
      ShapedType::isDynamic(k))
    return op.emitOpError("needs a static tile to select an MMA instruction");
  Type a = aType.getElementType(), b = bType.getElementType();
  Type acc = op.getAccumulator();
  std::optional<MmaScaleKind> aScales =
      getMmaScaleKind(op.getAScales().getType());
  std::optional<MmaScaleKind> bScales =
      getMmaScaleKind(op.getBScales().getType());
  if (!aScales || aScales != bScales)
    return op.emitOpError()
           << "has scales no MMA instruction applies: a_scales "
           << op.getAScales().getType() << ", b_scales "
           << op.getBScales().getType();
  MmaScaleKind scales = *aScales;
  bool computed = bool(op.getA().getDefiningOp<QuantizeOp>());

  SmallVector<std::string> rejected;
  for (MmaScope scope : getScopes(chip, forcedScope)) {
    OperandSource aSource = getASource(scope, computed);
    for (const MmaInstruction &row : getMmaInstructions()) {
      if (row.scope != scope || row.a != getMmaFormatName(a) ||
          row.b != getMmaFormatName(b) || row.acc != getMmaFormatName(acc) ||
          row.scales != scales || row.aSource != aSource)
        continue;
      std::string reason = row.getUnavailableReason(chip);
      if (reason.empty() && (m % row.m != 0 || k % row.k != 0))
        reason = llvm::formatv("tile {0}x{1} is not a multiple of m{2} k{3}", m,
                               k, row.m, row.k)
                     .str();
      int64_t chosenN = 0;
      for (int64_t candidate = row.nMax;
           reason.empty() && !chosenN && candidate >= row.nMin;
           candidate -= row.nStep)
        if (n % candidate == 0)
          chosenN = candidate;
      if (reason.empty() && !chosenN)
        reason = llvm::formatv("no n in {0}..{1} divides tile N = {2}",
                               row.nMin, row.nMax, n)
                     .str();
      if (!reason.empty()) {
        rejected.push_back(row.getPtx(row.nMin) + ": " + reason);
        continue;
      }
      op.setMmaAttr(MmaAttr::get(op.getContext(), scope, row.m, chosenN, row.k,
                                 a, aSource, b, row.bSource, acc, scales));
      return success();
    }
  }
  InFlightDiagnostic diag = op.emitOpError()
                            << "has no MMA instruction on " << chipName
                            << " for " << a << " x " << b << " -> " << acc;
  if (!rejected.empty())
    diag << ": " << llvm::join(rejected, "; ");
  return diag;
}

namespace {
struct SageSelectMmaPass
    : public sage::impl::SageSelectMmaBase<SageSelectMmaPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Chip> target = parseChip(chip);
    if (!target) {
      getOperation()->emitError()
          << "unknown chip '" << chip << "'; expected sm_XY, sm_XYa or sm_XYf";
      return signalPassFailure();
    }
    if (!llvm::is_contained({"auto", "warp", "warpgroup", "tcgen05"},
                            StringRef(scope))) {
      getOperation()->emitError()
          << "unknown scope '" << scope
          << "'; expected auto, warp, warpgroup or tcgen05";
      return signalPassFailure();
    }
    WalkResult result = getOperation()->walk([&](QMmaOp op) {
      return failed(selectInstruction(op, *target, chip, scope))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
