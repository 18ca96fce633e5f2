//===- LaunchLoops.cpp - a host function's linalg ops as kernels ----------===//
//
// The host side's last level before outlining (docs/Levels.md, "The
// statistics and quantizers"). After bufferization and sage-launch-grid,
// the linalg ops and copies left outside any gpu.launch read and write
// device memory, which the host cannot touch. Each becomes linalg's
// parallel-loop form, whose scf.parallel is launched with one thread per
// point, flattened into a 1-D grid (the innermost dimension, the
// contiguous one, varies fastest between threads); its reductions stay
// scf.for loops that each thread runs in order, their output element
// carried in a register.
//
//===----------------------------------------------------------------------===//

#include "sage/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGELAUNCHLOOPS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

namespace {
/// The kernel names of one host function's launches: all in one module,
/// `<function>_loops`, the functions numbered, so that the attention's
/// kernel keeps the name outlining gives it (`<function>_kernel`).
struct KernelNames {
  FlatSymbolRefAttr module;
  int64_t next = 0;

  void name(gpu::LaunchOp launch) {
    launch.setModuleAttr(module);
    launch.setFunctionAttr(FlatSymbolRefAttr::get(
        module.getContext(), "loop_" + std::to_string(next++)));
  }
};
} // namespace

/// A gpu.launch of `blocks` x `threads` threads at the insertion point,
/// inside a check that the grid has points (CUDA refuses a launch of zero
/// blocks); the insertion point is left before the body's terminator.
static gpu::LaunchOp createLaunch(RewriterBase &rewriter, Location loc,
                                  Value blocks, Value threads,
                                  KernelNames &names) {
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value some = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                     blocks, zero);
  auto any = scf::IfOp::create(rewriter, loc, some, /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(any.thenBlock());
  auto launch =
      gpu::LaunchOp::create(rewriter, loc, blocks, one, one, threads, one, one);
  names.name(launch);
  rewriter.setInsertionPointToEnd(&launch.getBody().front());
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  return launch;
}

/// A reduction loop of linalg's loop form loads its output element and
/// stores it back every iteration, a round trip through memory; it is
/// carried in a register instead: loaded before the loop, stored after.
/// Applies where the loop's one store is the output's, at indices the loop
/// does not change, and the only load of that buffer the one before it.
static void carryAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
  SmallVector<memref::StoreOp> stores;
  loop.walk([&](memref::StoreOp store) { stores.push_back(store); });
  if (stores.size() != 1 || stores[0]->getBlock() != loop.getBody())
    return;
  memref::StoreOp store = stores[0];
  auto outside = [&](Value value) {
    return loop.isDefinedOutsideOfLoop(value);
  };
  if (!outside(store.getMemRef()) || !llvm::all_of(store.getIndices(), outside))
    return;
  SmallVector<memref::LoadOp> loads;
  loop.walk([&](memref::LoadOp load) {
    if (load.getMemRef() == store.getMemRef())
      loads.push_back(load);
  });
  if (loads.size() != 1 || loads[0]->getBlock() != loop.getBody() ||
      loads[0].getIndices() != store.getIndices() ||
      !loads[0]->isBeforeInBlock(store))
    return;
  memref::LoadOp load = loads[0];
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value initial = memref::LoadOp::create(rewriter, loc, store.getMemRef(),
                                         store.getIndices());
  Value stored = store.getValueToStore();
  FailureOr<LoopLikeOpInterface> carried =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return SmallVector<Value>{stored};
              });
  if (failed(carried))
    return;
  auto newLoop = cast<scf::ForOp>(carried->getOperation());
  rewriter.replaceOp(load, newLoop.getRegionIterArgs().back());
  rewriter.setInsertionPointAfter(newLoop);
  memref::StoreOp::create(rewriter, loc, newLoop.getResults().back(),
                          store.getMemRef(), store.getIndices());
  rewriter.eraseOp(store);
}

/// The most points of a static innermost dimension one thread runs.
static constexpr int64_t kPointsPerThread = 16;

/// Whether `loop`'s innermost dimension is short and static (at most
/// kPointsPerThread points from 0, step 1) in a nest of more, without
/// reductions: one thread then runs its points, which share the other
/// dimensions' index computations (the grid's divisions by dynamic
/// extents) and are contiguous in a row-major output.
static bool isThreadLoop(scf::ParallelOp loop) {
  int64_t last = loop.getNumLoops() - 1;
  std::optional<int64_t> upper =
      getConstantIntValue(loop.getUpperBound()[last]);
  bool reduces = false;
  loop.getBody()->walk([&](scf::ForOp) { reduces = true; });
  return last > 0 && !reduces &&
         getConstantIntValue(loop.getLowerBound()[last]) == 0 &&
         getConstantIntValue(loop.getStep()[last]) == 1 && upper &&
         *upper <= kPointsPerThread;
}

/// The widest access a thread makes at once (bytes): one 16-byte vector.
static constexpr int64_t kVectorBytes = 16;

/// Whether `value` is `iv`, through an identity affine.apply.
static bool isInductionVar(Value value, Value iv) {
  if (auto apply = value.getDefiningOp<affine::AffineApplyOp>())
    if (apply.getAffineMap().isIdentity() && apply.getMapOperands().size() == 1)
      value = apply.getMapOperands()[0];
  return value == iv;
}

