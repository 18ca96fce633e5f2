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
