//===- BulkCopies.cpp - stagings by the TMA unit's bulk copies ------------===//
//
// A stage whose operand is stored in the stage's order (sage-store-stage-
// order) is one contiguous block: one `cp.async.bulk.shared::cluster.global`
// moves it (sm_90), completing its bytes on an mbarrier instead of each
// thread's cp.async group. Every thread arrives on the barrier where the
// copies are issued, thread 0 with `expect_tx` of their bytes, and keeps the
// phase it arrived on (the arrive's state); at the completion it waits for
// that phase (`mbarrier.try_wait`). A phase completes only once every
// thread has arrived, so no thread can arrive on the next one before all
// have passed the wait of this one: one barrier serves every run that
// completes before the next is issued (sage-lower-staging checks that),
// and no thread counts phases (docs/Levels.md, "Bulk copies").
//
//===----------------------------------------------------------------------===//

#include "BulkCopies.h"

#include "Staging.h"
#include "sage/Dialect/Sage/IR/WorkgroupStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::sage;

/// The most bytes one mbarrier phase can expect (its tx-count).
static constexpr int64_t kMaxTransactionBytes = (1 << 20) - 1;

static int64_t getBytes(MemRefType type) {
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Whether `type` lives in global memory: no memory space (a kernel's
/// buffer arguments) or the global one.
static bool isGlobal(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return !type.getMemorySpace() ||
         (space && space.getValue() == gpu::AddressSpace::Global);
}

bool mlir::sage::isBulkCopy(StageTileOp op) {
  auto source = dyn_cast<MemRefType>(op.getSource().getType());
  auto dest = dyn_cast<MemRefType>(op.getDest().getType());
  // Whole bytes from global into workgroup memory.
  if (!source || !dest || !op.isPlainCopy() || !isGlobal(source) ||
      !isWorkgroupBuffer(op.getDest()) || !source.hasStaticShape() ||
      source.getShape() != dest.getShape() ||
      source.getElementType() != dest.getElementType() ||
      !source.getElementType().isIntOrFloat() ||
      source.getElementTypeBitWidth() % 8 != 0 ||
      !memref::isStaticShapeAndContiguousRowMajor(source) ||
      !memref::isStaticShapeAndContiguousRowMajor(dest))
    return false;
  int64_t bytes = getBytes(source);
  return bytes % 16 == 0 && bytes <= kMaxTransactionBytes &&
         startsAligned(op.getSource(), 16) && startsAligned(op.getDest(), 16);
}

/// NVVM's address spaces: global, shared (the CTA's), shared::cluster.
static constexpr unsigned kGlobal = 1, kShared = 3, kSharedCluster = 7;

/// `buffer`'s first element as an LLVM pointer in `addressSpace` (the
/// aligned pointer plus the view's offset), cast there from `from`.
static Value getAddress(OpBuilder &b, Location loc, Value buffer, unsigned from,
                        unsigned addressSpace) {
  Value pointer = getElementPointer(b, loc, buffer, from);
  if (from == addressSpace)
    return pointer;
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), addressSpace),
      pointer);
}

static Value getBarrierAddress(OpBuilder &b, Location loc, Value barrier) {
  return getAddress(b, loc, barrier, kShared, kShared);
}

Value mlir::sage::createStagingBarrier(RewriterBase &rewriter,
                                       gpu::GPUFuncOp kernel, int64_t threads) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = kernel.getLoc();
  auto type = MemRefType::get(
      {1}, rewriter.getI64Type(), MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  BlockArgument barrier = kernel.addWorkgroupAttribution(type, loc);
  kernel.setWorkgroupAttributionAttr(
      barrier.getArgNumber() - kernel.getNumArguments(),
      LLVM::LLVMDialect::getAlignAttrName(), rewriter.getI64IntegerAttr(8));
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&kernel.getBody().front());
  Value thread = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
  Value first =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto init = scf::IfOp::create(rewriter, loc, first, /*withElse=*/false);
  rewriter.setInsertionPointToStart(init.thenBlock());
  NVVM::MBarrierInitOp::create(
      rewriter, loc, getBarrierAddress(rewriter, loc, barrier),
      arith::ConstantIntOp::create(rewriter, loc, threads, 32),
      /*predicate=*/Value());
  // The initialization is visible to the async proxy that completes the
  // copies' bytes, then to every thread.
  NVVM::FenceMbarrierInitOp::create(rewriter, loc);
  rewriter.setInsertionPointAfter(init);
  gpu::BarrierOp::create(rewriter, loc);
  return barrier;
}