/// The thread loop's one store of a whole row, where it can be one vector
/// store: in the loop's body itself (not under a condition), of the row
/// the other induction variables pick (its last index the thread loop's
/// variable, through identity maps, the others independent of it), into
/// a buffer allocated aligned whose rows are the loop's points exactly
/// (an identity layout of `points` elements a row: every row then starts
/// at a multiple of the row's bytes). Null where there is no such store.
static memref::StoreOp getRowStore(scf::ParallelOp loop, int64_t points) {
  Value iv = loop.getInductionVars().back();
  SmallVector<memref::StoreOp> stores;
  loop.getBody()->walk([&](memref::StoreOp store) { stores.push_back(store); });
  if (stores.size() != 1 || stores[0]->getBlock() != loop.getBody())
    return {};
  memref::StoreOp store = stores[0];
  auto type = cast<MemRefType>(store.getMemRef().getType());
  auto alloc = store.getMemRef().getDefiningOp<memref::AllocOp>();
  int64_t bytes = points * type.getElementTypeBitWidth() / 8;
  if (points < 2 || !alloc || !type.getLayout().isIdentity() ||
      type.getShape().back() != points ||
      type.getElementTypeBitWidth() % 8 != 0 || bytes > kVectorBytes ||
      !llvm::isPowerOf2_64(bytes) ||
      static_cast<int64_t>(alloc.getAlignment().value_or(0)) < bytes)
    return {};
  auto isIv = [&](Value index) { return isInductionVar(index, iv); };
  SetVector<Operation *> dependent;
  getForwardSlice(iv, &dependent);
  ValueRange indices = store.getIndices();
  if (!isIv(indices.back()))
    return {};
  for (Value index : indices.drop_back())
    if (index == iv ||
        (index.getDefiningOp() && dependent.contains(index.getDefiningOp())))
      return {};
  return store;
}

namespace {
/// A load of a thread loop's body that reads, over the loop's points, one
/// contiguous run of a row: its last index is the loop's variable plus an
/// offset, its others independent of it. Every point loads
/// unconditionally, so the run is in bounds, and one vector load of
/// `alignment` bytes (at most kVectorBytes) reads it where the buffer's
/// base is aligned: known for an aligned allocation, checked at run time
/// for a function's argument (`checkBase`), whose caller owns it.
struct RowLoad {
  memref::LoadOp load;
  int64_t alignment = 0;
  bool checkBase = false;
};
} // namespace

/// The offset `expr` adds to operand `position` of its map (of
/// `numDims` dimensions): `expr - operand`, where that is independent of
/// the operand; nothing otherwise.
static std::optional<AffineExpr> getOffsetFrom(AffineExpr expr,
                                               unsigned position,
                                               unsigned numDims,
                                               unsigned numSymbols) {
  MLIRContext *context = expr.getContext();
  AffineExpr operand = position < numDims
                           ? getAffineDimExpr(position, context)
                           : getAffineSymbolExpr(position - numDims, context);
  AffineExpr offset = simplifyAffineExpr(
      expr.replace(operand, getAffineConstantExpr(0, context)), numDims,
      numSymbols);
  bool independent = position < numDims
                         ? !offset.isFunctionOfDim(position)
                         : !offset.isFunctionOfSymbol(position - numDims);
  if (!independent ||
      simplifyAffineExpr(expr - offset, numDims, numSymbols) != operand)
    return std::nullopt;
  return offset;
}

/// The loads of `body` that one vector load each can make over `points`
/// consecutive values of the variable `iv` from a multiple of `points`
/// (RowLoad).
static SmallVector<RowLoad> getRunLoads(Block *body, Value iv, int64_t points) {
  SetVector<Operation *> dependent;
  getForwardSlice(iv, &dependent);
  auto dependsOnIv = [&](Value value) {
    return value == iv ||
           (value.getDefiningOp() && dependent.contains(value.getDefiningOp()));
  };
  SmallVector<RowLoad> rowLoads;
  for (auto load : body->getOps<memref::LoadOp>()) {
    auto type = cast<MemRefType>(load.getMemRef().getType());
    if (load.use_empty() || type.getRank() == 0 ||
        !type.getLayout().isIdentity() ||
        type.getElementTypeBitWidth() % 8 != 0 ||
        ShapedType::isDynamic(type.getShape().back()) ||
        llvm::any_of(load.getIndices().drop_back(), dependsOnIv))
      continue;
    // The run's first element: an offset from the loop's variable.
    Value last = load.getIndices().back();
    std::optional<AffineExpr> offset;
    auto isIv = [&](Value value) { return isInductionVar(value, iv); };
    if (isIv(last)) {
      offset = getAffineConstantExpr(0, load.getContext());
    } else if (auto apply = last.getDefiningOp<affine::AffineApplyOp>()) {
      AffineMap map = apply.getAffineMap();
      ValueRange operands = apply.getMapOperands();
      auto position = llvm::find_if(operands, isIv) - operands.begin();
      if (llvm::count_if(operands, isIv) != 1 ||
          llvm::any_of(operands, [&](Value operand) {
            return !isIv(operand) && dependsOnIv(operand);
          }))
        continue;
      offset = getOffsetFrom(map.getResult(0), position, map.getNumDims(),
                             map.getNumSymbols());
    }
    if (!offset)
      continue;
    // The alignment of the run's first byte from an aligned base: the
    // offset's known divisor, and the row's length (every row of an
    // identity layout starts at a multiple of it).
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    int64_t bytes = points * elementBytes;
    int64_t alignment = std::min<int64_t>(
        kVectorBytes, int64_t(1) << llvm::countr_zero(uint64_t(bytes)));
    auto divisible = [&](int64_t elements) {
      return elements == 0 || (elements * elementBytes) % alignment == 0;
    };
    auto constantOffset = dyn_cast<AffineConstantExpr>(*offset);
    int64_t divisor = constantOffset ? constantOffset.getValue()
                                     : offset->getLargestKnownDivisor();
    if (alignment <= elementBytes || !divisible(divisor) ||
        (type.getRank() > 1 && !divisible(type.getShape().back())))
      continue;
    RowLoad rowLoad{load, alignment};
    if (auto alloc = load.getMemRef().getDefiningOp<memref::AllocOp>()) {
      if (static_cast<int64_t>(alloc.getAlignment().value_or(0)) < alignment)
        continue;
    } else if (isa<BlockArgument>(load.getMemRef())) {
      rowLoad.checkBase = true;
    } else {
      continue;
    }
    rowLoads.push_back(rowLoad);
  }
  return rowLoads;
}

