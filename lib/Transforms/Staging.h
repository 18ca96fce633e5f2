//===- Staging.h - tiles the promote level puts in workgroup memory -*- C++
//-*-===//
//
// Shared by sage-promote-tiles, which stages CTA-wide tiles in workgroup
// memory, and the passes after it that must leave those tiles where they
// are (docs/Levels.md, L3).
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_STAGING_H
#define SAGE_LIB_TRANSFORMS_STAGING_H

#include "mlir/IR/Value.h"

namespace mlir::sage {

/// Whether the tensor `tile` is computed into workgroup memory: it is, or
/// is computed in place (destination-passing style, slices) into, a
/// bufferization.alloc_tensor in #gpu.address_space<workgroup>.
bool isInWorkgroupMemory(Value tile);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_STAGING_H
