//===- PipelineTiles.cpp - a loop's next block staged while it computes ---===//
//
// The pipeline half of the promote level (docs/Levels.md, L3). After
// sage-promote-tiles and bufferization, each K/V block of a kernel's loop
// allocates its workgroup tiles, fills them (sage.stage_tile copies, dS's
// row dots) and reads them, and the CTA waits for each block's copies
// before computing it. This pass gives each such tile two stages and
// moves the stagings one iteration ahead:
//
//   stage block 0 into stage 0, await it             (before the loop)
//   for j:
//     issue block j + 1 into stage (j + 1) mod 2     (sage.stage_async)
//     compute block j from stage j mod 2
//     await block j + 1                              (sage.stage_await)
//
// so block j + 1's copies are in flight while block j computes. The await
// is also the barrier that lets the next iteration overwrite the stage
// this one read.
//
// With `stages=0` each loop gets what measured faster (docs/Levels.md,
// H100): two stages for a loop of wgmmas, and for mma.sync where a block's
// tiles hold at least 16 KiB (D = 128: 166 against 149 TOPS); smaller
// blocks (D = 64) keep one, as the second stage's workgroup memory costs
// an SM a CTA (157 against 176 TOPS).
//
//===----------------------------------------------------------------------===//

#include "BulkCopies.h"
#include "Staging.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/IR/WorkgroupStaging.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEPIPELINETILES
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// A loop body's workgroup tiles and the ops that fill them.
struct Stagings {
  SmallVector<memref::AllocOp> tiles;
  // The ops filling the tiles, with the pure ops of the body computing
  // their operands, in body order: what a block's group clones.
  SmallVector<Operation *> issue;
  // The ops filling the tiles.
  SmallVector<Operation *> writers;
};

/// The values `tile` is read or written through: itself and its
/// memref.subviews, transitively; nullopt where another op views it.
static std::optional<SmallVector<Value>> getViews(Value tile) {
  SmallVector<Value> views = {tile};
  for (size_t i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers()) {
      if (auto view = dyn_cast<memref::SubViewOp>(user))
        views.push_back(view.getResult());
      else if (isa<ViewLikeOpInterface>(user))
        return std::nullopt;
    }
  return views;
}