/// Whether the caller's buffers that `runs` read are aligned for their
/// vector loads, checked at run time (RowLoad::checkBase); null where none
/// needs the check.
static Value createAlignmentCheck(RewriterBase &rewriter, Location loc,
                                  ArrayRef<RowLoad> runs) {
  Value aligned;
  for (const RowLoad &run : runs) {
    if (!run.checkBase)
      continue;
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        rewriter, loc, memref::LoadOp(run.load).getMemRef());
    Value misalignment = arith::RemUIOp::create(
        rewriter, loc, base,
        arith::ConstantIndexOp::create(rewriter, loc, run.alignment));
    Value isAligned = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, misalignment,
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    aligned = aligned ? arith::AndIOp::create(rewriter, loc, aligned, isAligned)
                      : isAligned;
  }
  return aligned;
}

/// The points of the second innermost dimension a thread with a row store
/// takes where the rows' loads run along that dimension (getColumnCount).
static constexpr int64_t kColumnPoints = 8;

/// How many consecutive points of `loop`'s second innermost dimension one
/// thread takes besides its row (`rowLoads`: the loads that run along the
/// row): kColumnPoints where some other load reads contiguous elements
/// along that dimension (a transpose, V^T's quantizer: its row is 16
/// tokens of one channel, its loads contiguous channels of one token) and
/// the dimension's static extent is a multiple of it; 1 otherwise. The
/// thread then loads each of those runs once for its rows.
static int64_t getColumnCount(scf::ParallelOp loop,
                              ArrayRef<RowLoad> rowLoads) {
  int64_t dim = loop.getNumLoops() - 2;
  std::optional<int64_t> extent =
      getConstantIntValue(loop.getUpperBound()[dim]);
  if (dim < 0 || getConstantIntValue(loop.getLowerBound()[dim]) != 0 ||
      getConstantIntValue(loop.getStep()[dim]) != 1 || !extent ||
      *extent % kColumnPoints != 0 || *extent == kColumnPoints)
    return 1;
  for (const RowLoad &column :
       getRunLoads(loop.getBody(), loop.getInductionVars()[dim], kColumnPoints))
    if (llvm::none_of(rowLoads, [&](const RowLoad &row) {
          return row.load == column.load;
        }))
      return kColumnPoints;
  return 1;
}

/// Lanes that share one point's row reduction (getRowReduction).
static constexpr int64_t kReductionLanes = 16;

/// The reduction of `loop` that kReductionLanes lanes can share: its one
/// loop, over a static multiple of the lanes from 0, whose one store keeps
/// the f32 maximum or minimum of the element it loads (an idempotent
/// combiner: every lane may start from that element, and the lanes'
/// partial results combine in any order, exactly), and whose other loads
/// read contiguous rows (their last index the loop's variable: a group
/// of lanes reads one contiguous run). Null otherwise.
static scf::ForOp getRowReduction(scf::ParallelOp loop) {
  SmallVector<scf::ForOp> loops;
  loop.getBody()->walk([&](scf::ForOp nested) { loops.push_back(nested); });
  if (loops.size() != 1 || loops[0]->getParentOp() != loop.getOperation())
    return {};
  scf::ForOp reduction = loops[0];
  std::optional<int64_t> extent =
      getConstantIntValue(reduction.getUpperBound());
  if (getConstantIntValue(reduction.getLowerBound()) != 0 ||
      getConstantIntValue(reduction.getStep()) != 1 || !extent ||
      *extent % kReductionLanes != 0)
    return {};
  // Hoisted as carryAccumulator will hoist them: linalg's loops compute
  // the output's indices in the innermost loop.
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(reduction.getOperation()));
  SmallVector<memref::StoreOp> stores;
  loop.getBody()->walk([&](memref::StoreOp store) { stores.push_back(store); });
  if (stores.size() != 1 || stores[0]->getBlock() != reduction.getBody())
    return {};
  memref::StoreOp store = stores[0];
  Operation *combine = store.getValueToStore().getDefiningOp();
  if (!isa_and_nonnull<arith::MaximumFOp, arith::MinimumFOp>(combine) ||
      !store.getValueToStore().getType().isF32())
    return {};
  auto isAccumulator = [&](Value operand) {
    auto load = operand.getDefiningOp<memref::LoadOp>();
    return load && load.getMemRef() == store.getMemRef() &&
           load.getIndices() == store.getIndices() &&
           load->getBlock() == store->getBlock() &&
           load->isBeforeInBlock(store);
  };
  if (!isAccumulator(combine->getOperand(0)) &&
      !isAccumulator(combine->getOperand(1)))
    return {};
  // What carryAccumulator needs: the element's indices do not change in
  // the loop, and its load is the buffer's only one there.
  auto outside = [&](Value value) {
    return reduction.isDefinedOutsideOfLoop(value);
  };
  int64_t accumulatorLoads = 0;
  reduction.getBody()->walk([&](memref::LoadOp load) {
    accumulatorLoads += load.getMemRef() == store.getMemRef();
  });
  if (accumulatorLoads != 1 || !outside(store.getMemRef()) ||
      !llvm::all_of(store.getIndices(), outside))
    return {};
  Value iv = reduction.getInductionVar();
  bool rows = true;
  reduction.getBody()->walk([&](memref::LoadOp load) {
    if (load.getMemRef() != store.getMemRef())
      rows &= !load.getIndices().empty() &&
              isInductionVar(load.getIndices().back(), iv);
  });
  return rows ? reduction : scf::ForOp();
}

/// The most consecutive elements of a row one lane of a shared row
/// reduction takes at a time (getLaneRuns).
static constexpr int64_t kLaneRunElements = 8;

