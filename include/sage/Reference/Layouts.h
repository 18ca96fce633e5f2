//===- Layouts.h - where the CPU model stores MMA operands ------*- C++ -*-===//
//
// The CPU model's side of the operand layouts (docs/Layouts.md): operands
// it hands to a kernel already stored as the kernel's MMA reads them. The
// compiler's side is #sage.mma_packed / #sage.mma_ordered
// (lib/Dialect/Sage/IR/OperandLayouts.cpp); a kernel that disagrees with
// this copy fails its GPU checks against the model.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_REFERENCE_LAYOUTS_H
#define SAGE_REFERENCE_LAYOUTS_H

#include <cstdint>

namespace sage::ref {

/// The key that MMA position \p position holds when chunks of \p k keys
/// (32 for 8-bit V, 64 for 4-bit) are fed in the accumulator order:
/// position (k / 2) h + (k / 8) t + i holds key (k / 2) h + 8 (i / 2) +
/// 2 t + i % 2 of its chunk, the keys lane t holds in P's accumulator.
inline int64_t accumulatorOrderKey(int64_t k, int64_t position) {
  int64_t e = k / 8, base = position / k * k, p = position % k;
  int64_t h = p / (k / 2), t = p % (k / 2) / e, i = p % e;
  return base + h * (k / 2) + i / 2 * 8 + t * 2 + i % 2;
}

} // namespace sage::ref

#endif // SAGE_REFERENCE_LAYOUTS_H
