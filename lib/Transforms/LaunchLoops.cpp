//===- LaunchLoops.cpp - a host function's linalg ops as kernels ----------===//
//
// The host side's last level before outlining (docs/Levels.md, "The
// statistics and quantizers"). After bufferization and sage-launch-grid,
// the linalg ops and copies left outside any gpu.launch read and write
// device memory, which the host cannot touch. Each becomes linalg's
// parallel-loop form, whose scf.parallel is launched with one thread per
// point, flattened into a 1-D grid (the innermost dimension, the
// contiguous one, varies fastest between threads); its reductions stay
// scf.for loops that each thread runs in order.
//
//===----------------------------------------------------------------------===//

#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

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

/// A gpu.launch of `blocks` x `threads` threads before `op`, where the
/// grid has points (CUDA refuses a launch of zero blocks); the insertion
/// point is left before the body's terminator.
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

/// `loop` run by one thread of a grid of its points each.
static void launchParallel(RewriterBase &rewriter, scf::ParallelOp loop,
                           int64_t blockSize, KernelNames &names) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> counts;
  Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [lower, upper, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value extent = arith::SubIOp::create(rewriter, loc, upper, lower);
    Value count = arith::CeilDivUIOp::create(rewriter, loc, extent, step);
    counts.push_back(count);
    total = arith::MulIOp::create(rewriter, loc, total, count);
  }
  Value threads = arith::ConstantIndexOp::create(rewriter, loc, blockSize);
  Value blocks = arith::CeilDivUIOp::create(rewriter, loc, total, threads);
  gpu::LaunchOp launch = createLaunch(rewriter, loc, blocks, threads, names);

  // point = block * threads + thread, then its coordinates, the last
  // dimension fastest.
  Value block =
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threads);
  Value point =
      arith::AddIOp::create(rewriter, loc, block, launch.getThreadIds().x);
  Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       point, total);
  auto guard = scf::IfOp::create(rewriter, loc, inside,
                                 /*withElseRegion=*/false);
  rewriter.setInsertionPointToStart(guard.thenBlock());
  IRMapping mapping;
  Value rest = point;
  for (int64_t i = loop.getNumLoops() - 1; i >= 0; --i) {
    Value index = arith::RemUIOp::create(rewriter, loc, rest, counts[i]);
    if (i > 0)
      rest = arith::DivUIOp::create(rewriter, loc, rest, counts[i]);
    Value offset =
        arith::MulIOp::create(rewriter, loc, index, loop.getStep()[i]);
    Value iv =
        arith::AddIOp::create(rewriter, loc, loop.getLowerBound()[i], offset);
    mapping.map(loop.getInductionVars()[i], iv);
  }
  for (Operation &op : loop.getBody()->without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(loop);
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