/// How many consecutive positions of the row reduction `reduction` one
/// lane takes at a time, and the loads that then become one vector load a
/// run (`runs`, at most kVectorBytes each; a longer run is several):
/// the widest power of two up to kLaneRunElements that divides the
/// reduction's extent among kReductionLanes lanes and lets some load's
/// runs be aligned (getRunLoads' rules: an aligned allocation, or the
/// caller's buffer checked at run time). 1 where none can be.
static int64_t getLaneRuns(scf::ForOp reduction,
                           SmallVectorImpl<RowLoad> &runs) {
  int64_t extent = *getConstantIntValue(reduction.getUpperBound());
  for (int64_t width = kLaneRunElements; width > 1; width /= 2) {
    if (extent % (kReductionLanes * width) != 0)
      continue;
    runs.assign(
        getRunLoads(reduction.getBody(), reduction.getInductionVar(), width));
    if (!runs.empty())
      return width;
  }
  return 1;
}

/// Erases what nothing in `block` uses any more (the unrolled copies'
/// index computations of loads that became vector loads).
static void eraseDeadOps(RewriterBase &rewriter, Block *block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
    if (isOpTriviallyDead(&op))
      rewriter.eraseOp(&op);
}

/// A copy of the carried row reduction `reduction` in which lane `lane`
/// takes `width` consecutive positions at a time (lane * width, then
/// lanes * width further), its body unrolled over them and each of `runs`
/// loaded as vectors of at most kVectorBytes. Built at the insertion
/// point; returns its result. The maximum or minimum it carries is exact
/// in any order, so the lanes' partial results are the same set of
/// elements combined.
static Value createLaneRunReduction(RewriterBase &rewriter,
                                    scf::ForOp reduction, Value lane,
                                    int64_t width, ArrayRef<RowLoad> runs) {
  Location loc = reduction.getLoc();
  Value widthValue = arith::ConstantIndexOp::create(rewriter, loc, width);
  Value lower = arith::MulIOp::create(rewriter, loc, lane, widthValue);
  Value step =
      arith::ConstantIndexOp::create(rewriter, loc, kReductionLanes * width);
  auto runLoop =
      scf::ForOp::create(rewriter, loc, lower, reduction.getUpperBound(), step,
                         reduction.getInitArgs());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(runLoop.getBody());
  Value start = runLoop.getInductionVar();
  Value carried = runLoop.getRegionIterArgs().back();
  // Each run's elements, loaded at the first position.
  DenseMap<Operation *, SmallVector<Value>> loaded;
  for (int64_t i = 0; i < width; ++i) {
    IRMapping mapping;
    mapping.map(reduction.getRegionIterArgs().back(), carried);
    mapping.map(reduction.getInductionVar(),
                i == 0 ? start
                       : arith::AddIOp::create(
                             rewriter, loc, start,
                             arith::ConstantIndexOp::create(rewriter, loc, i))
                             .getResult());
    for (Operation &op : reduction.getBody()->without_terminator()) {
      auto run = llvm::find_if(
          runs, [&](const RowLoad &row) { return row.load == &op; });
      if (run == runs.end()) {
        rewriter.clone(op, mapping);
        continue;
      }
      auto load = cast<memref::LoadOp>(op);
      int64_t piece =
          run->alignment * 8 / load.getType().getIntOrFloatBitWidth();
      SmallVector<Value> &pieces = loaded[&op];
      if (i == 0) {
        SmallVector<Value> indices =
            llvm::map_to_vector(load.getIndices(), [&](Value index) {
              return mapping.lookupOrDefault(index);
            });
        for (int64_t first = 0; first < width; first += piece) {
          SmallVector<Value> at = indices;
          if (first > 0)
            at.back() = arith::AddIOp::create(
                rewriter, loc, start,
                arith::ConstantIndexOp::create(rewriter, loc, first));
          pieces.push_back(vector::LoadOp::create(
              rewriter, loc, VectorType::get({piece}, load.getType()),
              load.getMemRef(), at, /*nontemporal=*/false,
              llvm::MaybeAlign(run->alignment)));
        }
      }
      mapping.map(load.getResult(),
                  vector::ExtractOp::create(rewriter, loc, pieces[i / piece],
                                            i % piece));
    }
    carried = mapping.lookupOrDefault(
        reduction.getBody()->getTerminator()->getOperands().back());
  }
  scf::YieldOp::create(rewriter, loc, carried);
  eraseDeadOps(rewriter, runLoop.getBody());
  return runLoop.getResults().back();
}

