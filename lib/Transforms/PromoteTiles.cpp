//===- PromoteTiles.cpp - CTA-wide tiles into workgroup memory ------------===//
//
// The promote level (docs/Levels.md, L3). After sage-distribute-tiles the
// lanes read their elements from tiles the whole CTA shares: the operand
// windows padded to the tile (tensor.pad of Q, K, V; V^T reads V's), and
// dS (linalg.matvec of the raw K window and Q's block mean). Left as they
// are, sage-fold-lane-reads makes every lane read the operands in global
// memory and compute its dS elements itself. This pass stages them once
// per CTA instead:
//
// * a padded window the lanes read becomes a sage.stage_tile into a
//   workgroup-memory tile (bufferization.alloc_tensor with memory_space
//   #gpu.address_space<workgroup>); read through gathers that rearrange
//   it (V^T in P's key order, the core matrices a wgmma reads through
//   sage.tile_descriptor), the tile holds it rearranged: the copy's
//   indexing_map composes theirs;
// * a matrix-vector product the lanes read is computed into workgroup
//   memory; of a zero-padded window, over the window's rows only (the
//   padded rows keep the initial value, which is what zero rows add up to).
//
// In each block, the copies and products gather at the first copy, so that
// they are waited for together; the lanes' reads of a tile staged before
// the K/V loop move out of it.
// sage-lower-staging later splits the copies and products among the CTA's
// threads.
//
//===----------------------------------------------------------------------===//

#include "Staging.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEPROMOTETILES
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

static Attribute getWorkgroupSpace(MLIRContext *ctx) {
  return gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
}

/// An empty tile like `type` in workgroup memory.
static Value allocateInWorkgroup(RewriterBase &rewriter, Location loc,
                                 RankedTensorType type) {
  auto alloc =
      bufferization::AllocTensorOp::create(rewriter, loc, type, ValueRange{});
  alloc.setMemorySpaceAttr(getWorkgroupSpace(rewriter.getContext()));
  return alloc;
}

/// Whether every use of `tile` is a lane's read of its elements, directly
/// or through a transpose (V^T) or a slice (the keys of one f16 flush)
/// the lanes read.
static bool isReadByLanes(Value tile) {
  return llvm::all_of(tile.getUsers(), [](Operation *user) {
    if (isa<vector::TransferReadOp, tensor::ExtractOp, WarpLoadMatricesOp>(
            user))
      return true;
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      return isReadByLanes(slice.getResult());
    auto transpose = dyn_cast<linalg::TransposeOp>(user);
    return transpose && transpose.hasPureTensorSemantics() &&
           isReadByLanes(transpose.getResult()[0]);
  });
}

/// The padded window of the tile level: padded at the high end by a
/// constant, to a static tile.
static bool isPaddedWindow(tensor::PadOp pad) {
  return pad.hasZeroLowPad() && pad.getConstantPaddingValue() &&
         pad.getResultType().hasStaticShape();
}

/// The pad's constant padding value, made before it (at the insertion
/// point) where the pad's body defines it.
static Value getPaddingBefore(RewriterBase &rewriter, tensor::PadOp pad) {
  Value padding = pad.getConstantPaddingValue();
  if (pad.getRegion().isAncestor(padding.getParentRegion()))
    padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
  return padding;
}

/// `pad` as a sage.stage_tile of its window into workgroup memory.
static void stagePaddedWindow(RewriterBase &rewriter, tensor::PadOp pad) {
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  Value padding = getPaddingBefore(rewriter, pad);
  Value buffer = allocateInWorkgroup(rewriter, loc, pad.getResultType());
  rewriter.replaceOpWithNewOp<StageTileOp>(pad, pad.getResultType(),
                                           pad.getSource(), padding, buffer,
                                           /*indexing_map=*/nullptr);
}

/// Whether `map` sends every index of a tile of `shape` to itself, as the
/// chain from a V stored in MMA positions to P's key order does (a
/// permutation and its inverse, which affine simplification leaves as
/// floordivs and mods).
static bool isIdentityOn(AffineMap map, ArrayRef<int64_t> shape) {
  if (map.getNumResults() != shape.size() || map.getNumDims() != shape.size() ||
      map.getNumSymbols() != 0 || llvm::is_contained(shape, 0))
    return false;
  SmallVector<int64_t> index(shape.size(), 0);
  while (true) {
    if (map.compose(index) != index)
      return false;
    int64_t d = static_cast<int64_t>(shape.size()) - 1;
    for (; d >= 0 && ++index[d] == shape[d]; --d)
      index[d] = 0;
    if (d < 0)
      return true;
  }
}

/// Whether the lanes or MMAs through descriptors (core matrices) read
/// every element of `tile` they use, directly or through slices.
static bool isReadByLanesOrMmas(Value tile) {
  return llvm::all_of(tile.getUsers(), [](Operation *user) {
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
      return isReadByLanesOrMmas(slice.getResult());
    return isa<vector::TransferReadOp, tensor::ExtractOp, WarpLoadMatricesOp,
               TileDescriptorOp>(user);
  });
}

