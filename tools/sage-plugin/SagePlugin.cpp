//===- SagePlugin.cpp - sage in upstream mlir-opt -------------------------===//
//
// One shared library that upstream `mlir-opt` (any tool linking the same
// libMLIR.so) loads twice:
//
//   mlir-opt --load-dialect-plugin=build/lib/SagePlugin.so \
//            --load-pass-plugin=build/lib/SagePlugin.so \
//            --pass-pipeline='builtin.module(sage-raise-attention)' in.mlir
//
// The dialect entry point adds the sage dialect to the tool's registry; the
// pass entry point registers sage's passes and the sage-to-ptx pipeline.
// mlir-opt registers every upstream dialect and pass itself. docs/Plugin.md
// says how to use it and why tools that link MLIR statically take the
// libraries instead.
//
//===----------------------------------------------------------------------===//

#include "sage/Conversion/Passes.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"
#include "sage/Pipelines/Pipelines.h"
#include "sage/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {
      MLIR_PLUGIN_API_VERSION, "sage", LLVM_VERSION_STRING,
      [](DialectRegistry *registry) { registry->insert<sage::SageDialect>(); }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "sage", LLVM_VERSION_STRING, [] {
            sage::registerSagePasses();
            sage::registerSageConversionPasses();
            sage::registerSagePipelines();
          }};
}
