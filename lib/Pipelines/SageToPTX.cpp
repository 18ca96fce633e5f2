//===- SageToPTX.cpp - the --sage-to-ptx pipeline -------------------------===//

#include "sage/Pipelines/Pipelines.h"

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/MmaInstructions.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
/// Fails on a sage.attention whose recipe is not the pipeline's variant.
struct CheckVariantPass
    : public PassWrapper<CheckVariantPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckVariantPass)

  CheckVariantPass(std::string variant, StringRef pipeline)
      : variant(std::move(variant)), pipeline(pipeline) {}
  StringRef getArgument() const final { return "sage-check-variant"; }

  void runOnOperation() override {
    if (!symbolizeVariant(variant)) {
      getOperation().emitError()
          << "unknown variant '" << variant
          << "'; expected auto, int8-fp8, int4-fp8, int8-fp8-f16acc, "
             "int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc";
      return signalPassFailure();
    }
    getOperation().walk([&](AttentionOp op) {
      StringRef actual = stringifyVariant(op.getRecipe().getVariant());
      if (actual != variant) {
        op.emitOpError() << "has recipe \"" << actual << "\" but --" << pipeline
                         << " was asked for variant=" << variant;
        signalPassFailure();
      }
    });
  }

  std::string variant;
  /// The pipeline the variant was given to, for the message.
  StringRef pipeline;
};
/// Fails on a binary-format that gpu-module-to-binary would refuse without
/// saying which formats there are.
struct CheckBinaryFormatPass
    : public PassWrapper<CheckBinaryFormatPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckBinaryFormatPass)

  explicit CheckBinaryFormatPass(std::string format)
      : format(std::move(format)) {}
  StringRef getArgument() const final { return "sage-check-binary-format"; }

  void runOnOperation() override {
    if (format == "isa" || format == "bin" || format == "fatbin")
      return;
    getOperation().emitError()
        << "unknown binary-format '" << format
        << "'; expected isa (PTX), bin (a cubin) or fatbin (both)";
    signalPassFailure();
  }

  std::string format;
};
} // namespace

/// The Q rows a CTA takes when no block-q is given: two warpgroups of
/// wgmma make the kernel 1.2-1.3x faster than one on the H200
/// (benchmarks/results/2026-12-02-h200-wgmma.md), while 8 warps of mma.sync
/// gain at D = 128 only. tools/sage-check-levels/CMakeLists.txt builds
/// sage-check-levels-wgmma-128 for this default.
static int64_t defaultBlockQ(bool warpgroup) { return warpgroup ? 128 : 64; }

