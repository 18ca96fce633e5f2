//===- SageDialect.cpp - sage dialect registration ------------------------===//

#include "sage/Dialect/Sage/IR/SageDialect.h"
#include "sage/Dialect/Sage/IR/SageOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::sage;

#include "sage/Dialect/Sage/IR/SageDialect.cpp.inc"

namespace {
/// Short names for the distribute level's tensor encodings, which every
/// tile of a function repeats (`tensor<64x64xf32, #acc_fragment>`).
struct SageOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<AccFragmentAttr>(attr)) {
      os << "acc_fragment";
      return AliasResult::FinalAlias;
    }
    if (auto rows = dyn_cast<RowFragmentAttr>(attr)) {
      os << (rows.getPartialSums() ? "row_sums" : "row_fragment");
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void SageDialect::initialize() {
  registerAttributes();
  registerTypes();
  addInterfaces<SageOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "sage/Dialect/Sage/IR/SageOps.cpp.inc"
      >();
}
