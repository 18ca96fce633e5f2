//===- StageAsync.cpp - sage.stage_async / sage.stage_await verifiers ----===//
//
// A group of tile stagings issued together and completed at one await
// (docs/Levels.md, L3): what the group's region may hold, and that each
// group is awaited once, later in its block.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/IR/WorkgroupStaging.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::sage;

bool mlir::sage::isWorkgroupBuffer(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

bool mlir::sage::isStaging(Operation *op) {
  auto staging = dyn_cast<DestinationStyleOpInterface>(op);
  return staging && staging.hasPureBufferSemantics() &&
         llvm::all_of(staging.getDpsInits(), isWorkgroupBuffer) &&
         llvm::none_of(staging.getDpsInputs(), isWorkgroupBuffer);
}

LogicalResult StageAsyncOp::verify() {
  bool stages = false;
  for (Operation &op : getBody().front()) {
    if (isStaging(&op)) {
      stages = true;
      continue;
    }
    if (op.getNumRegions() || !isMemoryEffectFree(&op)) {
      InFlightDiagnostic diag =
          emitOpError() << "expected stagings into workgroup tiles of values "
                           "outside workgroup memory (sage.stage_tile, linalg "
                           "products on buffers) and pure ops, got "
                        << op.getName();
      diag.attachNote(op.getLoc()) << "here";
      return diag;
    }
  }
  if (!stages)
    return emitOpError() << "stages nothing";
  Value group = getGroup();
  auto await = group.hasOneUse()
                   ? dyn_cast<StageAwaitOp>(*group.getUsers().begin())
                   : StageAwaitOp();
  if (!await || await->getBlock() != (*this)->getBlock())
    return emitOpError() << "expected its group awaited by one "
                            "sage.stage_await in the same block";
  return success();
}

LogicalResult StageAwaitOp::verify() {
  auto issue = getGroup().getDefiningOp<StageAsyncOp>();
  if (!issue || issue->getBlock() != (*this)->getBlock())
    return emitOpError() << "expected the group of a sage.stage_async in "
                            "the same block";
  return success();
}
