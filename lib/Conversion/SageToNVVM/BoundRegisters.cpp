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
// is final. At D = 64 the wgmma kernel takes 128 registers unbounded, four
// CTAs an SM (523 TOPS); the per-lane dequantization in the softmax's
// score_scale made it 130, three CTAs, 17.27 ms against 16.82: four are
// asked for (8 bytes of spills).
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

/// How many CTAs an SM to ask for `kernel`, by the widest f32 accumulator
/// a lane keeps in a `sage.accumulate`, where the kernel issues warp or
/// warpgroup MMAs from at most 128 threads (a warpgroup): 64 to 127
/// elements (O at D = 128) `wide`; 32 to 63 (O at D = 64) `narrowWgmma`
/// where the MMAs are wgmma; otherwise none (0). A wider accumulator
/// (D = 256: 128 a lane) would spill heavily under 168 registers; the
/// narrow mma.sync kernels were not measured bounded.
static unsigned getCtasPerSm(gpu::GPUFuncOp kernel, unsigned wide,
                             unsigned narrowWgmma) {
  std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
  if (!size || (*size)[0] * (*size)[1] * (*size)[2] > 128)
    return 0;
  bool mma = false, warpgroup = false;
  int64_t width = 0;
  kernel.walk([&](Operation *op) {
    mma |= isa<WarpMmaOp, WarpgroupMmaOp>(op);
    warpgroup |= isa<WarpgroupMmaOp>(op);
    auto accumulate = dyn_cast<AccumulateOp>(op);
    if (!accumulate)
      return;
    auto buffer = dyn_cast<VectorType>(accumulate.getBuffer().getType());
    if (buffer && buffer.getElementType().isF32())
      width = std::max(width, buffer.getNumElements());
  });
  if (!mma)
    return 0;
  if (width >= 64 && width < 128)
    return wide;
  if (warpgroup && width >= 32 && width < 64)
    return narrowWgmma;
  return 0;
}

namespace {
struct SageBoundRegistersPass
    : public sage::impl::SageBoundRegistersBase<SageBoundRegistersPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
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
      if (!kernel.isKernel() || kernel->hasAttr(name))
        continue;
      unsigned ctas =
          getCtasPerSm(kernel, wideMmaCtasPerSm, narrowWgmmaCtasPerSm);
      std::optional<int64_t> bytes = getWorkgroupBytes(kernel);
      if (!ctas || !bytes ||
          int64_t(ctas) * (*bytes + 1024) > getSharedBytesPerSm(*chip))
        continue;
      kernel->setAttr(
          name, IntegerAttr::get(IntegerType::get(&getContext(), 32), ctas));
    }
  }
};
} // namespace
