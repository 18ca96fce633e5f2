//===- SageOps.h - sage operations ------------------------------*- C++ -*-===//

#ifndef SAGE_DIALECT_SAGE_IR_SAGEOPS_H
#define SAGE_DIALECT_SAGE_IR_SAGEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "sage/Dialect/Sage/IR/SageAttrs.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"
#include "sage/Dialect/Sage/IR/SageTypes.h"

namespace mlir::sage {
/// A warpgroup's queue of wgmmas in flight, with the registers they read
/// and write until their wait (docs/Levels.md, L4): what
/// sage.warpgroup_fence, sage.warpgroup_mma, sage.warpgroup_commit and
/// sage.warpgroup_wait write, so that no pass reorders, merges or drops
/// them, while passes that ask which memory an op writes (a wgmma writes
/// none) see that they write none.
struct WgmmaQueueResource
    : public SideEffects::Resource::Base<WgmmaQueueResource> {
  StringRef getName() override { return "sage::WgmmaQueue"; }
};
} // namespace mlir::sage

#define GET_OP_CLASSES
#include "sage/Dialect/Sage/IR/SageOps.h.inc"

#endif // SAGE_DIALECT_SAGE_IR_SAGEOPS_H
