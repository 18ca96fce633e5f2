//===- SplitLaunchers.cpp - the launcher half or the model half -----------===//
//
// An outlined module (sage-outline-attention) holds the model and the
// attention functions it calls: sage compiles the second half into
// launchers, the frontend's compiler the first (docs/Launchers.md, "Whole
// models").
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGESPLITLAUNCHERS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// The C functions of the launcher library that run `func`
/// (convert-sage-to-gpu names them after it).
static DictionaryAttr getLauncherNames(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  StringRef name = func.getSymName();
  auto entry = [&](StringRef key, StringRef suffix) {
    return NamedAttribute(StringAttr::get(ctx, key),
                          StringAttr::get(ctx, (name + suffix).str()));
  };
  return DictionaryAttr::get(ctx, {entry("launch", "_launch"),
                                   entry("workspace_size", "_workspace_size"),
                                   entry("last_error", "_last_error")});
}

namespace {
struct SageSplitLaunchersPass
    : public sage::impl::SageSplitLaunchersBase<SageSplitLaunchersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (keep != "launchers" && keep != "model") {
      module.emitError() << "unknown keep '" << keep
                         << "'; expected launchers or model";
      return signalPassFailure();
    }
    for (Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations())) {
      auto func = dyn_cast<func::FuncOp>(op);
      bool launcher = func && isAttentionOnlyFunction(func);
      // Neither half may lose the model's ops or the attention.
      if (func && !launcher && holdsAttention(func)) {
        func.emitOpError() << "holds an attention among other ops; run "
                              "sage-outline-attention first, which moves each "
                              "sage.attention into a function of its own";
        return signalPassFailure();
      }
      if (keep == "launchers") {
        if (!launcher)
          op.erase();
        continue;
      }
      if (!launcher)
        continue;
      // The model's declaration: the same signature and buffer names, no
      // body, and the C functions to bind it to.
      func.eraseBody();
      func.setPrivate();
      func->setAttr("sage.launcher", getLauncherNames(func));
    }
  }
};
} // namespace
