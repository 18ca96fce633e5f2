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
//   #gpu.address_space<workgroup>);
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

bool mlir::sage::isInWorkgroupMemory(Value tile) {
  while (Operation *op = tile.getDefiningOp()) {
    if (auto alloc = dyn_cast<bufferization::AllocTensorOp>(op))
      return alloc.getMemorySpace() &&
             gpu::GPUDialect::isWorkgroupMemoryAddressSpace(
                 *alloc.getMemorySpace());
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      tile = slice.getSource();
    } else if (auto slice = dyn_cast<tensor::InsertSliceOp>(op)) {
      tile = slice.getDest();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      auto result = cast<OpResult>(tile);
      tile = dps.getDpsInitOperand(result.getResultNumber())->get();
    } else {
      return false;
    }
  }
  return false;
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
/// or through a transpose (V^T) the lanes read.
static bool isReadByLanes(Value tile) {
  return llvm::all_of(tile.getUsers(), [](Operation *user) {
    if (isa<vector::TransferReadOp, tensor::ExtractOp>(user))
      return true;
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

/// `pad` as a sage.stage_tile of its window into workgroup memory. A
/// constant the pad's body defines is made before it.
static void stagePaddedWindow(RewriterBase &rewriter, tensor::PadOp pad) {
  rewriter.setInsertionPoint(pad);
  Location loc = pad.getLoc();
  Value padding = pad.getConstantPaddingValue();
  if (pad.getRegion().isAncestor(padding.getParentRegion()))
    padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
  Value buffer = allocateInWorkgroup(rewriter, loc, pad.getResultType());
  rewriter.replaceOpWithNewOp<StageTileOp>(pad, pad.getResultType(),
                                           pad.getSource(), padding, buffer);
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

/// Whether `op` can move before `point`, in the same block, with the
/// producers of its operands that follow `point`: none of them may touch
/// memory (an allocation of a tile aside).
static bool canHoist(Operation *op, Operation *point) {
  if (!op->isBeforeInBlock(point) && op != point) {
    if (!isMemoryEffectFree(op) && !isa<bufferization::AllocTensorOp>(op))
      return false;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == point->getBlock() &&
          !canHoist(producer, point))
        return false;
    }
  }
  return true;
}

/// Moves `op` before `point` with those producers (canHoist holds).
static void hoist(Operation *op, Operation *point) {
  if (op->isBeforeInBlock(point) || op == point)
    return;
  for (Value operand : op->getOperands())
    if (Operation *producer = operand.getDefiningOp();
        producer && producer->getBlock() == point->getBlock())
      hoist(producer, point);
  op->moveBefore(point);
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
  Operation *point = staged.front()->getNextNode();
  for (Operation *op : ArrayRef(staged).drop_front())
    if (canHoist(op, point))
      hoist(op, point);
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