/// A kernel module's lowering to NVVM, for both pipelines: the sage ops'
/// one pattern each, then upstream conversions. Kernels the levels derive
/// fill their workgroup tiles with the whole CTA first (L3), and read or
/// write windows that may overrun: convert-vector-to-scf (unrolled) guards
/// each row of those transfers; their K/V loops stage `stages` blocks,
/// with bulk copies where `bulkCopies` (sm_90a) and the tiles allow.
static void addKernelLowering(OpPassManager &kernels, unsigned stages,
                              bool bulkCopies, bool boundRegisters) {
  SagePipelineTilesOptions pipeline;
  pipeline.stages = stages;
  kernels.addPass(createSagePipelineTiles(pipeline));
  SageLowerStagingOptions staging;
  staging.bulkCopies = bulkCopies;
  kernels.addPass(createSageLowerStaging(staging));
  // Three CTAs an SM for the mma.sync kernel at D = 128, where they fit
  // (benchmarks/results/2026-12-06-rowdots.md).
  if (boundRegisters)
    kernels.addPass(createSageBoundRegisters());
  kernels.addPass(createConvertSageToNVVM());
  VectorTransferToSCFOptions unrolled;
  unrolled.unroll = true;
  kernels.addPass(createConvertVectorToSCFPass(unrolled));
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  // The vector and nvgpu conversions do not map #gpu.address_space.
  kernels.addPass(createSageNVVMAddressSpaces());
  kernels.addPass(createConvertVectorToLLVMPass());
  // cp.async groups and their tokens (the tokens vanish).
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  // NVVM ops with no LLVM intrinsic (mbarrier.try_wait.parity) become their
  // one PTX instruction.
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::sage::buildSageToPTXPipeline(OpPassManager &pm,
                                        const SageToPTXOptions &options) {
  // auto: each attention gets the chip's recipe (docs/Recipes.md); a
  // named variant is checked against each op's.
  if (options.variant == "auto") {
    SageSelectVariantOptions select;
    select.chip = options.chip;
    // The K/V block the decomposition below takes (a measured schedule
    // may change it only for the wgmma kernel, whose variant does not
    // depend on it).
    select.blockK = options.blockK ? int64_t(options.blockK) : 64;
    pm.addPass(createSageSelectVariant(select));
  } else if (!options.variant.empty()) {
    pm.addPass(
        std::make_unique<CheckVariantPass>(options.variant, "sage-to-ptx"));
  }
  pm.addPass(std::make_unique<CheckBinaryFormatPass>(options.binaryFormat));
  // A whole model compiles too: its attentions move into functions of
  // their own, and only those are compiled (docs/Launchers.md).
  pm.addPass(createSageOutlineAttention());
  pm.addPass(createSageSplitLaunchers());
  SageDecomposeAttentionOptions tiles;
  std::optional<bool> warpgroup =
      isWarpgroupScope(options.mmaScope, options.chip);
  tiles.blockQ = options.blockQ ? int64_t(options.blockQ)
                                : defaultBlockQ(warpgroup.value_or(false));
  tiles.warpQ = options.warpQ;
  tiles.blockK = options.blockK ? int64_t(options.blockK) : 64;
  // Neither tile given: the measured schedule where there is one (the rows
  // are the wgmma kernel's).
  if (!options.blockQ && !options.blockK && warpgroup.value_or(false)) {
    tiles.chip = options.chip;
    tiles.tuningTable = options.tuningTable;
  }
  pm.addPass(createSageDecomposeAttention(tiles));
  pm.addPass(createCanonicalizerPass());
  ConvertSageToGPUOptions gpu;
  gpu.chip = options.chip;
  gpu.mmaScope = options.mmaScope;
  gpu.kvStaging = options.kvStaging;
  gpu.kvStages = options.kvStages;
  gpu.ctasPerSm = options.ctasPerSm;
  gpu.warpSpecialize = options.warpSpecialize;
  gpu.overlapSoftmax = options.overlapSoftmax;
  gpu.warpgroupTurns = options.warpgroupTurns;
  gpu.tuningTable = options.tuningTable;
  pm.addPass(createConvertSageToGPU(gpu));
  if (options.emulateBlockScaledMma)
    pm.addPass(createSageEmulateBlockScaledMma());
  // The PTX ISA version follows from the MMA rows the kernels use, so the
  // target is attached while their sage ops are there.
  SageAttachNVVMTargetOptions target;
  target.chip = options.chip;
  target.optLevel = options.optLevel;
  pm.addPass(createSageAttachNVVMTarget(target));

  // The hand-written kernels stage no tiles of their own, and choose their
  // CTAs an SM themselves (ctas-per-sm).
  addKernelLowering(pm.nest<gpu::GPUModuleOp>(), /*stages=*/1,
                    /*bulkCopies=*/false, /*boundRegisters=*/false);

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.binaryFormat;
  binary.toolkitPath = options.cudaToolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::sage::buildSageToLLVMPipeline(OpPassManager &pm,
                                         const SageToPTXOptions &options) {
  buildSageToPTXPipeline(pm, options);
  // The host launchers (docs/Launchers.md) are func, arith, scf and cf
  // ops around gpu.launch_func, whose operands are LLVM types already:
  // MLIR's GPU translation turns the launches into mgpu* calls.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::sage::buildSageLevelsPipeline(OpPassManager &pm,
                                         const SageLevelsOptions &options) {
  pm.addPass(createSageRaiseAttention());
  // auto: each attention gets the chip's recipe (docs/Recipes.md), for the
  // K/V block the decomposition below takes; a named variant is checked
  // against each op's.
  if (options.variant == "auto") {
    SageSelectVariantOptions select;
    select.chip = options.chip;
    select.blockK = options.blockK ? int64_t(options.blockK) : 64;
    pm.addPass(createSageSelectVariant(select));
  } else if (!options.variant.empty()) {
    pm.addPass(
        std::make_unique<CheckVariantPass>(options.variant, "sage-levels"));
  }
  // The wgmma kernel's defaults (docs/Levels.md, measured on an H100): two
  // warpgroups a CTA (and two stages: sage-pipeline-tiles). sage-select-mma
  // decides the scope again per op from the same options.
  bool warpgroup =
      isWarpgroupScope(options.mmaScope, options.chip).value_or(false);
  // The quantization groups follow the tiles (per_thread Q groups of
  // block-q rows, K of block-k tokens).
  SageDecomposeAttentionOptions decompose;
  decompose.blockQ =
      options.blockQ ? int64_t(options.blockQ) : defaultBlockQ(warpgroup);
  decompose.blockK = options.blockK ? int64_t(options.blockK) : 64;
  // Neither tile given: the wgmma kernel takes the measured schedule's
  // tiles where its row is a schedule the levels build, every warp one
  // block after the other (docs/Tuning.md): 64 x 128 for K smoothing at
  // D = 64 and 128, whose CTAs of one warpgroup sage-bound-registers
  // makes three an SM at D = 128.
  if (warpgroup && !options.blockQ && !options.blockK) {
    decompose.chip = options.chip;
    decompose.sequentialSchedules = true;
  }
  // V quantized into the order the P V MMA reads (docs/Layouts.md), which
  // the kernel stages by plain copies; the wgmma reads V^T's tile through
  // descriptors, as a stage's core matrices, only from V stored so.
  decompose.storeValues = options.storeValues || warpgroup;
  decompose.valueOrder = options.valueOrder;
  pm.addPass(createSageDecomposeAttention(decompose));
  pm.addPass(createCanonicalizerPass());
  // The statistics and quantizers become linalg (the host side's level),
  // the attention a grid of tiles.
  pm.addPass(createSageLowerQuantizers());
  // Blocks 0: the tokens of each op's Q and K groups, which decomposition
  // made its blocks, or an input's quantized attention its own.
  SageTileAttentionOptions tile;
  tile.blockQ = options.blockQ;
  tile.blockK = options.blockK;
  tile.clusterCtas = options.clusterCtas;
  pm.addPass(createSageTileAttention(tile));
  SageSelectMmaOptions select;
  select.chip = options.chip;
  select.scope = options.mmaScope;
  pm.addPass(createSageSelectMma(select));
  pm.addPass(createSageAssignFragments());
  pm.addPass(createSageDistributeTiles());
  pm.addPass(createSagePackInt4());
  pm.addPass(createSagePromoteTiles());
  // The wgmma kernel's operands stored in its stages' order, so that a
  // stage is one contiguous copy (docs/Levels.md); V stored in its natural
  // key order is put in P's there, for mma.sync too. (With V row-major,
  // store-values=0, the mma.sync kernel transposes V^T's blocks itself.)
  if (warpgroup || options.storeValues || options.valueOrder != "accumulator")
    pm.addPass(createSageStoreStageOrder());
  // The copies into stage order quantize from the inputs themselves.
  pm.addPass(createSageFuseGatheredProducers());

  // From the lanes to a kernel (docs/Levels.md): lanes read the operands,
  // the grid is bufferized with the statistics and quantizers, each
  // launched, the buffers moved to the device, and the kernels outlined.
  pm.addPass(createSageFoldLaneReads());
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowUnknownOps = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Buffers of ops bufferization does not know are contiguous: their rows
  // have the static strides the staging copies need.
  bufferize.unknownTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A result the function stores into a buffer of its caller
  // (bufferization.materialize_in_destination) is computed there.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // The copies of a buffer into itself that the elimination and a slice
  // computed in place leave (CSE makes their two views one).
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSageLaunchGrid());
  pm.addPass(createSageLaunchLoops());
  pm.addPass(createSageDeviceAllocations());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // The host function's index arithmetic (a padded buffer's sizes) in arith.
  pm.addPass(createLowerAffinePass());
  SageAttachNVVMTargetOptions target;
  target.chip = options.chip;
  target.ctasPerSm = options.ctasPerSm;
  // The wgmma kernel at D = 64 (its wgmmas 64 columns wide): two CTAs an
  // SM, at 128 registers, beat one at the 160 it takes unbounded (H100,
  // benchmarks/results/2026-12-06-stage-order.md).
  target.narrowWgmmaCtasPerSm = 2;
  pm.addPass(createSageAttachNVVMTarget(target));

  // Stages 0: sage-pipeline-tiles picks them per loop.
  // The wgmma kernel's stages are contiguous (sage-store-stage-order):
  // bulk copies move them.
  addKernelLowering(pm.nest<gpu::GPUModuleOp>(), options.stages,
                    /*bulkCopies=*/warpgroup, /*boundRegisters=*/true);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::sage::registerSagePipelines() {
  PassPipelineRegistration<SageLevelsOptions>(
      "sage-levels",
      "The levels of the new lowering, from sage.attention to a kernel "
      "derived from the tiles, in PTX (docs/Levels.md), with a host "
      "function that launches it after the statistics and quantizers' "
      "kernels (no launch plan yet)",
      buildSageLevelsPipeline);
  PassPipelineRegistration<SageToPTXOptions>(
      "sage-to-ptx",
      "Compile sage.attention into PTX kernels and a launch plan "
      "(docs/LaunchPlan.md)",
      buildSageToPTXPipeline);
  PassPipelineRegistration<SageToPTXOptions>(
      "sage-to-llvm",
      "Compile sage.attention into PTX kernels and host launchers in the "
      "LLVM dialect, for mlir-translate --mlir-to-llvmir "
      "(docs/Launchers.md)",
      buildSageToLLVMPipeline);
}
