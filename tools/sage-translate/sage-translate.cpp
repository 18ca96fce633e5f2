//===- sage-translate.cpp - export compiled sage kernels ------------------===//
//
// mlir-translate for the output of --sage-to-ptx: writes the PTX of one
// kernel module (--sage-export-ptx) or its launch plan as JSON
// (--sage-export-plan, docs/LaunchPlan.md), the two files sage-run reads;
// --sage-export-name renames the plan and the PTX file it points to. For
// the output of --sage-to-llvm it writes LLVM IR (--mlir-to-llvmir) and
// the C header of the host launchers (--sage-export-header,
// docs/Launchers.md).
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

static llvm::cl::opt<std::string> kernelModuleName(
    "sage-kernel-module",
    llvm::cl::desc("Kernel module to export when the input holds several"),
    llvm::cl::init(""));

static llvm::cl::opt<std::string> exportName(
    "sage-export-name",
    llvm::cl::desc("With --sage-export-plan: name of the exported plan and "
                   "of the PTX file it points to (default: the kernel "
                   "module's); for one module compiled under several "
                   "pipeline options"),
    llvm::cl::init(""));

/// The name and launch plan of the kernel module to export: the one named
/// by --sage-kernel-module, or the only one.
static FailureOr<NamedAttribute> getSelectedPlan(ModuleOp module) {
  auto plans = module->getAttrOfType<DictionaryAttr>("sage.launch_plans");
  if (!plans || plans.empty())
    return module.emitError("no sage.launch_plans: run --sage-to-ptx first");
  if (!kernelModuleName.empty()) {
    std::optional<NamedAttribute> plan = plans.getNamed(kernelModuleName);
    if (!plan)
      return module.emitError() << "no kernel module '" << kernelModuleName
                                << "'; the input has " << plans;
    return *plan;
  }
  if (plans.size() != 1) {
    InFlightDiagnostic diag = module.emitError()
                              << "the input has " << plans.size()
                              << " kernel modules; pick one with "
                                 "--sage-kernel-module:";
    for (NamedAttribute plan : plans)
      diag << " " << plan.getName().getValue();
    return diag;
  }
  return *plans.begin();
}

static LogicalResult exportPtx(ModuleOp module, raw_ostream &os) {
  // Kernels compiled without a launch plan (e.g. the instruction tests)
  // are exported by name.
  StringRef name = kernelModuleName;
  if (module->hasAttr("sage.launch_plans") || name.empty()) {
    FailureOr<NamedAttribute> plan = getSelectedPlan(module);
    if (failed(plan))
      return failure();
    name = plan->getName().getValue();
  }
  auto binary = module.lookupSymbol<gpu::BinaryOp>(name);
  if (!binary)
    return module.emitError() << "no gpu.binary @" << name
                              << ": the pipeline did not reach "
                                 "gpu-module-to-binary";
  for (Attribute object : binary.getObjects()) {
    auto objectAttr = dyn_cast<gpu::ObjectAttr>(object);
    if (objectAttr &&
        objectAttr.getFormat() == gpu::CompilationTarget::Assembly) {
      os << objectAttr.getObject().getValue();
      return success();
    }
  }
  return binary.emitError("holds no PTX (format=isa) object");
}

/// Attributes of a launch plan as JSON values.
static llvm::json::Value toJson(Attribute attr) {
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = toJson(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array values;
    for (Attribute element : array)
      values.push_back(toJson(element));
    return values;
  }
  if (auto string = dyn_cast<StringAttr>(attr))
    return string.getValue().str();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  return nullptr;
}

static LogicalResult exportPlan(ModuleOp module, raw_ostream &os) {
  FailureOr<NamedAttribute> plan = getSelectedPlan(module);
  if (failed(plan))
    return failure();
  llvm::json::Value json = toJson(plan->getValue());
  if (!exportName.empty()) {
    llvm::json::Object &object = *json.getAsObject();
    object["name"] = exportName.getValue();
    object["ptx"] = exportName + ".ptx";
  }
  os << llvm::formatv("{0:2}", json) << "\n";
  return success();
}