Value mlir::sage::issueBulkCopies(RewriterBase &rewriter, Location loc,
                                  Value barrier, Value thread,
                                  ArrayRef<StageTileOp> copies) {
  int64_t bytes = 0;
  for (StageTileOp op : copies)
    bytes += getBytes(cast<MemRefType>(op.getSource().getType()));
  Type i64 = rewriter.getI64Type();
  Value address = getBarrierAddress(rewriter, loc, barrier);
  Value first =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, thread,
                            arith::ConstantIndexOp::create(rewriter, loc, 0));
  auto arrive = scf::IfOp::create(rewriter, loc, TypeRange{i64}, first,
                                  /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(arrive.thenBlock());
    // The tiles were last read through the generic proxy (the lanes'
    // loads) or the async one (wgmma, waited for): the copies, async
    // proxy writes, come after both.
    NVVM::FenceProxyOp::create(
        rewriter, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    Value expected = NVVM::MBarrierArriveExpectTxOp::create(
                         rewriter, loc, i64, address,
                         arith::ConstantIntOp::create(rewriter, loc, bytes, 32),
                         NVVM::MemScopeKind::CTA, /*relaxed=*/false,
                         /*predicate=*/Value())
                         .getRes();
    scf::YieldOp::create(rewriter, loc, expected);
    rewriter.setInsertionPointToStart(arrive.elseBlock());
    Value arrived = NVVM::MBarrierArriveOp::create(rewriter, loc, i64, address,
                                                   /*count=*/Value())
                        .getRes();
    scf::YieldOp::create(rewriter, loc, arrived);
  }
  // Each copy where its op stands (its window's view is made there).
  for (StageTileOp op : copies) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    Location opLoc = op.getLoc();
    auto issue = scf::IfOp::create(rewriter, opLoc, first, /*withElse=*/false);
    rewriter.setInsertionPointToStart(issue.thenBlock());
    // The instruction names the CTA's own shared memory as shared::cluster
    // (a CTA is a cluster of one); the kernel's buffers are generic
    // pointers to global memory.
    Value dest =
        getAddress(rewriter, opLoc, op.getDest(), kShared, kSharedCluster);
    Value source = getAddress(rewriter, opLoc, op.getSource(),
                              /*from=*/0, kGlobal);
    int64_t size = getBytes(cast<MemRefType>(op.getSource().getType()));
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        rewriter, opLoc, dest, source, address,
        arith::ConstantIntOp::create(rewriter, opLoc, size, 32),
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value());
  }
  return arrive.getResult(0);
}

void mlir::sage::waitForBulkCopies(RewriterBase &rewriter, Location loc,
                                   Value barrier, Value state) {
  Value address = getBarrierAddress(rewriter, loc, barrier);
  scf::WhileOp::create(
      rewriter, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &b, Location l, ValueRange) {
        Value done =
            NVVM::MBarrierTryWaitOp::create(b, l, b.getI1Type(), address, state,
                                            /*ticks=*/Value())
                .getRes();
        Value pending = arith::XOrIOp::create(
            b, l, done, arith::ConstantIntOp::create(b, l, 1, 1));
        scf::ConditionOp::create(b, l, pending, ValueRange{});
      },
      [](OpBuilder &b, Location l, ValueRange) { scf::YieldOp::create(b, l); });
}
