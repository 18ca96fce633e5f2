//===- StableHlo.h - attention in StableHLO ops, seen as linalg -*- C++ -*-===//
//
// JAX writes attention in StableHLO ops, which sage-opt reads in MLIR's
// generic form (the ops are unregistered; docs/Frontends.md). Rather than a
// second matcher for the same math, the ops of one candidate are rebuilt
// as the linalg on tensors that matchDecomposedAttention reads (what
// stablehlo-legalize-to-linalg would make of them, for the few ops
// attention uses), next to the originals; the rewrite then either raises
// the linalg slice and erases the StableHLO ops it replaces, or erases the
// slice and leaves the IR as it was.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_RAISEATTENTION_STABLEHLO_H
#define SAGE_LIB_TRANSFORMS_RAISEATTENTION_STABLEHLO_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::sage {

/// The linalg form of one StableHLO attention candidate.
struct StableHloSlice {
  /// The P*V contraction, for matchDecomposedAttention.
  linalg::LinalgOp root;
  /// The StableHLO value the slice stands for (the end of P*V's layout
  /// chain) and its linalg counterpart, which has taken over its uses.
  Value original, converted;
  /// The ops built, in order.
  SmallVector<Operation *> created;
  /// The StableHLO ops (and calls) the slice stands for, in the order they
  /// were read: erased where dead once the attention is raised.
  SmallVector<Operation *> replaced;
};

/// Whether `op` is a stablehlo.dot_general one of whose operands comes
/// from a stablehlo.exponential: the P*V of attention in StableHLO.
bool isStableHloAttentionRoot(Operation *op);

/// Builds the linalg form of the attention whose P*V is `root`, before
/// the end of the product's layout chain, and moves the uses of that
/// chain's result to it. Values the
/// slice does not convert (function arguments, other ops) are read as
/// they are. On failure nothing is left and `why` says what was not read.
FailureOr<StableHloSlice> convertStableHloAttention(RewriterBase &rewriter,
                                                    Operation *root,
                                                    std::string &why);

/// Parses `name = [i, j, ...]` out of the text of an opaque StableHLO
/// attribute (e.g. #stablehlo.dot<lhs_batching_dimensions = [0, 2], ...>).
std::optional<SmallVector<int64_t>> parseDimensionList(StringRef text,
                                                       StringRef name);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_RAISEATTENTION_STABLEHLO_H
