//===- LayoutChains.h - ops that only re-describe an operand ----*- C++ -*-===//
//
// Between a frontend's tensors and an attention sit ops that only change how
// the same memory is described: a transpose that swaps tokens and heads, and
// reshapes that merge or split the leading (batch-like) dims. The kernels
// read through them (a swap is the [batch, tokens, heads, features] memory
// order), so both the outlining of attentions and the GPU lowering walk them
// (docs/Launchers.md, "Whole models").
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_DIALECT_SAGE_UTILS_LAYOUTCHAINS_H
#define SAGE_DIALECT_SAGE_UTILS_LAYOUTCHAINS_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::sage {

/// A chain of layout ops from `source` to the value it was traced from.
struct LayoutChain {
  Value source;
  /// The ops crossed, the one defining the traced value first.
  SmallVector<Operation *> ops;
  /// Whether a tokens <-> heads transpose was crossed (at most one is).
  bool swapped = false;
};

/// Whether `op` is a layout op the kernels read through: a linalg.transpose
/// with permutation [0, 2, 1, 3], or a tensor.expand_shape /
/// tensor.collapse_shape that only merges or splits leading dims (tokens
/// and features stay the last two).
bool isLayoutOp(Operation *op);

/// Walks from `value` up through layout ops, stopping at `stop`, at a
/// second transpose, at a transpose when `allowSwap` is false, or where no
/// layout op defines the value. With `singleUse`, only through values whose
/// one use is the next op of the chain.
LayoutChain traceLayoutChain(Value value, Value stop = {},
                             bool allowSwap = true, bool singleUse = false);

/// Walks from `value` down through layout ops that are its one use, with
/// the same rules as traceLayoutChain; `source` is `value` and the chain's
/// end is the last op's result (or `value` when `ops` is empty).
LayoutChain traceLayoutUsers(Value value, bool allowSwap = true);

} // namespace mlir::sage

#endif // SAGE_DIALECT_SAGE_UTILS_LAYOUTCHAINS_H
