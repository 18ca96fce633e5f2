//===- MatchUtils.h - helpers shared by the attention matchers -*- C++ -*-===//
//
// Small structural queries on linalg on tensors that more than one matcher
// needs: contractions, elementwise generics and their bodies, constants,
// casts and scales, reductions, broadcasts, and spelled-out softmaxes.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_LIB_TRANSFORMS_RAISEATTENTION_MATCHUTILS_H
#define SAGE_LIB_TRANSFORMS_RAISEATTENTION_MATCHUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace mlir::sage {

/// The contraction producing `value` with two tensor inputs and one init,
/// or null.
linalg::LinalgOp getContraction(Value value);

/// The same for the one result of a matcher's root op, or null.
linalg::LinalgOp getRootContraction(Operation *root);

/// A contraction adds into its init: only a zero init is a plain product.
bool hasZeroInit(linalg::LinalgOp op);

/// f16, bf16 or f32: the element types sage.attention takes.
bool isAttentionElementType(Type type);

/// The float a constant holds: a scalar, a splat tensor, or either seen
/// through float / integer-to-float casts, linalg.fill, linalg.broadcast,
/// tensor.extract and generics that only copy a constant.
std::optional<double> getConstantFloat(Value value);

/// Whether `init` is -inf or the lowest finite value of the float `type`:
/// the start of a max-reduction, or a mask value that hides a score.
bool isMaxIdentity(std::optional<double> init, Type type);

/// An elementwise linalg.generic on tensors: parallel loops only, one init
/// with the identity map (so loop dims are result dims), init not read.
bool isElementwise(linalg::GenericOp op);

/// The value the body of `op` yields, if it yields exactly one.
Value getYieldedValue(linalg::GenericOp op);

/// The input operand of `op` whose block argument is `value`, or null.
OpOperand *getInputOperand(linalg::GenericOp op, Value value);

/// `value` read through an identity indexing map: the input operand whose
/// block argument `value` is, when its map is the identity; else null.
OpOperand *getIdentityInput(linalg::GenericOp op, Value value);

/// `value` without a multiplication by the constant 1 (torch-mlir's `alpha`
/// of add / sub).
Value stripUnitFactor(Value value);

/// If `value` is an extf / truncf of a tensor (in an elementwise
/// linalg.generic or on the whole tensor), that tensor.
Value getCastInput(Value value);

/// If `value` is a tensor multiplied or divided by a constant (in the body,
/// or as a constant operand of any broadcast; by linalg.mul / div, or by
/// arith.mulf / divf on the whole tensor), that tensor and the factor.
std::optional<std::pair<Value, double>> getScaleInput(Value value);

/// If `value` is a transpose of a tensor (linalg.transpose, or a
/// linalg.generic copy through a permutation map), that tensor and the
/// permutation (result dim i = input dim perm[i]).
std::optional<std::pair<Value, SmallVector<int64_t>>>
getTransposeInput(Value value);

/// The kind of a reduction.
enum class ReductionKind { Max, Sum };

/// A linalg.generic or linalg.reduce reducing one dimension of one tensor.
struct Reduction {
  linalg::LinalgOp op;
  /// The reduced tensor (one result of `op`; any other is dead).
  Value result;
  ReductionKind kind;
  /// The reduced dimension of the input.
  unsigned axis;
  /// From input dims to result dims: where each result element is read;
  /// constant results are kept (unit dims).
  AffineMap map;
};

/// The max-reduction (init -inf or the lowest float) or sum-reduction
/// (init 0) producing `value`, if any; other results of its op, such as the
/// indices of torch's max.dim, must be dead.
std::optional<Reduction> getReduction(Value value);

/// Follows `value`, read at `map` (from some index space to the dims of
/// `value`), back through ops that only replicate, move or reshape
/// elements: linalg.broadcast, broadcasting linalg.generic copies (casts
/// allowed), linalg.transpose, tensor.expand_shape / collapse_shape of unit
/// dims. Returns the source
/// and the map at which it is read; appends the ops passed to `chain`.
std::pair<Value, AffineMap> traceBroadcast(Value value, AffineMap map,
                                           SmallVectorImpl<Operation *> &chain);

/// `map` without its constant results (reads of unit dims).
AffineMap dropConstantResults(AffineMap map);

/// The ops of a spelled-out softmax, found by structure alone.
struct SpelledSoftmax {
  /// P = e / z or e * (1 / z): the softmax's final op (an elementwise
  /// linalg.generic or an arith op on whole tensors, as `exp` and `sub`).
  Operation *normalize = nullptr;
  Value exps;
  /// The sum, where the normalization reads it (from the dims of e), and
  /// the ops in between (broadcasts, reshapes, a reciprocal).
  Reduction sum;
  AffineMap sumRead;
  SmallVector<Operation *> sumChain;
  /// e = exp(d) and d = s - m: one op when fused.
  Operation *exp = nullptr, *sub = nullptr;
  Value scores;
  Reduction max;
  AffineMap maxRead;
  SmallVector<Operation *> maxChain;
};

/// Matches a spelled-out softmax ending in `probs` by structure alone:
/// P = e / z or e * (1 / z) with z a sum-reduction, and e = exp(s - m) (one
/// generic, or a subtraction then an exp) with m a max-reduction; torch's
/// `alpha` of 1 allowed; each step in a linalg.generic or on whole tensors.
/// Whether the pieces agree (same tensor, same axis, no other users) is left to
/// the caller.
bool matchSpelledSoftmax(Value probs, SpelledSoftmax &softmax);

/// Whether a spelled-out softmax feeds `value` through a few elementwise
/// ops (dropout, a mask, ...), not through contractions or reductions:
/// `value` is then computed from the probabilities.
bool findSoftmaxAbove(Value value, SpelledSoftmax &softmax);

} // namespace mlir::sage

#endif // SAGE_LIB_TRANSFORMS_RAISEATTENTION_MATCHUTILS_H