/// Whether anything in `body` writes memory outside workgroup tiles, or
/// may: the stagings of the next block would then read what this block has
/// not written yet. The wgmma ops' queue is no memory.
static bool writesOtherMemory(Block &body) {
  WalkResult walk = body.walk([](Operation *op) {
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects)
      return WalkResult::interrupt();
    for (const MemoryEffects::EffectInstance &effect : *effects)
      if (isa<MemoryEffects::Write>(effect.getEffect()) &&
          !isa<WgmmaQueueResource>(effect.getResource()) &&
          (!effect.getValue() || !isWorkgroupBuffer(effect.getValue())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The stagings of `loop`'s body, where two stages fit it: static
/// row-major workgroup tiles allocated in the body, filled by stagings in
/// the body that come before every other use of them, from operands that
/// pure ops of the body compute; nullopt where not.
static std::optional<Stagings> matchStagings(scf::ForOp loop) {
  // The stage arithmetic is on signed index bounds.
  if (!loop.getInductionVar().getType().isIndex() || loop.getUnsignedCmp())
    return std::nullopt;
  Block &body = *loop.getBody();
  Stagings stagings;
  for (auto alloc : body.getOps<memref::AllocOp>())
    if (isWorkgroupBuffer(alloc.getMemref()) &&
        alloc.getType().hasStaticShape() &&
        alloc.getType().getLayout().isIdentity() &&
        alloc.getType().getRank() >= 1)
      stagings.tiles.push_back(alloc);
  if (stagings.tiles.empty() || writesOtherMemory(body))
    return std::nullopt;
  llvm::SetVector<Operation *> writers, readers;
  llvm::SmallPtrSet<Value, 8> tileViews;
  for (memref::AllocOp tile : stagings.tiles) {
    std::optional<SmallVector<Value>> views = getViews(tile.getMemref());
    if (!views)
      return std::nullopt;
    tileViews.insert(views->begin(), views->end());
    bool staged = false;
    for (Value view : *views)
      for (Operation *user : view.getUsers()) {
        if (isa<memref::SubViewOp>(user))
          continue;
        Operation *inBody = body.findAncestorOpInBlock(*user);
        // A stage is a view at another layout: only users indifferent to
        // it may take one.
        if (!inBody || !isLayoutFreeTileUser(user))
          return std::nullopt;
        bool writes = isStaging(user) && inBody == user;
        staged |= writes;
        (writes ? writers : readers).insert(user);
      }
    // Every tile is one the stagings fill.
    if (!staged)
      return std::nullopt;
  }
  for (Operation *reader : readers)
    for (Operation *writer : writers)
      if (!writer->isBeforeInBlock(body.findAncestorOpInBlock(*reader)))
        return std::nullopt;
  // A staging writes the loop's tiles only: another buffer would take
  // block j + 1's data while block j reads it.
  for (Operation *writer : writers)
    for (Value init : cast<DestinationStyleOpInterface>(writer).getDpsInits())
      if (!tileViews.contains(init))
        return std::nullopt;
  // The writers' operands (and the values their regions use) computed in
  // the body, by pure ops, from the induction variable and values from
  // outside: a value the loop carries is block j's, not block j + 1's.
  llvm::SetVector<Operation *> issue(writers.begin(), writers.end());
  for (size_t i = 0; i < issue.size(); ++i) {
    llvm::SetVector<Value> used(issue[i]->operand_begin(),
                                issue[i]->operand_end());
    getUsedValuesDefinedAbove(issue[i]->getRegions(), used);
    for (Value operand : used) {
      if (llvm::is_contained(loop.getRegionIterArgs(), operand))
        return std::nullopt;
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != &body)
        continue;
      if (auto alloc = dyn_cast<memref::AllocOp>(def)) {
        if (!llvm::is_contained(stagings.tiles, alloc))
          return std::nullopt;
        continue;
      }
      if (def->getNumRegions() || !isMemoryEffectFree(def))
        return std::nullopt;
      issue.insert(def);
    }
  }
  stagings.writers = writers.takeVector();
  stagings.issue = issue.takeVector();
  llvm::sort(stagings.issue,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return stagings;
}

/// Stage `stage` of `doubled` (a tile with a leading dim of 2) as a view
/// of the tile's own shape.
static Value createStageView(OpBuilder &b, Location loc, Value doubled,
                             Value stage) {
  auto type = cast<MemRefType>(doubled.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = getAsOpFoldResult(stage);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(b.getContext(), type.getShape());
  sizes[0] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, viewType, doubled, offsets, sizes,
                                   strides);
}

/// `op` cloned at `b` through `mapping`; a memref.subview of a value
/// mapped to another type is built again, its result type inferred.
static void cloneRetyped(OpBuilder &b, Operation *op, IRMapping &mapping) {
  auto view = dyn_cast<memref::SubViewOp>(op);
  Value source = view ? mapping.lookupOrDefault(view.getSource()) : Value();
  if (!view || source.getType() == view.getSourceType()) {
    b.clone(*op, mapping);
    return;
  }
  auto lookup = [&](ArrayRef<OpFoldResult> values) {
    SmallVector<OpFoldResult> mapped;
    for (OpFoldResult value : values)
      mapped.push_back(isa<Value>(value) ? OpFoldResult(mapping.lookupOrDefault(
                                               cast<Value>(value)))
                                         : value);
    return mapped;
  };
  SmallVector<OpFoldResult> offsets = lookup(view.getMixedOffsets());
  SmallVector<OpFoldResult> sizes = lookup(view.getMixedSizes());
  SmallVector<OpFoldResult> strides = lookup(view.getMixedStrides());
  auto type = memref::SubViewOp::inferRankReducedResultType(
      view.getType().getShape(), cast<MemRefType>(source.getType()), offsets,
      sizes, strides);
  Value retyped = memref::SubViewOp::create(b, view.getLoc(), type, source,
                                            offsets, sizes, strides);
  mapping.map(view.getResult(), retyped);
}

/// Replaces `from` by `to`, a view of another layout: the memref.subviews
/// of `from` are built again on `to`, the other users take it as it is.
static void replaceRetyped(RewriterBase &rewriter, Value from, Value to) {
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    auto view = dyn_cast<memref::SubViewOp>(use.getOwner());
    if (!view) {
      rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(to); });
      continue;
    }
    rewriter.setInsertionPoint(view);
    IRMapping mapping;
    mapping.map(from, to);
    cloneRetyped(rewriter, view, mapping);
    replaceRetyped(rewriter, view.getResult(),
                   mapping.lookup(view.getResult()));
    rewriter.eraseOp(view);
  }
}

/// The stagings of block `block` into stage `stage` of `doubled`, issued at
/// `b` as one sage.stage_async group.
static StageAsyncOp issueBlock(OpBuilder &b, scf::ForOp loop,
                               const Stagings &stagings,
                               ArrayRef<Value> doubled, Value block,
                               Value stage) {
  Location loc = loop.getLoc();
  auto group =
      StageAsyncOp::create(b, loc, StageGroupType::get(b.getContext()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&group.getBody().emplaceBlock());
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), block);
  for (auto [tile, stages] : llvm::zip(stagings.tiles, doubled))
    mapping.map(tile->getResult(0), createStageView(b, loc, stages, stage));
  for (Operation *op : stagings.issue)
    cloneRetyped(b, op, mapping);
  return group;
}

