//===- AttachTarget.cpp - the sage-attach-nvvm-target pass ----------------===//
//
// The PTX ISA version of a kernel module follows from the instructions its
// MMA ops name: the MMA table (docs/Mma.md) records each one's version,
// which LLVM's NVPTX backend does not check for every instruction (it
// emits the f16-accumulator FP8 mma.sync under any version, and ptxas
// then refuses the PTX).
//
//===----------------------------------------------------------------------===//

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"

#include <algorithm>

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEATTACHNVVMTARGET
#include "sage/Conversion/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// PTX ISA version x 10 that the kernels of `chip` start from: 8.4, the
/// first with FP8 mma.sync, or 8.7 for sm_100 and newer.
static int getDefaultPtxIsa(Chip chip) { return chip.sm >= 100 ? 87 : 84; }

namespace {
struct SageAttachNVVMTargetPass
    : public sage::impl::SageAttachNVVMTargetBase<SageAttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Chip> target = parseChip(chip);
    if (!target) {
      getOperation().emitError()
          << "unknown chip '" << chip << "'; expected sm_<version>[a]";
      return signalPassFailure();
    }
    if (failed(markClusterKernels(*target)))
      return signalPassFailure();
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>())
      if (failed(attach(module, *target)))
        return signalPassFailure();
  }

  /// The kernels launched in clusters get their cluster's shape as
  /// `nvvm.cluster_dim` (PTX `.reqnctapercluster`): the passes below read
  /// it (sage-lower-staging multicasts to the cluster), and the driver
  /// refuses a launch of another shape.
  LogicalResult markClusterKernels(Chip target) {
    StringRef name = NVVM::NVVMDialect::getClusterDimAttrName();
    WalkResult walk = getOperation().walk([&](gpu::LaunchFuncOp launch) {
      if (!launch.hasClusterSize())
        return WalkResult::advance();
      if (target.sm < 90) {
        launch.emitOpError() << "launches clusters, which need sm_90 or "
                                "newer; the kernels are compiled for "
                             << chip;
        return WalkResult::interrupt();
      }
      SmallVector<int32_t> shape;
      for (Value size : {launch.getClusterSizeX(), launch.getClusterSizeY(),
                         launch.getClusterSizeZ()}) {
        std::optional<int64_t> constant = getConstantIntValue(size);
        if (!constant) {
          launch.emitOpError() << "launches clusters of a size known only at "
                                  "run time; a kernel's cluster is static";
          return WalkResult::interrupt();
        }
        shape.push_back(int32_t(*constant));
      }
      auto kernel = SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel)
        return WalkResult::advance();
      auto attr = DenseI32ArrayAttr::get(&getContext(), shape);
      if (auto known = kernel->getAttr(name); known && known != attr) {
        launch.emitOpError()
            << "launches @" << kernel.getName() << " in clusters of " << attr
            << ", another launch in " << known;
        return WalkResult::interrupt();
      }
      kernel->setAttr(name, attr);
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// Whether `kernel` issues wgmmas, all at most 64 columns wide, from at
  /// most two warpgroups a CTA (a known block size of at most 256 threads:
  /// two such CTAs leave each thread 128 registers).
  static bool isNarrowWgmmaKernel(gpu::GPUFuncOp kernel) {
    std::optional<ArrayRef<int32_t>> size = kernel.getKnownBlockSize();
    if (!size || (*size)[0] * (*size)[1] * (*size)[2] > 256)
      return false;
    bool any = false, narrow = true;
    kernel.walk([&](WarpgroupMmaOp op) {
      any = true;
      narrow &= op.getMma().getN() <= 64;
    });
    return any && narrow;
  }

  LogicalResult attach(gpu::GPUModuleOp module, Chip target) {
    int ptxIsa = getDefaultPtxIsa(target);
    WalkResult walk = module.walk([&](Operation *op) {
      MmaAttr mma;
      if (auto warp = dyn_cast<WarpMmaOp>(op))
        mma = warp.getMma();
      else if (auto group = dyn_cast<WarpgroupMmaOp>(op))
        mma = group.getMma();
      else
        return WalkResult::advance();
      const MmaInstruction &row = *mma.getInstruction();
      std::string reason = row.getUnavailableReason(target);
      if (!reason.empty()) {
        op->emitOpError() << row.getPtx(mma.getN()) << " " << reason
                          << "; the kernels are compiled for " << chip;
        return WalkResult::interrupt();
      }
      ptxIsa = std::max(ptxIsa, row.ptxIsa);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    for (auto kernel : module.getOps<gpu::GPUFuncOp>()) {
      StringRef name = NVVM::NVVMDialect::getMinctasmAttrName();
      if (!kernel.isKernel() || kernel->hasAttr(name))
        continue;
      unsigned ctas = ctasPerSm;
      if (ctas == 0 && isNarrowWgmmaKernel(kernel))
        ctas = narrowWgmmaCtasPerSm;
      if (ctas > 0)
        kernel->setAttr(
            name, IntegerAttr::get(IntegerType::get(&getContext(), 32), ctas));
    }
    std::string features = "+ptx" + std::to_string(ptxIsa);
    module.setTargetsAttr(ArrayAttr::get(
        &getContext(),
        {NVVM::NVVMTargetAttr::get(&getContext(), optLevel,
                                   "nvptx64-nvidia-cuda", chip, features)}));
    return success();
  }
};
} // namespace
