//===- LaunchGrid.cpp - a bufferized, distributed grid as a gpu.launch ----===//
//
// The last step from the distribute level to a kernel (docs/Levels.md,
// "From lanes to a kernel"). After sage-distribute-tiles, sage-fold-lane-
// reads and one-shot bufferization, a grid is an scf.forall over thread
// blocks whose body runs on every lane, and whose output tile is a
// sage.from_lanes copied into the result. This pass
//
// * replaces that copy by each lane's stores of its elements
//   (vector.transfer_write, out of bounds allowed: a row past the end of
//   the output, the padded queries of the last Q block, is not written);
// * turns the forall into a gpu.launch of as many blocks as the grid has
//   points (none where it has none), each of 32 threads a warp of the fragment
//   encodings, the grid's induction variables becoming the block ids its
//   mapping names.
//
// Upstream gpu-kernel-outlining then makes the gpu.func.
//
//===----------------------------------------------------------------------===//

#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGELAUNCHGRID
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The threads of one block of `grid`: 32 a warp of the fragment encodings
/// its lanes hold their output in.
static FailureOr<int64_t> getBlockThreads(scf::ForallOp grid) {
  std::optional<int64_t> warps;
  WalkResult walk = grid.walk([&](FromLanesOp op) {
    std::optional<int64_t> held = getEncodingWarps(op.getLayout());
    if (!held)
      return WalkResult::advance();
    if (warps && *warps != *held) {
      op.emitOpError() << "is held by " << *held
                       << " warps, but another tile of its grid by " << *warps;
      return WalkResult::interrupt();
    }
    warps = held;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!warps)
    return grid.emitOpError()
           << "has no output tile held by the lanes of warps "
              "(sage.from_lanes), so nothing says how many threads a block "
              "has; run sage-distribute-tiles first";
  return *warps * 32;
}

/// `copy` of a sage.from_lanes tile (or its view at the origin) into the
/// grid's output: each lane writes its runs of elements where they sit in
/// the tile, past the destination's end not at all. False where `copy` is
/// another copy.
static FailureOr<bool> storeLanes(RewriterBase &rewriter, memref::CopyOp copy) {
  Value source = copy.getSource();
  auto view = source.getDefiningOp<memref::SubViewOp>();
  if (view) {
    if (!view.hasZeroOffset() || !view.hasUnitStride())
      return false;
    source = view.getSource();
  }
  auto buffer = source.getDefiningOp<bufferization::ToBufferOp>();
  auto lanes =
      buffer ? buffer.getTensor().getDefiningOp<FromLanesOp>() : FromLanesOp();
  if (!lanes)
    return false;
  auto dest = cast<MemRefType>(copy.getTarget().getType());
  ArrayRef<int64_t> shape = lanes.getType().getShape();
  if (shape.empty())
    return copy.emitOpError() << "copies a rank-0 tile the lanes hold; they "
                                 "store tiles of rank 1 or more";
  if (dest.getRank() != int64_t(shape.size()))
    return copy.emitOpError()
           << "copies a tile the lanes hold (" << lanes.getType()
           << ") into a destination of rank " << dest.getRank()
           << "; the lanes can store it only at its own rank";

  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  LaneIndices ix(rewriter, loc);
  Attribute layout = lanes.getLayout();
  SmallVector<SmallVector<Value>> coordinates =
      getLaneCoordinates(ix, layout, shape);
  int64_t run = getLaneRunLength(layout, shape);
  Value fragment = lanes.getFragment();
  int64_t elements = cast<VectorType>(fragment.getType()).getNumElements();
  SmallVector<int64_t> runShape(shape.size() - 1, 1);
  runShape.push_back(run);
  auto runType = VectorType::get(runShape, dest.getElementType());
  SmallVector<bool> inBounds(shape.size(), false);
  for (int64_t first = 0; first < elements; first += run) {
    Value part = vector::ExtractStridedSliceOp::create(
        rewriter, loc, fragment, ArrayRef<int64_t>{first},
        ArrayRef<int64_t>{run}, ArrayRef<int64_t>{1});
    Value shaped = vector::ShapeCastOp::create(rewriter, loc, runType, part);
    vector::TransferWriteOp::create(rewriter, loc, shaped, copy.getTarget(),
                                    coordinates[first], inBounds);
  }
  rewriter.eraseOp(copy);
  for (Operation *dead :
       {view.getOperation(), buffer.getOperation(), lanes.getOperation()})
    if (dead && dead->use_empty())
      rewriter.eraseOp(dead);
  return true;
}

/// The block dimension each of `grid`'s induction variables maps to, or a
/// diagnostic where the grid cannot become a launch. Checked before any
/// rewrite.
static FailureOr<SmallVector<int64_t>> checkGrid(scf::ForallOp grid) {
  if (grid.getNumResults() != 0)
    return grid.emitOpError()
           << "still returns tensors; bufferize the grid before launching it";
  Operation *parent = grid->getParentOp();
  while (
      parent && !isa<gpu::LaunchOp>(parent) &&
      !(isa<scf::ForallOp>(parent) && cast<scf::ForallOp>(parent).getMapping()))
    parent = parent->getParentOp();
  if (parent)
    return grid.emitOpError()
           << "is nested in another grid ('" << parent->getName()
           << "'); a launch's grid is its outermost";
  ArrayAttr mapping = *grid.getMapping();
  SmallVector<int64_t> dims;
  for (Attribute attr : mapping) {
    auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr);
    int64_t dim = block ? int64_t(block.getBlock()) : -1;
    if (dim < 0 || dim > 2)
      return grid.emitOpError()
             << "maps a dimension to " << attr
             << "; a grid is launched with #gpu.block<x>, <y> or <z>";
    if (llvm::is_contained(dims, dim))
      return grid.emitOpError() << "maps two dimensions to " << attr;
    dims.push_back(dim);
  }
  if (!grid.isNormalized())
    return grid.emitOpError()
           << "has lower bounds other than 0 or steps other than 1";
  if (auto ctas = grid->getAttrOfType<IntegerAttr>(kClusterCtasAttrName);
      ctas && (ctas.getInt() < 1 || ctas.getInt() > kMaxClusterCtas ||
               !llvm::is_contained(dims, 0)))
    return grid.emitOpError()
           << "asks for clusters of " << ctas.getInt()
           << " CTAs along #gpu.block<x>; a grid mapped to x launches "
              "clusters of 1 to "
           << kMaxClusterCtas;
  return dims;
}

