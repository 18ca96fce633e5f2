//===- SageTypes.cpp - sage types -----------------------------------------===//

#include "sage/Dialect/Sage/IR/SageTypes.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::sage;

#define GET_TYPEDEF_CLASSES
#include "sage/Dialect/Sage/IR/SageTypes.cpp.inc"

void SageDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "sage/Dialect/Sage/IR/SageTypes.cpp.inc"
      >();
}

LogicalResult
StageRingType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t stages, int64_t consumers) {
  if (stages < 1)
    return emitError() << "a stage ring needs at least one stage; got "
                       << stages;
  if (consumers < 0)
    return emitError() << "a stage ring's consumers are a thread count; got "
                       << consumers;
  return success();
}