/// Splits the carried row reduction `reduction` (after carryAccumulator)
/// among the kReductionLanes lanes of a group: lane `lane` runs positions
/// lane, lane + lanes, ..., or runs of consecutive positions loaded as
/// vectors where getLaneRuns finds them (behind a run-time check of the
/// caller's buffers' alignment, the positions one at a time otherwise);
/// the lanes' results are combined by shuffles within the group, and lane
/// 0 stores, where `inside`.
static void shareRowReduction(RewriterBase &rewriter, scf::ForOp reduction,
                              Value lane, Value inside) {
  Location loc = reduction.getLoc();
  rewriter.setInsertionPoint(reduction);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, kReductionLanes);
  rewriter.modifyOpInPlace(reduction, [&] {
    reduction.getLowerBoundMutable().assign(lane);
    reduction.getStepMutable().assign(step);
  });
  Value partial = reduction.getResults().back();
  auto store = cast<memref::StoreOp>(*partial.getUsers().begin());
  // (Read now: a lane-run version replaces the loop and its combiner.)
  bool maximum =
      isa<arith::MaximumFOp>(reduction.getBody()
                                 ->getTerminator()
                                 ->getOperand(reduction.getNumResults() - 1)
                                 .getDefiningOp());
  SmallVector<RowLoad> runs;
  if (int64_t width = getLaneRuns(reduction, runs); width > 1) {
    rewriter.setInsertionPointAfter(reduction);
    Value aligned = createAlignmentCheck(rewriter, loc, runs);
    if (!aligned) {
      Value runPartial =
          createLaneRunReduction(rewriter, reduction, lane, width, runs);
      rewriter.replaceAllUsesWith(partial, runPartial);
      rewriter.eraseOp(reduction);
      partial = runPartial;
    } else {
      // Both versions reduce the same elements; the caller's buffers pick.
      auto versions = scf::IfOp::create(rewriter, loc, partial.getType(),
                                        aligned, /*withElseRegion=*/true);
      rewriter.replaceAllUsesWith(partial, versions.getResult(0));
      rewriter.setInsertionPointToStart(versions.thenBlock());
      scf::YieldOp::create(
          rewriter, loc,
          createLaneRunReduction(rewriter, reduction, lane, width, runs));
      rewriter.setInsertionPointToStart(versions.elseBlock());
      auto elementWise = scf::YieldOp::create(rewriter, loc, partial);
      rewriter.moveOpBefore(reduction, elementWise);
      partial = versions.getResult(0);
    }
  }
  rewriter.setInsertionPoint(store);
  Value result = partial;
  for (int64_t offset = kReductionLanes / 2; offset >= 1; offset /= 2) {
    Value other = gpu::ShuffleOp::create(rewriter, loc, result, offset,
                                         /*width=*/32, gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    result = maximum ? arith::MaximumFOp::create(rewriter, loc, result, other)
                           .getResult()
                     : arith::MinimumFOp::create(rewriter, loc, result, other)
                           .getResult();
  }
  Value first =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, lane,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  Value stores = arith::AndIOp::create(rewriter, loc, inside, first);
  auto guard = scf::IfOp::create(rewriter, loc, stores,
                                 /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  memref::StoreOp::create(rewriter, loc, result, store.getMemRef(),
                          store.getIndices());
  rewriter.eraseOp(store);
}

/// Consecutive points of the innermost dimension one thread takes where
/// each point runs a reduction along another dimension (getColumnReduction).
static constexpr int64_t kReductionColumns = 8;

/// The reduction of `loop`'s points that a thread can run for
/// kReductionColumns consecutive points of the innermost dimension at once
/// (a column reduction: K's means and V's channel maxima, a point a chunk
/// of tokens and a channel): the body's one loop, its bounds constants or
/// defined outside `loop`, which only reads memory and loads
/// runs along that dimension (`runs`: getRunLoads); the dimension from 0 by 1
/// to a static multiple of the columns. Null otherwise.
static scf::ForOp getColumnReduction(scf::ParallelOp loop,
                                     SmallVectorImpl<RowLoad> &runs) {
  int64_t dim = loop.getNumLoops() - 1;
  std::optional<int64_t> extent =
      getConstantIntValue(loop.getUpperBound()[dim]);
  auto loops = llvm::to_vector(loop.getBody()->getOps<scf::ForOp>());
  if (getConstantIntValue(loop.getLowerBound()[dim]) != 0 ||
      getConstantIntValue(loop.getStep()[dim]) != 1 || !extent ||
      *extent % kReductionColumns != 0 || loops.size() != 1)
    return {};
  scf::ForOp reduction = loops[0];
  auto invariant = [&](Value value) {
    return loop.isDefinedOutsideOfLoop(value) ||
           matchPattern(value, m_Constant());
  };
  if (!invariant(reduction.getLowerBound()) ||
      !invariant(reduction.getUpperBound()) || !invariant(reduction.getStep()))
    return {};
  // Only reads: the columns' iterations may interleave.
  WalkResult readsOnly = reduction.getBody()->walk([&](Operation *op) {
    return isPure(op) || isa<memref::LoadOp>(op) ? WalkResult::advance()
                                                 : WalkResult::interrupt();
  });
  if (readsOnly.wasInterrupted())
    return {};
  runs.assign(getRunLoads(reduction.getBody(), loop.getInductionVars()[dim],
                          kReductionColumns));
  return runs.empty() ? scf::ForOp() : reduction;
}

/// `loop`'s body (getColumnReduction) for `columns` consecutive points of
/// its innermost dimension, the first at `mapping`'s: what precedes and
/// follows the reduction once a column, the columns' reductions one loop
/// carrying each column's values, in which `runs` are vector loads (behind
/// a run-time check of the caller's buffers' alignment, the columns'
/// elements one at a time otherwise). Each column reduces its elements in
/// its own order, as before.
static void cloneReductionColumns(RewriterBase &rewriter, scf::ParallelOp loop,
                                  scf::ForOp reduction, IRMapping &mapping,
                                  int64_t columns, ArrayRef<RowLoad> runs) {
  Location loc = loop.getLoc();
  Value iv = loop.getInductionVars().back();
  SmallVector<IRMapping> columnMappings(columns, mapping);
  for (int64_t c = 1; c < columns; ++c)
    columnMappings[c].map(
        iv, arith::AddIOp::create(
                rewriter, loc, mapping.lookup(iv),
                arith::ConstantIndexOp::create(rewriter, loc, c)));
  Block *body = loop.getBody();
  auto before = llvm::make_range(body->begin(), reduction->getIterator());
  auto after = llvm::make_range(std::next(reduction->getIterator()),
                                body->getTerminator()->getIterator());
  for (IRMapping &columnMapping : columnMappings)
    for (Operation &op : before)
      rewriter.clone(op, columnMapping);
  int64_t carried = reduction.getNumRegionIterArgs();
  auto createFused = [&](bool vectorLoads) -> ValueRange {
    SmallVector<Value> inits;
    for (IRMapping &columnMapping : columnMappings)
      for (Value init : reduction.getInitArgs())
        inits.push_back(columnMapping.lookupOrDefault(init));
    IRMapping &first = columnMappings.front();
    auto fused = scf::ForOp::create(
        rewriter, loc, first.lookupOrDefault(reduction.getLowerBound()),
        first.lookupOrDefault(reduction.getUpperBound()),
        first.lookupOrDefault(reduction.getStep()), inits);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(fused.getBody());
    DenseMap<std::pair<Operation *, int64_t>, Value> loaded;
    SmallVector<Value> yields;
    for (auto [c, columnMapping] : llvm::enumerate(columnMappings)) {
      IRMapping iteration = columnMapping;
      iteration.map(reduction.getInductionVar(), fused.getInductionVar());
      iteration.map(reduction.getRegionIterArgs(),
                    fused.getRegionIterArgs().slice(c * carried, carried));
      for (Operation &op : reduction.getBody()->without_terminator()) {
        auto run = llvm::find_if(
            runs, [&](const RowLoad &row) { return row.load == &op; });
        if (!vectorLoads || run == runs.end()) {
          rewriter.clone(op, iteration);
          continue;
        }
        // A vector of `piece` columns, loaded at its first column's
        // indices.
        auto load = cast<memref::LoadOp>(op);
        int64_t piece =
            run->alignment * 8 / load.getType().getIntOrFloatBitWidth();
        std::pair<Operation *, int64_t> key(&op, int64_t(c) / piece);
        if (c % piece == 0)
          loaded[key] = vector::LoadOp::create(
              rewriter, loc, VectorType::get({piece}, load.getType()),
              iteration.lookupOrDefault(load.getMemRef()),
              llvm::map_to_vector(load.getIndices(),
                                  [&](Value index) {
                                    return iteration.lookupOrDefault(index);
                                  }),
              /*nontemporal=*/false, llvm::MaybeAlign(run->alignment));
        iteration.map(load.getResult(),
                      vector::ExtractOp::create(rewriter, loc, loaded[key],
                                                int64_t(c) % piece));
      }
      for (Value yielded : reduction.getBody()->getTerminator()->getOperands())
        yields.push_back(iteration.lookupOrDefault(yielded));
    }
    scf::YieldOp::create(rewriter, loc, yields);
    eraseDeadOps(rewriter, fused.getBody());
    return fused.getResults();
  };
  SmallVector<Value> results;
  if (Value aligned = createAlignmentCheck(rewriter, loc, runs)) {
    // Both versions compute the same values; the caller's buffers pick.
    SmallVector<Type> types;
    for (int64_t c = 0; c < columns; ++c)
      llvm::append_range(types, reduction.getResultTypes());
    auto versions = scf::IfOp::create(rewriter, loc, types, aligned,
                                      /*withElseRegion=*/true);
    for (auto [block, vectorLoads] : {std::pair(versions.thenBlock(), true),
                                      std::pair(versions.elseBlock(), false)}) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(block);
      scf::YieldOp::create(rewriter, loc, createFused(vectorLoads));
    }
    llvm::append_range(results, versions.getResults());
  } else {
    llvm::append_range(results, createFused(/*vectorLoads=*/true));
  }
  for (auto [c, columnMapping] : llvm::enumerate(columnMappings)) {
    columnMapping.map(reduction.getResults(),
                      ArrayRef(results).slice(c * carried, carried));
    for (Operation &op : after)
      rewriter.clone(op, columnMapping);
  }
}

