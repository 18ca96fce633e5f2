//===- SelectVariant.cpp - the recipe variant a chip runs best ------------===//
//
// `variant=auto`: the one table that says which SageAttention recipe each
// chip gets, with its reasons (docs/Recipes.md has the measurements).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGESELECTVARIANT
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The variant `chip` runs best with K/V blocks of `blockK` keys, or none
/// below sm_80.
static std::optional<Variant> getAutoVariant(Chip chip, int64_t blockK) {
  if (chip.sm < 80)
    return std::nullopt;
  // No FP8 mma.sync: P and V in f16.
  if (chip.sm < 89)
    return Variant::Int8Fp16;
  // Ada and consumer Blackwell run FP8 mma.sync with an f16 accumulator at
  // twice the rate of the f32 one (SageAttention2++), flushed every two
  // MMAs of 32 keys: a K/V block must hold whole flushes, else the f32
  // accumulator.
  bool blockHoldsFlushes = blockK > 0 && blockK % (2 * 32) == 0;
  if ((chip.sm == 89 || chip.sm >= 120) && blockHoldsFlushes)
    return Variant::Int8Fp8F16Acc;
  // Hopper: the wgmma kernel on sm_90a; on sm_90 the emulated FP8 mma.sync
  // still beats int8-fp16's f16 one on the H200 (1.02-1.25x,
  // benchmarks/results/2026-12-04-h200-fp16.md). Datacenter Blackwell:
  // FP8 mma.sync until the tcgen05 kernel exists.
  return Variant::Int8Fp8;
}

/// `recipe` with `variant`, keeping the granularity and smoothing where
/// the variant takes them.
static RecipeAttr withVariant(RecipeAttr recipe, Variant variant) {
  Granularity qk = recipe.getQkGranularity();
  if (qk == Granularity::Microscale)
    qk = RecipeAttr::getDefaultQKGranularity(variant);
  return RecipeAttr::get(recipe.getContext(), variant, qk, recipe.getSmoothQ(),
                         recipe.getSmoothK(), recipe.getSmoothV(),
                         APFloat(RecipeAttr::getDefaultPRange(variant)),
                         APFloat(RecipeAttr::getDefaultVRange(variant)));
}

namespace {
struct SageSelectVariantPass
    : public sage::impl::SageSelectVariantBase<SageSelectVariantPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Chip> target = parseChip(chip);
    if (!target) {
      getOperation()->emitError()
          << "unknown chip '" << chip << "'; expected sm_<version>[a], e.g. "
          << "sm_90a";
      return signalPassFailure();
    }
    std::optional<Variant> variant = getAutoVariant(*target, blockK);
    WalkResult result = getOperation()->walk([&](AttentionOp op) {
      if (!variant) {
        op.emitOpError() << "has no recipe on " << chip
                         << ": every recipe needs the INT8 and f16 mma.sync "
                            "of sm_80 or newer";
        return WalkResult::interrupt();
      }
      op.setRecipeAttr(withVariant(op.getRecipe(), *variant));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
