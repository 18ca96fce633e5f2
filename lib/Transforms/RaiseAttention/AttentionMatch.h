//===- AttentionMatch.h - matched attention, shared by forms ----*- C++ -*-===//
//
// Each frontend form of attention has a matcher that fills an
// AttentionMatch; one rewrite (RaiseAttention.cpp) turns any match into
// sage.attention. A new form is a new matcher file and one line in
// RaiseAttention.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H
#define SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
namespace linalg {
class LinalgOp;
} // namespace linalg

namespace sage {

/// Attention found in some frontend form, in sage.attention's terms.
///
/// The canonical order of the operands is [batch dims..., tokens, features]
/// (and [batch dims..., queries, keys] for the mask); a permutation `perm`
/// of an operand says which of its dimensions goes to each canonical
/// position (canonical = linalg.transpose(operand, perm)); empty means the
/// operand is already canonical.
struct AttentionMatch {
  Value query, key, value;
  SmallVector<int64_t> queryPerm, keyPerm, valuePerm;
  /// Number of leading batch dimensions: 0 (a unit batch is added), 1
  /// ([batch, tokens, features]), 2 ([batch, heads, tokens, features]) or
  /// more (all but the last are collapsed into batch).
  unsigned batchDims = 1;
  /// An i1 keep-mask or an additive float mask, if any.
  Value mask;
  SmallVector<int64_t> maskPerm;
  /// Causal, aligned bottom-right (sage.attention's default) or top-left
  /// (the frontends' is_causal, kept where Nq = Nk is not proven).
  bool causal = false, causalTopLeft = false;
  /// The value the attention replaces; `resultPerm` takes the canonical
  /// result [batch dims..., queries, features] to its order.
  Value result;
  SmallVector<int64_t> resultPerm;
  double scale = 1.0;
  /// Set once the form is recognized (a softmax, or an attention op): a
  /// match that fails after this point is attention that was refused, not
  /// some other computation, and `explain` reports it.
  Operation *anchor = nullptr;
  /// Why the match failed.
  std::string refusal;

  /// Records why the match failed and returns failure.
  LogicalResult refuse(const Twine &why) {
    refusal = why.str();
    return failure();
  }
};

/// Matches the upstream linalg form rooted at `root`, the P*V contraction:
/// Q*K^T (matmul / batch_matmul, K transposed by maps or linalg.transpose),
/// an optional scale, linalg.softmax over keys, optional casts, then *V.
LogicalResult matchLinalgAttention(linalg::LinalgOp root,
                                   AttentionMatch &match);

/// Matches attention whose softmax is spelled out (max-reduce, exp(s - m),
/// sum-reduce, divide), as torch-mlir's decomposition of SDPA and
/// StableHLO-style chains produce it, rooted at the P*V contraction.
LogicalResult matchDecomposedAttention(linalg::LinalgOp root,
                                       AttentionMatch &match);

/// Matches torch-mlir's tm_tensor.attention, by name and structure (the op
/// may be unregistered): Q, K, V [, mask] with batch and heads collapsed,
/// an optional `scale` attribute (default 1/sqrt(D)); a materialized causal
/// mask becomes `causal`.
LogicalResult matchTorchAttention(Operation *op, AttentionMatch &match);

/// Matches iree_linalg_ext.attention, by name and structure: operand roles
/// from its indexing maps, a constant scale operand, an identity score
/// region, an optional mask.
LogicalResult matchIreeAttention(Operation *op, AttentionMatch &match);

/// Shared by the matchers: if `mask` is the materialized causal mask of
/// `queries` x `keys` scores (0 / -inf or true / false by position, built
/// by a linalg.generic from linalg.index), true.
bool isCausalMask(Value mask);

/// Shared by the matchers: records `mask` (permuted by `perm` to [batch...,
/// queries, keys]) in `match`, as `causal` when it is the materialized
/// causal mask (aligned top-left unless `queries` = `keys` is static), as
/// the mask operand otherwise.
LogicalResult recordMask(AttentionMatch &match, Value mask,
                         ArrayRef<int64_t> perm, int64_t queries, int64_t keys);

/// For `explain`: if `contraction`'s result reaches a softmax (an exp and
/// a reduction) through elementwise steps that no matcher read, why it was
/// not raised (SoftmaxCandidates.cpp); nothing when it does not, or when a
/// step on the way is in `explained` (a matcher already said why).
std::optional<std::string>
explainUnmatchedSoftmax(Operation *contraction,
                        const llvm::DenseSet<Operation *> &explained);

} // namespace sage
} // namespace mlir

#endif // SAGE_LIB_TRANSFORMS_RAISEATTENTION_ATTENTIONMATCH_H