/// `loop` run by one thread of a grid of its points each (of the others,
/// where the innermost dimension is a thread's loop: isThreadLoop).
static void launchParallel(RewriterBase &rewriter, scf::ParallelOp loop,
                           int64_t blockSize, KernelNames &names) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  bool threadLoop = isThreadLoop(loop);
  int64_t gridLoops = loop.getNumLoops() - (threadLoop ? 1 : 0);
  int64_t points =
      threadLoop ? *getConstantIntValue(loop.getUpperBound().back()) : 0;
  memref::StoreOp rowStore =
      threadLoop ? getRowStore(loop, points) : memref::StoreOp();
  SmallVector<RowLoad> rowLoads, columnLoads;
  int64_t columns = 1;
  if (rowStore) {
    rowLoads =
        getRunLoads(loop.getBody(), loop.getInductionVars().back(), points);
    columns = getColumnCount(loop, rowLoads);
    if (columns > 1)
      for (const RowLoad &column : getRunLoads(
               loop.getBody(), loop.getInductionVars()[gridLoops - 1], columns))
        if (llvm::none_of(rowLoads, [&](const RowLoad &row) {
              return row.load == column.load;
            }))
          columnLoads.push_back(column);
  }
  // A row reduction is shared by a group of lanes a point (the loop's
  // indices computed once first: linalg's loops compute the output's for
  // its load and again for its store); a column reduction's thread takes
  // several columns.
  scf::ForOp rowReduction, columnReduction;
  SmallVector<RowLoad> columnRuns;
  if (!threadLoop) {
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, loop);
    rowReduction = getRowReduction(loop);
    if (!rowReduction)
      columnReduction = getColumnReduction(loop, columnRuns);
    if (columnReduction)
      columns = kReductionColumns;
  }
  SmallVector<Value> counts;
  Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [i, lower, upper, step] :
       llvm::enumerate(loop.getLowerBound().take_front(gridLoops),
                       loop.getUpperBound().take_front(gridLoops),
                       loop.getStep().take_front(gridLoops))) {
    Value extent = arith::SubIOp::create(rewriter, loc, upper, lower);
    // A thread's columns (getColumnCount, getColumnReduction) are one grid
    // point.
    Value stride =
        int64_t(i) == gridLoops - 1 && columns > 1
            ? arith::ConstantIndexOp::create(rewriter, loc, columns).getResult()
            : step;
    Value count = arith::CeilDivUIOp::create(rewriter, loc, extent, stride);
    counts.push_back(count);
    total = arith::MulIOp::create(rewriter, loc, total, count);
  }
  int64_t lanes = rowReduction ? kReductionLanes : 1;
  Value threads = arith::ConstantIndexOp::create(rewriter, loc, blockSize);
  Value laneCount = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  Value work = rowReduction
                   ? arith::MulIOp::create(rewriter, loc, total, laneCount)
                   : total;
  Value blocks = arith::CeilDivUIOp::create(rewriter, loc, work, threads);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, blocks, threads, names);

  // point = (block * threads + thread) / lanes, then its coordinates, the
  // last dimension fastest.
  Value block =
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threads);
  Value global =
      arith::AddIOp::create(rewriter, loc, block, launch.getThreadIds().x);
  Value point = rowReduction
                    ? arith::DivUIOp::create(rewriter, loc, global, laneCount)
                    : global;
  Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       point, total);
  Operation *body = launch;
  if (rowReduction) {
    // Every lane runs the group's shuffles: a point past the end computes
    // the last point's reduction again, and only stores are guarded.
    Value last = arith::SubIOp::create(
        rewriter, loc, total, arith::ConstantIndexOp::create(rewriter, loc, 1));
    point = arith::SelectOp::create(rewriter, loc, inside, point, last);
  } else {
    auto guard = scf::IfOp::create(rewriter, loc, inside,
                                   /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(guard.thenBlock());
    body = guard;
  }
  IRMapping mapping;
  Value rest = point;
  for (int64_t i = gridLoops - 1; i >= 0; --i) {
    Value index = arith::RemUIOp::create(rewriter, loc, rest, counts[i]);
    if (i > 0)
      rest = arith::DivUIOp::create(rewriter, loc, rest, counts[i]);
    Value step =
        i == gridLoops - 1 && columns > 1
            ? arith::ConstantIndexOp::create(rewriter, loc, columns).getResult()
            : loop.getStep()[i];
    Value offset = arith::MulIOp::create(rewriter, loc, index, step);
    Value iv =
        arith::AddIOp::create(rewriter, loc, loop.getLowerBound()[i], offset);
    mapping.map(loop.getInductionVars()[i], iv);
  }
  if (rowStore) {
    // The thread's row in one vector store: its points unrolled, their
    // elements gathered into a vector (16 one-byte stores from a warp
    // would each write 32 partial sectors). The runs of rows its points
    // read are vector loads too (16 two-byte loads from a warp would each
    // touch 32 sectors), where their buffers are aligned.
    // With columns (getColumnCount), the thread stores that many rows, and
    // the runs along them are loaded once, at the first column.
    auto type = cast<MemRefType>(rowStore.getMemRef().getType());
    auto rowType = VectorType::get({points}, type.getElementType());
    Value rowIv = loop.getInductionVars().back();
    Value columnIv = loop.getInductionVars()[gridLoops - 1];
    auto findRun = [](ArrayRef<RowLoad> runs, Operation *op) {
      return llvm::find_if(runs,
                           [&](const RowLoad &run) { return run.load == op; });
    };
    // A vector load of `count` elements at `load`'s indices under `at`.
    auto loadRun = [&](memref::LoadOp load, int64_t count, int64_t alignment,
                       IRMapping &at) -> Value {
      return vector::LoadOp::create(
          rewriter, loc, VectorType::get({count}, load.getType()),
          at.lookupOrDefault(load.getMemRef()),
          llvm::map_to_vector(
              load.getIndices(),
              [&](Value index) { return at.lookupOrDefault(index); }),
          /*nontemporal=*/false, llvm::MaybeAlign(alignment));
    };
    auto unrollRows = [&](bool vectorLoads) -> SmallVector<Value> {
      // The vectors loaded: a row run by (load, column), a column run by
      // (load, point).
      DenseMap<std::pair<Operation *, int64_t>, Value> loaded;
      SmallVector<Value> rows;
      for (int64_t c = 0; c < columns; ++c) {
        IRMapping pointMapping = mapping;
        if (columns > 1)
          pointMapping.map(
              columnIv, arith::AddIOp::create(
                            rewriter, loc, mapping.lookup(columnIv),
                            arith::ConstantIndexOp::create(rewriter, loc, c)));
        SmallVector<Value> elements;
        for (int64_t p = 0; p < points; ++p) {
          pointMapping.map(rowIv,
                           arith::ConstantIndexOp::create(rewriter, loc, p));
          for (Operation &op : loop.getBody()->without_terminator()) {
            const RowLoad *row = findRun(rowLoads, &op);
            const RowLoad *column = findRun(columnLoads, &op);
            bool isRow = vectorLoads && row != rowLoads.end();
            bool isColumn = vectorLoads && column != columnLoads.end();
            if (&op == rowStore.getOperation()) {
              elements.push_back(
                  pointMapping.lookupOrDefault(rowStore.getValueToStore()));
            } else if (isRow || isColumn) {
              // The first point's (column's) indices are the run's start.
              // (A row run may depend on the column, a column run not on
              // the point.)
              auto load = cast<memref::LoadOp>(op);
              std::pair<Operation *, int64_t> key(&op, isRow ? c : p);
              if (isRow ? p == 0 : c == 0)
                loaded[key] =
                    loadRun(load, isRow ? points : columns,
                            (isRow ? row : column)->alignment, pointMapping);
              pointMapping.map(load.getResult(),
                               vector::ExtractOp::create(
                                   rewriter, loc, loaded[key], isRow ? p : c));
            } else {
              rewriter.clone(op, pointMapping);
            }
          }
        }
        rows.push_back(
            vector::FromElementsOp::create(rewriter, loc, rowType, elements));
      }
      return rows;
    };
    SmallVector<RowLoad> runs(rowLoads);
    runs.append(columnLoads);
    Value aligned = createAlignmentCheck(rewriter, loc, runs);
    SmallVector<Value> rows;
    if (!aligned) {
      rows = unrollRows(/*vectorLoads=*/true);
    } else {
      // Both versions compute the same elements; the caller's buffers pick.
      auto versions = scf::IfOp::create(
          rewriter, loc, SmallVector<Type>(columns, rowType), aligned,
          /*withElseRegion=*/true);
      for (auto [block, vectorLoads] :
           {std::pair(versions.thenBlock(), true),
            std::pair(versions.elseBlock(), false)}) {
        rewriter.setInsertionPointToStart(block);
        scf::YieldOp::create(rewriter, loc, unrollRows(vectorLoads));
      }
      rewriter.setInsertionPointAfter(versions);
      rows = llvm::to_vector_of<Value>(versions.getResults());
    }
    // The rows' indices, computed again here: the unrolled points'
    // copies may sit in the versions' regions.
    for (auto [c, row] : llvm::enumerate(rows)) {
      IRMapping rowMapping = mapping;
      if (columns > 1)
        rowMapping.map(columnIv,
                       arith::AddIOp::create(
                           rewriter, loc, mapping.lookup(columnIv),
                           arith::ConstantIndexOp::create(rewriter, loc, c)));
      std::function<Value(Value)> materialize = [&](Value value) -> Value {
        if (Value mapped = rowMapping.lookupOrNull(value))
          return mapped;
        Operation *def = value.getDefiningOp();
        if (!def || def->getBlock() != loop.getBody())
          return value;
        for (Value operand : def->getOperands())
          materialize(operand);
        rewriter.clone(*def, rowMapping);
        return rowMapping.lookup(value);
      };
      SmallVector<Value> indices;
      for (Value index : rowStore.getIndices().drop_back())
        indices.push_back(materialize(index));
      indices.push_back(arith::ConstantIndexOp::create(rewriter, loc, 0));
      vector::StoreOp::create(
          rewriter, loc, row, rowMapping.lookupOrDefault(rowStore.getMemRef()),
          indices, /*nontemporal=*/false,
          llvm::MaybeAlign(points * type.getElementTypeBitWidth() / 8));
    }
  } else if (columnReduction) {
    cloneReductionColumns(rewriter, loop, columnReduction, mapping, columns,
                          columnRuns);
  } else {
    if (threadLoop) {
      auto pointLoop = scf::ForOp::create(
          rewriter, loc, loop.getLowerBound().back(),
          loop.getUpperBound().back(), loop.getStep().back());
      rewriter.setInsertionPointToStart(pointLoop.getBody());
      mapping.map(loop.getInductionVars().back(), pointLoop.getInductionVar());
    }
    for (Operation &op : loop.getBody()->without_terminator())
      rewriter.clone(op, mapping);
  }
  rewriter.eraseOp(loop);
  // The reductions, innermost first, once the loads and stores of one
  // element share their index computations.
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, launch);
  SmallVector<scf::ForOp> reductions;
  body->walk([&](scf::ForOp reduction) { reductions.push_back(reduction); });
  for (scf::ForOp reduction : reductions)
    carryAccumulator(rewriter, reduction);
  if (rowReduction) {
    // getRowReduction checked what carryAccumulator needs: the loop now
    // carries the element, which one store writes after it.
    scf::ForOp shared;
    body->walk([&](scf::ForOp reduction) { shared = reduction; });
    assert(shared && shared.getNumResults() == 1 &&
           shared.getResult(0).hasOneUse() && "the row reduction is carried");
    // (Made here: CSE above erases what nothing uses yet.)
    rewriter.setInsertionPointAfter(global.getDefiningOp());
    Value lane = arith::RemUIOp::create(rewriter, loc, global, laneCount);
    shareRowReduction(rewriter, shared, lane, inside);
  }
}

