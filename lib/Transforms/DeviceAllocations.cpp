//===- DeviceAllocations.cpp - a host function's buffers on the device ----===//
//
// After sage-launch-grid and sage-launch-loops every access to a host
// function's buffers is a kernel's (docs/Levels.md, "The statistics and
// quantizers"), so its memref.allocs belong in device memory: each becomes
// a gpu.alloc, in the async form gpu-to-llvm lowers (a stream, the
// allocation, a wait), and a buffer the function does not return is freed
// before each return. Launches are synchronous (the runtime waits for
// each), so nothing uses it then.
//
//===----------------------------------------------------------------------===//

#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEDEVICEALLOCATIONS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Whether `value`, or a view of it, is returned by its function.
static bool isReturned(Value value) {
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (Operation *user : current.getUsers()) {
      if (isa<func::ReturnOp>(user))
        return true;
      if (isa<ViewLikeOpInterface>(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// `alloc` as a gpu.alloc, freed before each of `returns` unless returned.
static void allocateOnDevice(RewriterBase &rewriter, memref::AllocOp alloc,
                             ArrayRef<func::ReturnOp> returns) {
  Location loc = alloc.getLoc();
  rewriter.setInsertionPoint(alloc);
  Type tokenType = gpu::AsyncTokenType::get(rewriter.getContext());
  Value start = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
                    .getAsyncToken();
  auto device = gpu::AllocOp::create(rewriter, loc, alloc.getType(), tokenType,
                                     ValueRange{start}, alloc.getDynamicSizes(),
                                     alloc.getSymbolOperands(),
                                     /*hostShared=*/false);
  gpu::WaitOp::create(rewriter, loc, Type(), device.getAsyncToken());
  bool returned = isReturned(alloc.getResult());
  rewriter.replaceOp(alloc, device.getMemref());
  if (returned)
    return;
  for (func::ReturnOp ret : returns) {
    rewriter.setInsertionPoint(ret);
    Value before = gpu::WaitOp::create(rewriter, loc, tokenType, ValueRange())
                       .getAsyncToken();
    auto free = gpu::DeallocOp::create(rewriter, loc, tokenType,
                                       ValueRange{before}, device.getMemref());
    gpu::WaitOp::create(rewriter, loc, Type(), free.getAsyncToken());
  }
}

namespace {
struct SageDeviceAllocationsPass
    : public sage::impl::SageDeviceAllocationsBase<SageDeviceAllocationsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](func::FuncOp func) {
      SmallVector<func::ReturnOp> returns;
      func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
      SmallVector<memref::AllocOp> allocs;
      func.walk([&](memref::AllocOp alloc) {
        if (!alloc->getParentOfType<gpu::LaunchOp>() &&
            !alloc.getType().getMemorySpace())
          allocs.push_back(alloc);
      });
      for (memref::AllocOp alloc : allocs) {
        if (alloc->getParentRegion() != &func.getBody()) {
          alloc.emitOpError() << "is inside control flow of a host function; "
                                 "its buffer cannot be freed at the return";
          return signalPassFailure();
        }
        allocateOnDevice(rewriter, alloc, returns);
      }
    });
  }
};
} // namespace
