//===- AttentionMatch.h - matched attention, shared by the forms -*- C++ -*-===//
//
// Each frontend form of attention has a matcher that fills an
// AttentionMatch; one rewrite turns any match into sage.attention. A new
// form is a new matcher file and one line in RaiseAttention.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H
#define SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir {
class Operation;
namespace linalg {
class LinalgOp;
} // namespace linalg

namespace sage {

/// Attention found in some frontend form, in sage.attention's terms. The
/// operands are laid out [batch, tokens, features], or [tokens, features]
/// when `unbatched` (the rewrite then adds a unit batch dimension).
struct AttentionMatch {
  Value query, key, value;
  /// The value the attention replaces.
  Value result;
  double scale = 1.0;
  bool unbatched = false;
  /// The softmax of the form, once found: a match that fails after this
  /// point is attention that was refused, not some other computation.
  Operation *softmax = nullptr;
  /// Why the match failed.
  std::string refusal;
};

/// Matches the upstream linalg form rooted at `root`, the P*V contraction:
/// Q*K^T (matmul / batch_matmul, K transposed by maps or linalg.transpose),
/// an optional scale, linalg.softmax over keys, optional casts, then *V.
LogicalResult matchLinalgAttention(linalg::LinalgOp root,
                                   AttentionMatch &match);

} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H
