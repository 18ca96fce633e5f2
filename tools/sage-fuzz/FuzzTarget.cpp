//===- FuzzTarget.cpp - libFuzzer entry: parse, verify, sage's passes -----===//
//
// Each input is one MLIR module: parsed (unregistered frontend ops
// allowed), verified, then run through the raise, decompose, tile,
// select-mma, assign-fragments, distribute-tiles, promote-tiles and
// lower-staging passes and the current GPU lowering. Failing is fine;
// crashing, or a sanitizer report, is a bug (docs/Fuzzing.md).
//
//===----------------------------------------------------------------------===//

#include "FrontendDialects.h"
#include "IrMutator.h"
#include "UpstreamCrashes.h"

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

static const DialectRegistry &getRegistry() {
  static DialectRegistry registry = [] {
    DialectRegistry r;
    r.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
             linalg::LinalgDialect, LLVM::LLVMDialect, math::MathDialect,
             memref::MemRefDialect, NVVM::NVVMDialect, scf::SCFDialect,
             sage::SageDialect, tensor::TensorDialect>();
    // As in sage-opt: the frontends' attributes (#stablehlo.dot<...>) parse.
    sage::registerFrontendDialects(r);
    return r;
  }();
  return registry;
}

/// Runs `passes` on a copy of `module`; failures are expected and ignored.
static void runPasses(ModuleOp module,
                      function_ref<void(OpPassManager &)> passes) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  passes(pm);
  (void)pm.run(*copy);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The MLIR lexer reads up to a terminating NUL, which libFuzzer's buffer
  // lacks: parse a NUL-terminated copy.
  std::string buffer(reinterpret_cast<const char *>(data), size);
  StringRef text(buffer);
  if (sage::fuzz::hitsKnownUpstreamCrash(text))
    return -1; // keep out of the corpus
  // A fresh context per input: nothing uniqued by one input reaches the next.
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module || failed(verify(*module)))
    return 0;

  runPasses(*module, [](OpPassManager &pm) {
    sage::SageRaiseAttentionOptions raise;
    raise.explain = true;
    pm.addPass(sage::createSageRaiseAttention(raise));
    pm.addPass(sage::createSageDecomposeAttention());
    pm.addPass(sage::createSageTileAttention());
    sage::SageSelectMmaOptions select;
    select.chip = "sm_90a";
    pm.addPass(sage::createSageSelectMma(select));
  });
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createSageRaiseAttention());
    pm.addPass(sage::createSageDecomposeAttention());
    pm.addPass(sage::createConvertSageToGPU());
    pm.addPass(sage::createConvertSageToNVVM());
  });
  // The distribute level after mma.sync selection.
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createSageTileAttention());
    sage::SageSelectMmaOptions select;
    select.chip = "sm_89";
    pm.addPass(sage::createSageSelectMma(select));
    pm.addPass(sage::createSageAssignFragments());
    pm.addPass(sage::createSageDistributeTiles());
    pm.addPass(sage::createSagePackInt4());
    pm.addPass(sage::createSagePromoteTiles());
    pm.addPass(sage::createSageFoldLaneReads());
  });
  // The tile level, the instruction selection, the distribute level, the
  // kernel's steps and L5 on input written at their own level
  // (sage.quantized_attention, sage.qmma, encoded tiles, lanes' reads and
  // grids, sage.warp_mma).
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createSageAssignFragments());
    pm.addPass(sage::createSageDistributeTiles());
  });
  runPasses(*module,
            [](OpPassManager &pm) { pm.addPass(sage::createSagePackInt4()); });
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createSagePromoteTiles());
    pm.addPass(sage::createSageFoldLaneReads());
    pm.addPass(sage::createSageLaunchGrid());
  });
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createSagePipelineTiles());
    pm.addPass(sage::createSageLowerStaging());
  });
  runPasses(*module, [](OpPassManager &pm) {
    pm.addPass(sage::createConvertSageToNVVM());
    pm.addPass(sage::createSageTileAttention());
    sage::SageSelectMmaOptions select;
    select.chip = "sm_100a";
    pm.addPass(sage::createSageSelectMma(select));
  });
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  return sage::fuzz::mutateIr(data, size, maxSize, seed);
}
