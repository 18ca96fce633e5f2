//===- WorkgroupStaging.h - what stages a workgroup tile -----*- C++ -*-===//
//
// One definition of a staging, shared by sage.stage_async's verifier,
// sage-pipeline-tiles and sage-lower-staging (docs/Levels.md, L3): what
// the pass groups, the verifier accepts and the lowering issues must agree.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_IR_WORKGROUPSTAGING_H
#define SAGE_DIALECT_SAGE_IR_WORKGROUPSTAGING_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::sage {

/// Whether `value` is a memref in #gpu.address_space<workgroup>.
bool isWorkgroupBuffer(Value value);

/// Whether `op` stages: a destination-style op on buffers (a
/// sage.stage_tile, a linalg product) writing workgroup tiles only, from
/// values outside workgroup memory.
bool isStaging(Operation *op);

} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_IR_WORKGROUPSTAGING_H