/// The C prototype of each host launcher (functions marked sage.launcher;
/// argument names and types from sage.c_name / sage.c_type).
static LogicalResult exportHeader(ModuleOp module, raw_ostream &os) {
  // One guard per module: the first launcher's name.
  std::string guard = "SAGE_LAUNCHERS_H";
  module.walk([&](FunctionOpInterface func) {
    if (!func->hasAttr("sage.launcher"))
      return WalkResult::advance();
    guard =
        "SAGE_" + StringRef(SymbolTable::getSymbolName(func)).upper() + "_H";
    return WalkResult::interrupt();
  });
  os << "/* Generated by sage-translate --sage-export-header: the host "
        "launchers of\n * sage-compiled attentions (docs/Launchers.md). */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <cuda.h>\n#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  bool any = false;
  WalkResult result = module.walk([&](FunctionOpInterface func) {
    if (!func->hasAttr("sage.launcher"))
      return WalkResult::advance();
    any = true;
    ArrayRef<Type> results = func.getResultTypes();
    std::string resultType = "void";
    if (auto named = func->getAttrOfType<StringAttr>("sage.c_result"))
      resultType = named.str();
    else if (results.size() == 1 && results[0].isInteger(64))
      resultType = "int64_t";
    else if (results.size() == 1 && results[0].isInteger(32))
      resultType = "int32_t";
    os << "\n";
    if (auto doc = func->getAttrOfType<StringAttr>("sage.c_doc")) {
      SmallVector<StringRef> lines;
      doc.getValue().split(lines, '\n');
      os << "/* " << SymbolTable::getSymbolName(func).getValue() << ":\n";
      for (StringRef line : lines)
        os << " *   " << line << "\n";
      os << " */\n";
    }
    os << resultType << (StringRef(resultType).ends_with("*") ? "" : " ")
       << SymbolTable::getSymbolName(func).getValue() << "(";
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto name = func.getArgAttrOfType<StringAttr>(i, "sage.c_name");
      auto type = func.getArgAttrOfType<StringAttr>(i, "sage.c_type");
      if (!name || !type) {
        func.emitError() << "argument " << i
                         << " has no sage.c_name / sage.c_type";
        return WalkResult::interrupt();
      }
      StringRef sep = type.getValue().ends_with("*") ? "" : " ";
      os << (i ? ", " : "") << type.getValue() << sep << name.getValue();
    }
    os << (func.getNumArguments() ? ");\n" : "void);\n");
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!any)
    return module.emitError("no host launchers: run --sage-to-ptx or "
                            "--sage-to-llvm first");
  os << "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
  return success();
}

int main(int argc, char **argv) {
  // The host launchers of --sage-to-ptx's output are func / arith / scf /
  // cf ops around gpu.launch_func; --sage-to-llvm's are LLVM.
  auto registerDialects = [](DialectRegistry &registry) {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                    func::FuncDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                    NVVM::NVVMDialect, scf::SCFDialect>();
    // The host functions of --sage-levels: views and buffers beside the
    // launches.
    registry.insert<bufferization::BufferizationDialect, memref::MemRefDialect,
                    sage::SageDialect, tensor::TensorDialect,
                    vector::VectorDialect>();
  };
  registerToLLVMIRTranslation();
  TranslateFromMLIRRegistration header(
      "sage-export-header",
      "Write the C header of the host launchers (docs/Launchers.md)",
      exportHeader, registerDialects);
  TranslateFromMLIRRegistration ptx(
      "sage-export-ptx", "Write the PTX of a --sage-to-ptx kernel module",
      exportPtx, registerDialects);
  TranslateFromMLIRRegistration plan(
      "sage-export-plan",
      "Write the launch plan of a --sage-to-ptx kernel module as JSON",
      exportPlan, registerDialects);
  return failed(mlirTranslateMain(argc, argv, "sage kernel exporter"));
}