/// The tile at the end of a chain of gathers from `pad` (each the only
/// user of the one before, one of them not a transpose: V^T in P's key
/// order, a tile of core matrices) that only the lanes or MMAs through
/// descriptors read, with the map from its indices to the window's (the
/// identity for the links that only undo how the window is stored).
static std::optional<std::pair<Value, AffineMap>>
getLaneReadGather(tensor::PadOp pad) {
  Value tile = pad.getResult();
  AffineMap map = AffineMap::getMultiDimIdentityMap(
      pad.getResultType().getRank(), pad.getContext());
  bool rearranges = false;
  while (tile.hasOneUse()) {
    Operation *user = *tile.user_begin();
    if (user->getNumResults() != 1)
      break;
    auto gather = getGatherSource(user->getResult(0));
    if (!gather || gather->second != tile)
      break;
    map = map.compose(gather->first);
    rearranges |= !gather->first.isPermutation();
    tile = user->getResult(0);
    // What the chain so far only undoes is no rearrangement.
    auto type = cast<RankedTensorType>(tile.getType());
    if (type.hasStaticShape() && isIdentityOn(map, type.getShape()))
      map =
          AffineMap::getMultiDimIdentityMap(map.getNumDims(), map.getContext());
  }
  auto type = cast<RankedTensorType>(tile.getType());
  if (!rearranges || !isReadByLanesOrMmas(tile) || !type.hasStaticShape())
    return std::nullopt;
  return std::make_pair(tile, map);
}

/// The gathers from `pad` to `tile` as one sage.stage_tile of the window
/// along `map` into workgroup memory.
static void stageGather(RewriterBase &rewriter, tensor::PadOp pad, Value tile,
                        AffineMap map) {
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  Value padding = getPaddingBefore(rewriter, pad);
  auto type = cast<RankedTensorType>(tile.getType());
  Value buffer = allocateInWorkgroup(rewriter, loc, type);
  Value staged =
      StageTileOp::create(rewriter, loc, type, pad.getSource(), padding, buffer,
                          map.isIdentity() ? nullptr : AffineMapAttr::get(map))
          .getResult();
  // The chain, last link first.
  Operation *link = tile.getDefiningOp();
  rewriter.replaceAllUsesWith(tile, staged);
  while (link != pad) {
    Operation *previous = cast<linalg::LinalgOp>(link)
                              .getDpsInputOperand(0)
                              ->get()
                              .getDefiningOp();
    rewriter.eraseOp(link);
    link = previous;
  }
  rewriter.eraseOp(pad);
}

/// `matvec`, whose result the lanes read, computed into workgroup memory.
/// Its initial value must be a fill (the tile level's zero).
static void promoteMatvec(RewriterBase &rewriter, linalg::MatvecOp matvec) {
  Value init = matvec.getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics())
    return;
  Location loc = matvec.getLoc();
  rewriter.setInsertionPoint(matvec);
  auto type = cast<RankedTensorType>(init.getType());
  Value buffer = allocateInWorkgroup(rewriter, loc, type);
  Value filled = linalg::FillOp::create(rewriter, loc, fill.getInputs(), buffer)
                     .getResult(0);
  Value vector = matvec.getDpsInputs()[1];
  auto pad = matvec.getDpsInputs()[0].getDefiningOp<tensor::PadOp>();
  bool zeroPadded =
      pad && isPaddedWindow(pad) &&
      (matchPattern(pad.getConstantPaddingValue(), m_Zero()) ||
       matchPattern(pad.getConstantPaddingValue(), m_PosZeroFloat()));
  if (!zeroPadded) {
    rewriter.replaceOpWithNewOp<linalg::MatvecOp>(
        matvec, TypeRange{type}, matvec.getDpsInputs(), ValueRange{filled});
    return;
  }
  // Zero rows add nothing: the window's rows only, into their part.
  Value window = pad.getSource();
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  OpFoldResult rows = tensor::getMixedSize(rewriter, loc, window, 0);
  Value part = tensor::ExtractSliceOp::create(
      rewriter, loc, filled, ArrayRef<OpFoldResult>{zero},
      ArrayRef<OpFoldResult>{rows}, ArrayRef<OpFoldResult>{one});
  Value product =
      linalg::MatvecOp::create(rewriter, loc, TypeRange{part.getType()},
                               ValueRange{window, vector}, ValueRange{part})
          .getResult(0);
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
      matvec, product, filled, ArrayRef<OpFoldResult>{zero},
      ArrayRef<OpFoldResult>{rows}, ArrayRef<OpFoldResult>{one});
  if (pad->use_empty())
    rewriter.eraseOp(pad);
}

