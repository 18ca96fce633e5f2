//===- IrMutator.h - structure-aware mutations of MLIR text -----*- C++ -*-===//
//
// Mutations that keep most inputs parseable, so that they reach sage's
// matchers: change one dimension of a shaped type, one element type, one
// numeric attribute, an op name into a related one; drop, duplicate or
// swap lines; else libFuzzer's byte-level mutation.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_TOOLS_SAGE_FUZZ_IRMUTATOR_H
#define SAGE_TOOLS_SAGE_FUZZ_IRMUTATOR_H

#include <cstddef>
#include <cstdint>

namespace mlir::sage::fuzz {
/// Mutates `data[0, size)` in place (at most `maxSize` bytes); returns the
/// new size.
size_t mutateIr(uint8_t *data, size_t size, size_t maxSize, unsigned seed);
} // namespace mlir::sage::fuzz

#endif // SAGE_TOOLS_SAGE_FUZZ_IRMUTATOR_H