/// `op` (a bufferized linalg op) as a launched kernel.
static LogicalResult launchLinalg(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t blockSize, KernelNames &names) {
  if (!op.hasPureBufferSemantics())
    return op->emitOpError() << "is left on tensors in a host function; "
                                "bufferize before sage-launch-loops";
  if (op.getNumLoops() == 0)
    return op->emitOpError() << "has no loops to launch";
  rewriter.setInsertionPoint(op);
  // Parallel dimensions first: linalg's loop form parallelizes only those
  // outside the first reduction. The reductions keep their order.
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    SmallVector<unsigned> order;
    for (auto [i, kind] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (kind == utils::IteratorType::parallel)
        order.push_back(i);
    for (auto [i, kind] : llvm::enumerate(generic.getIteratorTypesArray()))
      if (kind != utils::IteratorType::parallel)
        order.push_back(i);
    if (!llvm::is_sorted(order)) {
      FailureOr<linalg::GenericOp> interchanged =
          linalg::interchangeGenericOp(rewriter, generic, order);
      if (failed(interchanged))
        return op->emitOpError() << "has no loops to launch";
      op = *interchanged;
    }
  }
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToParallelLoops(rewriter, op);
  if (failed(loops) || loops->empty())
    return op->emitOpError() << "has no loops to launch";
  rewriter.eraseOp(op);
  if (auto parallel = dyn_cast<scf::ParallelOp>(loops->front())) {
    launchParallel(rewriter, parallel, blockSize, names);
    return success();
  }
  // Only reductions: one thread runs the whole nest.
  Operation *nest = loops->front();
  Location loc = nest->getLoc();
  rewriter.setInsertionPoint(nest);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  createLaunch(rewriter, loc, one, one, names);
  rewriter.moveOpBefore(nest, rewriter.getInsertionBlock(),
                        rewriter.getInsertionPoint());
  return success();
}

namespace {
struct SageLaunchLoopsPass
    : public sage::impl::SageLaunchLoopsBase<SageLaunchLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize <= 0 || blockSize > 1024) {
      getOperation()->emitError()
          << "block-size must be in [1, 1024], got " << int64_t(blockSize);
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // memref.copy is a linalg.copy here: it moves device memory.
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      if (!copy->getParentOfType<gpu::LaunchOp>() &&
          !copy->getParentOfType<gpu::GPUFuncOp>())
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    getOperation()->walk([&](func::FuncOp func) {
      SmallVector<linalg::LinalgOp> ops;
      func.walk([&](linalg::LinalgOp op) {
        if (!op->getParentOfType<gpu::LaunchOp>())
          ops.push_back(op);
      });
      KernelNames names{FlatSymbolRefAttr::get(
          &getContext(), (func.getName() + "_loops").str())};
      for (linalg::LinalgOp op : ops)
        if (failed(launchLinalg(rewriter, op, blockSize, names)))
          return signalPassFailure();
    });
  }
};
} // namespace