/// `grid`, checked, as a gpu.launch of `threads` threads a block, its
/// induction variables the block ids `dims` name.
static void launchGrid(RewriterBase &rewriter, scf::ForallOp grid,
                       ArrayRef<int64_t> dims, int64_t threads) {
  Location loc = grid.getLoc();
  rewriter.setInsertionPoint(grid);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> sizes(3, one);
  for (auto [dim, bound] : llvm::zip(dims, grid.getMixedUpperBound()))
    sizes[dim] = getValueOrCreateConstantIndexOp(rewriter, loc, bound);
  Value blockThreads = arith::ConstantIndexOp::create(rewriter, loc, threads);
  // A grid of no points (no batch, heads or queries) launches nothing: CUDA
  // refuses a launch of zero blocks.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value points;
  for (int64_t dim : dims) {
    Value some = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                       sizes[dim], zero);
    points = points ? arith::AndIOp::create(rewriter, loc, points, some) : some;
  }
  if (!points)
    points = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  auto some = scf::IfOp::create(rewriter, loc, points,
                                /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(some.thenBlock());
  // A grid of clusters (sage-tile-attention's cluster-ctas) launches them
  // along x; the cluster's size comes with the launch.
  Value clusterX, clusterY, clusterZ;
  if (auto ctas = grid->getAttrOfType<IntegerAttr>(kClusterCtasAttrName)) {
    clusterX = arith::ConstantIndexOp::create(rewriter, loc, ctas.getInt());
    clusterY = clusterZ = one;
  }
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, sizes[0], sizes[1], sizes[2], blockThreads, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
      /*privateAttributions=*/{}, clusterX, clusterY, clusterZ);
  Block &body = launch.getBody().front();
  // MLIR 22's builder leaves out the cluster's ids and sizes, which the
  // region takes after the blocks' and threads'.
  if (clusterX && body.getNumArguments() == 12)
    for (int i = 0; i < 6; ++i)
      body.addArgument(rewriter.getIndexType(), loc);
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);

  gpu::KernelDim3 ids = launch.getBlockIds();
  SmallVector<Value> blockIds = {ids.x, ids.y, ids.z};
  SmallVector<Value> replacements;
  for (int64_t dim : dims)
    replacements.push_back(blockIds[dim]);
  rewriter.eraseOp(grid.getTerminator());
  rewriter.inlineBlockBefore(grid.getBody(), terminator, replacements);
  rewriter.eraseOp(grid);
}

namespace {

struct LaunchGridPass : public sage::impl::SageLaunchGridBase<LaunchGridPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> grids;
    getOperation()->walk([&](scf::ForallOp grid) {
      if (grid.getMapping())
        grids.push_back(grid);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp grid : grids) {
      FailureOr<SmallVector<int64_t>> dims = checkGrid(grid);
      if (failed(dims))
        return signalPassFailure();
      FailureOr<int64_t> threads = getBlockThreads(grid);
      if (failed(threads))
        return signalPassFailure();
      SmallVector<memref::CopyOp> copies;
      grid.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
      for (memref::CopyOp copy : copies)
        if (failed(storeLanes(rewriter, copy)))
          return signalPassFailure();
      WalkResult left = grid.walk([](FromLanesOp op) {
        if (op->use_empty())
          return WalkResult::advance();
        Operation *user = *op->user_begin();
        op.emitOpError() << "is used by '" << user->getName()
                         << "'; the lanes can store a tile they hold only "
                            "where the grid copies it into its output";
        return WalkResult::interrupt();
      });
      if (left.wasInterrupted())
        return signalPassFailure();
      // The body runs in every thread once launched: a buffer or a copy
      // left in it would be every thread's. Workgroup tiles the promote
      // level made are the CTA's (sage-lower-staging).
      WalkResult perThread = grid.walk([](Operation *op) {
        auto alloc = dyn_cast<memref::AllocOp>(op);
        if (alloc &&
            gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType()))
          return WalkResult::advance();
        if (!isa<memref::AllocOp, memref::AllocaOp, memref::CopyOp>(op))
          return WalkResult::advance();
        op->emitOpError() << "would run in every thread of the launched grid; "
                             "only the lanes' stores of their fragments may";
        return WalkResult::interrupt();
      });
      if (perThread.wasInterrupted())
        return signalPassFailure();
      launchGrid(rewriter, grid, *dims, *threads);
    }
  }
};

} // namespace
