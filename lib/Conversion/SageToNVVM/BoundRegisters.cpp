//===- BoundRegisters.cpp - the sage-bound-registers pass -----------------===//
//
// ptxas gives a kernel without launch bounds as many registers as its
// schedule likes: 255 for the levels' mma.sync kernel at D = 128, so that
// two CTAs of 128 threads share an SM. Bounded to three, it takes 168 and
// spills 28 bytes; measured on an H100 that ran 4-5% faster
// (docs/Levels.md, "Registers"). The wgmma kernel of one warpgroup at
// 64 x 128, D = 128, takes 245 unbounded; three CTAs an SM at 168 (4 bytes
// of spills) ran 769 TOPS on an H100, the hand-written kernel's fastest
// schedule (benchmarks/results/2026-12-07-levels.md). The bound must fit
// the workgroup memory three CTAs need, so the pass runs once that memory
// is final.
//
//===----------------------------------------------------------------------===//

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEBOUNDREGISTERS
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The bytes of `kernel`'s workgroup attributions, or nothing where one is
/// not a static buffer.
static std::optional<int64_t> getWorkgroupBytes(gpu::GPUFuncOp kernel) {
  int64_t bytes = 0;
  for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat())
      return std::nullopt;
    bytes += type.getNumElements() *
             llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
  return bytes;
}

/// Whether `kernel` issues warp or warpgroup MMAs from at most 128 threads
/// (a warpgroup) and keeps an f32 accumulator of 64 to 127 elements a
/// lane: the O fragment at D = 128, the cases measured. A wider one
/// (D = 256: 128 a lane) would spill heavily under 168 registers.
static bool isWideMmaKernel(gpu::GPUFuncOp kernel) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size || (*size)[0] * (*size)[1] * (*size)[2] > 128)
    return false;
  bool mma = false, wide = false, wider = false;
  kernel.walk([&](Operation *op) {
    mma |= isa<WarpMmaOp, WarpgroupMmaOp>(op);
    auto accumulate = dyn_cast<AccumulateOp>(op);
    if (!accumulate)
      return;
    auto buffer = dyn_cast<VectorType>(accumulate.getBuffer().getType());
    if (!buffer || !buffer.getElementType().isF32())
      return;
    wide |= buffer.getNumElements() >= 64;
    wider |= buffer.getNumElements() >= 128;
  });
  return mma && wide && !wider;
}

namespace {
struct SageBoundRegistersPass
    : public sage::impl::SageBoundRegistersBase<SageBoundRegistersPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!wideMmaCtasPerSm)
      return;
    // The chip of the module's NVVM target (sage-attach-nvvm-target's).
    std::optional<Chip> chip;
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute target : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
          chip = parseChip(nvvm.getChip());
    if (!chip)
      return;
    StringRef name = NVVM::NVVMDialect::getMinctasmAttrName();
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel() || kernel->hasAttr(name) ||
          !isWideMmaKernel(kernel))
        continue;
      std::optional<int64_t> bytes = getWorkgroupBytes(kernel);
      if (!bytes || int64_t(wideMmaCtasPerSm) * (*bytes + 1024) >
                        getSharedBytesPerSm(*chip))
        continue;
      kernel->setAttr(name,
                      IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                       wideMmaCtasPerSm));
    }
  }
};
} // namespace