/// Whether `op` can move to just after `anchor`, in the same block, with
/// the producers of its operands that follow `anchor`: none of them may
/// touch memory (an allocation of a tile aside).
static bool canHoist(Operation *op, Operation *anchor) {
  if (op == anchor || op->isBeforeInBlock(anchor))
    return true;
  if (!isMemoryEffectFree(op) && !isa<bufferization::AllocTensorOp>(op))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    Operation *producer = operand.getDefiningOp();
    return !producer || producer->getBlock() != anchor->getBlock() ||
           canHoist(producer, anchor);
  });
}

/// Moves `op` to just after `anchor`, its producers first (canHoist holds),
/// and makes the last op moved the anchor: what is moved keeps its order
/// of definitions, whichever op follows the anchor.
static void hoist(Operation *op, Operation *&anchor) {
  if (op == anchor || op->isBeforeInBlock(anchor))
    return;
  for (Value operand : op->getOperands())
    if (Operation *producer = operand.getDefiningOp();
        producer && producer->getBlock() == anchor->getBlock())
      hoist(producer, anchor);
  op->moveAfter(anchor);
  anchor = op;
}

/// Gathers what the lanes read of each block's staged tiles at the first
/// tile: its copies one after another, then the products into workgroup
/// memory (dS), so that sage-lower-staging waits for one group of copies
/// and synchronizes the CTA as few times as it can.
static void gatherStaging(Block &block) {
  SmallVector<Operation *> staged;
  for (Operation &op : block)
    if (isa<StageTileOp>(op))
      staged.push_back(&op);
  for (Operation &op : block)
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op);
        insert && insert.getSource().getDefiningOp<linalg::MatvecOp>() &&
        isInWorkgroupMemory(insert.getResult()))
      staged.push_back(&op);
  if (staged.size() < 2)
    return;
  Operation *anchor = staged.front();
  for (Operation *op : ArrayRef(staged).drop_front())
    if (canHoist(op, anchor))
      hoist(op, anchor);
}

/// Refuses windows of 2- to 7-bit elements (INT4 Q and K): they live
/// packed, several to a byte, while the staging copies, the lanes' reads
/// and the buffers below this level address whole elements (an i4 memref
/// lowers to a byte an element), so they would misread packed data.
/// (i1 masks are stored a byte an element.)
static LogicalResult checkWholeByteWindows(scf::ForallOp grid) {
  WalkResult walk = grid.walk([](tensor::PadOp pad) {
    Type element = pad.getResultType().getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() >= 8 ||
        element.getIntOrFloatBitWidth() == 1)
      return WalkResult::advance();
    pad.emitOpError() << "pads a window of " << element
                      << " values, which are stored packed; the levels "
                         "address whole bytes (sage-pack-int4 stores i4 "
                         "tiles as their bytes first)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

namespace {

struct PromoteTilesPass
    : public sage::impl::SagePromoteTilesBase<PromoteTilesPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids;
    getOperation()->walk([&](scf::ForallOp grid) {
      if (grid.getMapping())
        grids.push_back(grid);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids)
      if (failed(checkWholeByteWindows(grid)))
        return signalPassFailure();
    for (scf::ForallOp grid : grids) {
      // Products first: a window only they read then needs no staging.
      SmallVector<linalg::MatvecOp> products;
      grid.walk([&](linalg::MatvecOp matvec) {
        if (matvec.hasPureTensorSemantics() &&
            isReadByLanes(matvec.getResult(0)))
          products.push_back(matvec);
      });
      for (linalg::MatvecOp matvec : products)
        promoteMatvec(rewriter, matvec);
      SmallVector<std::tuple<tensor::PadOp, Value, AffineMap>> gathers;
      grid.walk([&](tensor::PadOp pad) {
        if (!isPaddedWindow(pad))
          return;
        if (auto gather = getLaneReadGather(pad))
          gathers.emplace_back(pad, gather->first, gather->second);
      });
      for (auto [pad, tile, map] : gathers)
        stageGather(rewriter, pad, tile, map);
      SmallVector<tensor::PadOp> windows;
      grid.walk([&](tensor::PadOp pad) {
        if (isPaddedWindow(pad) && !pad->use_empty() &&
            isReadByLanes(pad.getResult()))
          windows.push_back(pad);
      });
      for (tensor::PadOp pad : windows)
        stagePaddedWindow(rewriter, pad);
      SmallVector<Block *> blocks;
      grid.walk([&](StageTileOp op) {
        if (!llvm::is_contained(blocks, op->getBlock()))
          blocks.push_back(op->getBlock());
      });
      for (Block *block : blocks)
        gatherStaging(*block);
      // A lane's reads of a tile staged before the K/V loop (Q) leave the
      // loop: they are reads of registers' worth of workgroup memory that
      // the loop does not change. Only loops inside the grid: its thread
      // ids must stay in it.
      grid.walk([](scf::ForOp loop) { moveLoopInvariantCode(loop); });
    }
  }
};

} // namespace