/// Whether `stages=0` gives `loop` two stages (the header's measurements).
static bool isWorthTwoStages(scf::ForOp loop, const Stagings &stagings) {
  constexpr int64_t kTwoStageBytes = 16 * 1024;
  bool issuesWgmma = false;
  loop.getBody()->walk([&](WarpgroupMmaOp) { issuesWgmma = true; });
  int64_t bytes = 0;
  for (memref::AllocOp tile : stagings.tiles)
    bytes += tile.getType().getNumElements() *
             tile.getType().getElementTypeBitWidth() / 8;
  return issuesWgmma || bytes >= kTwoStageBytes;
}

/// Two stages of `loop`'s tiles, block j + 1 staged while block j computes.
static void pipeline(RewriterBase &rewriter, scf::ForOp loop,
                     const Stagings &stagings) {
  Location loc = loop.getLoc();
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> doubled;
  for (memref::AllocOp tile : stagings.tiles) {
    SmallVector<int64_t> shape = {2};
    llvm::append_range(shape, tile.getType().getShape());
    auto type = MemRefType::get(shape, tile.getType().getElementType(),
                                MemRefLayoutAttrInterface(),
                                tile.getType().getMemorySpace());
    doubled.push_back(memref::AllocOp::create(rewriter, tile.getLoc(), type,
                                              tile.getAlignmentAttr()));
  }
  Value one = index(1), two = index(2);
  // Block 0, where the loop runs at all.
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
  Value runs = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                     lower, upper);
  auto first = scf::IfOp::create(rewriter, loc, runs, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(first.thenBlock());
    StageAsyncOp group =
        issueBlock(rewriter, loop, stagings, doubled, lower, index(0));
    StageAwaitOp::create(rewriter, loc, group.getGroup());
  }

  // Block j + 1 (the last block again, where j is the last), into the
  // other stage.
  Block &body = *loop.getBody();
  rewriter.setInsertionPointToStart(&body);
  Value iv = loop.getInductionVar();
  Value distance = arith::SubIOp::create(rewriter, loc, iv, lower);
  Value count = arith::DivUIOp::create(rewriter, loc, distance, loop.getStep());
  Value stage = arith::RemUIOp::create(rewriter, loc, count, two);
  Value nextStage = arith::XOrIOp::create(rewriter, loc, stage, one);
  Value next = arith::AddIOp::create(rewriter, loc, iv, loop.getStep());
  Value hasNext = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::slt, next, upper);
  Value nextBlock = arith::SelectOp::create(rewriter, loc, hasNext, next, iv);
  StageAsyncOp group =
      issueBlock(rewriter, loop, stagings, doubled, nextBlock, nextStage);
  rewriter.setInsertionPoint(body.getTerminator());
  StageAwaitOp::create(rewriter, loc, group.getGroup());

  // The body's own stagings go; block j is read from its stage.
  for (Operation *writer : llvm::reverse(stagings.writers))
    rewriter.eraseOp(writer);
  for (Operation *op : llvm::reverse(stagings.issue))
    if (!llvm::is_contained(stagings.writers, op) && op->use_empty())
      rewriter.eraseOp(op);
  for (auto [tile, stages] : llvm::zip(stagings.tiles, doubled)) {
    rewriter.setInsertionPointAfter(group);
    Value current = createStageView(rewriter, loc, stages, stage);
    replaceRetyped(rewriter, tile->getResult(0), current);
    rewriter.eraseOp(tile);
  }
  // In a cluster the next block's copies wait for every CTA to be done
  // with the stage they overwrite: issued once block j's first wgmmas (its
  // scores) are in flight, that wait overlaps them and leaves the other
  // CTAs that much time to catch up (docs/Levels.md, "Clusters").
  auto kernel = loop->getParentOfType<gpu::GPUFuncOp>();
  if (kernel && getClusterCtas(kernel) > 1) {
    auto waits = body.getOps<WarpgroupWaitOp>();
    if (!waits.empty())
      rewriter.moveOpBefore(group, *waits.begin());
  }
}

namespace {

struct PipelineTilesPass
    : public sage::impl::SagePipelineTilesBase<PipelineTilesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (stages > 2) {
      getOperation()->emitError()
          << "sage-pipeline-tiles asked for " << stages.getValue()
          << " stages; it makes 1 or 2, or picks one of them with 0 (more "
             "would wait for all but the newest groups, which it does not "
             "count yet)";
      return signalPassFailure();
    }
    if (stages == 1)
      return;
    SmallVector<std::pair<scf::ForOp, Stagings>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      std::optional<Stagings> stagings = matchStagings(loop);
      if (stagings && (stages == 2 || isWorthTwoStages(loop, *stagings)))
        loops.push_back({loop, std::move(*stagings)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[loop, stagings] : loops)
      pipeline(rewriter, loop, stagings);
  }
};

} // namespace
