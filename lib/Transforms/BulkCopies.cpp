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

int64_t mlir::sage::getClusterCtas(gpu::GPUFuncOp kernel) {
  auto shape = kernel->getAttrOfType<DenseI32ArrayAttr>(
      NVVM::NVVMDialect::getClusterDimAttrName());
  if (!shape)
    return 1;
  int64_t ctas = 1;
  for (int32_t size : shape.asArrayRef())
    ctas *= size;
  return ctas;
}

/// Whether `value` is the same in every CTA of a cluster along x.
static bool isClusterUniform(Value value) {
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(next)) {
      Operation *owner = argument.getOwner()->getParentOp();
      if (isa<gpu::GPUFuncOp>(owner))
        continue;
      auto loop = dyn_cast<scf::ForOp>(owner);
      if (!loop || argument != loop.getInductionVar())
        return false;
      worklist.append(
          {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()});
      continue;
    }
    Operation *op = next.getDefiningOp();
    if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      if (id.getDimension() == gpu::Dimension::x)
        return false;
      continue;
    }
    // Anything else that reads the CTA's place or the memory: not known.
    if (op->getNumRegions() || !isMemoryEffectFree(op) ||
        isa<gpu::ThreadIdOp, gpu::ClusterBlockIdOp>(op))
      return false;
    llvm::append_range(worklist, op->getOperands());
  }
  return true;
}

bool mlir::sage::isSharedByCluster(StageTileOp op) {
  return isClusterUniform(op.getSource()) && isClusterUniform(op.getDest());
}

void mlir::sage::createClusterBarrier(OpBuilder &b, Location loc) {
  // Aligned: every thread of a warp reaches it together (the stagings are
  // issued in uniform control flow).
  NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

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
                                  ArrayRef<StageTileOp> copies,
                                  int64_t clusterCtas) {
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
    // proxy writes, come after both, in every CTA they land in.
    bool multicast = clusterCtas > 1 && llvm::any_of(copies, isSharedByCluster);
    NVVM::FenceProxyOp::create(
        rewriter, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                   multicast ? NVVM::SharedSpace::shared_cluster
                                             : NVVM::SharedSpace::shared_cta));
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
  int64_t sharedCopies = 0;
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
    if (clusterCtas == 1 || !isSharedByCluster(op)) {
      NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
          rewriter, opLoc, dest, source, address,
          arith::ConstantIntOp::create(rewriter, opLoc, size, 32),
          /*multicastMask=*/Value(), /*l2CacheHint=*/Value());
      continue;
    }
    // The cluster's CTAs split the copy into pieces of whole 16 bytes,
    // CTA r issuing the r-th; a copy too small to split is issued whole by
    // one CTA, the next copy's by the next.
    Value rank =
        NVVM::ClusterId::create(rewriter, opLoc, rewriter.getI32Type());
    Value mask = arith::ConstantIntOp::create(
        rewriter, opLoc, (int64_t(1) << clusterCtas) - 1, 16);
    Type i8 = rewriter.getI8Type();
    if (size % (16 * clusterCtas) == 0) {
      int64_t piece = size / clusterCtas;
      Value offset = arith::MulIOp::create(
          rewriter, opLoc, rank,
          arith::ConstantIntOp::create(rewriter, opLoc, piece, 32));
      dest = LLVM::GEPOp::create(rewriter, opLoc, dest.getType(), i8, dest,
                                 ValueRange{offset});
      source = LLVM::GEPOp::create(rewriter, opLoc, source.getType(), i8,
                                   source, ValueRange{offset});
      NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
          rewriter, opLoc, dest, source, address,
          arith::ConstantIntOp::create(rewriter, opLoc, piece, 32), mask,
          /*l2CacheHint=*/Value());
    } else {
      Value issuer = arith::CmpIOp::create(
          rewriter, opLoc, arith::CmpIPredicate::eq, rank,
          arith::ConstantIntOp::create(rewriter, opLoc,
                                       sharedCopies % clusterCtas, 32));
      auto mine =
          scf::IfOp::create(rewriter, opLoc, issuer, /*withElse=*/false);
      rewriter.setInsertionPointToStart(mine.thenBlock());
      NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
          rewriter, opLoc, dest, source, address,
          arith::ConstantIntOp::create(rewriter, opLoc, size, 32), mask,
          /*l2CacheHint=*/Value());
    }
    ++sharedCopies;
  }
  return arrive.getResult(0);
}

void mlir::sage::waitForBulkCopies(RewriterBase &rewriter, Location loc,
                                   Value barrier, Value state) {
  // One instruction for LLVM, the polling loop inside it, as upstream's
  // nvvm.mbarrier.try_wait.parity does for a parity: as an LLVM loop (an
  // scf.while around nvvm.mbarrier.try_wait), the wait's block became the
  // loop's preheader, and IndVarSimplify sank every pure value computed
  // there and used only after the wait (the softmax's row sums and alpha,
  // the P V's inputs) past the wgmmas issued before it, keeping P's f32
  // probabilities live across the P V: at 64 x 128, D = 128, three CTAs an
  // SM, 696 bytes of spills against 4 (docs/Levels.md, "Registers"). The
  // memory clobber keeps the wait's acquire: no load after it moves above
  // it.
  Value address = getBarrierAddress(rewriter, loc, barrier);
  LLVM::InlineAsmOp::create(
      rewriter, loc, /*res=*/TypeRange{}, ValueRange{address, state},
      rewriter.getStringAttr("{\n"
                             ".reg .pred done;\n"
                             "wait:\n"
                             "mbarrier.try_wait.shared::cta.b64 done, [$0], "
                             "$1;\n"
                             "@!done bra wait;\n"
                             "}"),
      rewriter.getStringAttr("l,l,~{memory}"),
      /*has_side_effects=*/rewriter.getUnitAttr(),
      /*is_align_stack=*/nullptr, /*tail_call_kind=*/nullptr,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
}
