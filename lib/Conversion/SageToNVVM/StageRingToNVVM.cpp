//===- StageRingToNVVM.cpp - stage rings to their mbarriers ---------------===//
//
// The ops on a !sage.stage_ring become the mbarrier instructions of the
// stage a block goes to (docs/Levels.md, L4): block j's stage is
// j mod stages, its "full" barrier the stage's 8 bytes from the ring's
// offset, its "empty" barrier `stages` barriers further on, and the phase
// it completes there j / stages.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
/// Builds a ring's addresses and phases at the rewriter's insertion point.
class RingBuilder {
public:
  RingBuilder(PatternRewriter &rewriter, Location loc, StageRingOp ring)
      : rewriter(rewriter), loc(loc), ring(ring),
        stages(ring.getRing().getType().getStages()) {}

  Value i32(int64_t value) {
    return arith::ConstantIntOp::create(rewriter, loc, value, 32);
  }
  /// Block `block`'s stage.
  Value stage(Value block) {
    if (llvm::isPowerOf2_64(stages))
      return arith::AndIOp::create(rewriter, loc, block, i32(stages - 1));
    return arith::RemUIOp::create(rewriter, loc, block, i32(stages));
  }
  /// The address of barrier `index` (0 to stages - 1: full, then empty).
  Value barrier(Value index) {
    Value bytes = arith::MulIOp::create(rewriter, loc, index, i32(8));
    Value offset =
        arith::AddIOp::create(rewriter, loc, ring.getOffset(), bytes);
    return LLVM::GEPOp::create(rewriter, loc, ring.getBase().getType(),
                               rewriter.getI8Type(), ring.getBase(),
                               ValueRange{offset});
  }
  Value fullBarrier(Value block) { return barrier(stage(block)); }
  Value emptyBarrier(Value block) {
    // One op a statement: the IR must not depend on the order in which
    // the compiler evaluates a call's arguments.
    Value stageIndex = stage(block);
    Value skipped = i32(stages);
    Value index = arith::AddIOp::create(rewriter, loc, skipped, stageIndex);
    return barrier(index);
  }
  /// The phase parity that block `block` completes on its stage's barriers.
  Value parity(Value block) {
    Value phase = arith::DivUIOp::create(rewriter, loc, block, i32(stages));
    return arith::AndIOp::create(rewriter, loc, phase, i32(1));
  }
  /// Waits until `barrier` has completed the phase of `parity`; the hint
  /// is the time (ns) a try may suspend.
  void wait(Value barrier, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(rewriter, loc, barrier, parity,
                                          i32(1000000));
  }

  PatternRewriter &rewriter;
  Location loc;
  StageRingOp ring;
  int64_t stages;
};

/// The sage.stage_ring a ring op's ring comes from (its verifier's rule).
template <typename Op> StageRingOp getRingOp(Op op) {
  return op.getRing().template getDefiningOp<StageRingOp>();
}

struct InitToNVVM : OpRewritePattern<StageRingInitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageRingInitOp op,
                                PatternRewriter &rewriter) const override {
    RingBuilder ring(rewriter, op.getLoc(), getRingOp(op));
    int64_t consumers = op.getRing().getType().getConsumers();
    // Full: the copier's one arrival (with its bytes); empty: every
    // consumer's.
    for (int64_t index = 0; index < ring.stages * (consumers ? 2 : 1);
         ++index) {
      Value arrivals = ring.i32(index < ring.stages ? 1 : consumers);
      Value barrier = ring.barrier(ring.i32(index));
      NVVM::MBarrierInitOp::create(rewriter, op.getLoc(), barrier, arrivals,
                                   /*predicate=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ArmToNVVM : OpRewritePattern<StageRingArmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageRingArmOp op,
                                PatternRewriter &rewriter) const override {
    RingBuilder ring(rewriter, op.getLoc(), getRingOp(op));
    Value barrier = ring.fullBarrier(op.getBlock());
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, op.getLoc(), /*res=*/Type(), barrier, ring.i32(op.getBytes()),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false,
        /*predicate=*/Value());
    rewriter.replaceOp(op, barrier);
    return success();
  }
};

struct WaitToNVVM : OpRewritePattern<StageRingWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageRingWaitOp op,
                                PatternRewriter &rewriter) const override {
    RingBuilder ring(rewriter, op.getLoc(), getRingOp(op));
    Value parity = ring.parity(op.getBlock());
    ring.wait(ring.fullBarrier(op.getBlock()), parity);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReleaseToNVVM : OpRewritePattern<StageRingReleaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageRingReleaseOp op,
                                PatternRewriter &rewriter) const override {
    RingBuilder ring(rewriter, op.getLoc(), getRingOp(op));
    NVVM::MBarrierArriveOp::create(rewriter, op.getLoc(), /*res=*/Type(),
                                   ring.emptyBarrier(op.getBlock()),
                                   /*count=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AcquireToNVVM : OpRewritePattern<StageRingAcquireOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageRingAcquireOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RingBuilder ring(rewriter, loc, getRingOp(op));
    Value block = op.getBlock();
    // Block `block - stages` used the stage before: its release completes
    // the empty barrier's phase. The first `stages` blocks wait for none.
    Value reused = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, block, ring.i32(ring.stages));
    auto ifOp = scf::IfOp::create(rewriter, loc, reused,
                                  /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value previous =
        arith::SubIOp::create(rewriter, loc, block, ring.i32(ring.stages));
    Value parity = ring.parity(previous);
    ring.wait(ring.emptyBarrier(block), parity);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::sage::populateStageRingPatterns(RewritePatternSet &patterns) {
  patterns.add<InitToNVVM, ArmToNVVM, WaitToNVVM, ReleaseToNVVM, AcquireToNVVM>(
      patterns.getContext());
}
