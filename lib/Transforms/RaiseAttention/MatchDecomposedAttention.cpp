//===- MatchDecomposedAttention.cpp - attention, softmax spelled out ------===//
//
// Recognizes, walking back from the P*V contraction, attention whose softmax
// frontends spell out in elementwise ops and reductions:
//
//   S = Q * K^T         contraction: batch_matmul, matmul or a generic
//   S = S * c, S + M    constant scales, one additive mask, casts, reshapes
//                       and transposes, in any order
//   m = max_keys(S)     max-reduction (keepdim or not)
//   e = exp(S - m)      one generic, or a subtraction then an exp
//   z = sum_keys(e)     sum-reduction
//   P = e / z           or e * (1 / z)
//   P = cast(P)         casts, reshapes and transposes only
//   O = P * V           contraction
//
// torch-mlir's decomposition of scaled_dot_product_attention collapses
// [B, H, L, E] into [B*H, L, E] around linalg.batch_matmul; StableHLO's
// dot_general becomes a linalg.generic contraction on 4-D tensors with
// transposes between BTNH and BNTH. Both are handled by labelling every
// dimension with the axes of attention it spans (AxisSpace): contraction
// maps give the labels, transposes permute them, reshapes split and merge
// batch axes. Q, K, V and the result are then taken from as far along
// their transposes and reshapes as their labels stay one canonical axis
// per dimension, with the permutations to [batch..., tokens, features].
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
/// The axes of attention; batch axes are numbered from kFirstBatch on, in
/// the order they are found.
enum Axis : unsigned {
  kQueries,
  kKeys,
  kFeatures,
  kValueFeatures,
  kFirstBatch,
  kNoAxis = ~0u
};

/// The axes one dimension spans, outermost first: one axis, several batch
/// axes where batch dimensions are collapsed, none for a broadcast unit dim.
using Label = SmallVector<unsigned, 2>;
/// The labels of the dimensions of a tensor.
using Labels = SmallVector<Label, 4>;

/// The batch axes of one attention, and how reshapes split them: the batch
/// axis B*H of a 3-D contraction may be split into the parts B and H, one
/// level deep.
class AxisSpace {
public:
  /// Adds a batch axis of `size` (static or dynamic), a part of `parent`.
  unsigned addBatch(int64_t size, unsigned parent = kNoAxis) {
    axes.push_back({size, parent, {}});
    return kFirstBatch + axes.size() - 1;
  }

  /// The labels after expanding dims with `labels` by `reassociation` into
  /// `shape`: a batch axis is split into parts (the same parts wherever it
  /// is split), collapsed batch axes are separated again. Fails where the
  /// sizes do not prove the split, except that with `allowUnproven` a batch
  /// axis may be split into parts whose sizes nothing proves (two dynamic
  /// sizes): such parts are only carried along the scores until they are
  /// collapsed back, and no operand may be taken from a split form of it.
  FailureOr<Labels> expand(const Labels &labels,
                           ArrayRef<ReassociationIndices> reassociation,
                           ArrayRef<int64_t> shape,
                           bool allowUnproven = false) {
    Labels result(shape.size());
    for (auto [label, group] : llvm::zip_equal(labels, reassociation)) {
      if (group.size() == 1) {
        result[group[0]] = label;
        continue;
      }
      SmallVector<int64_t> sizes;
      for (int64_t dim : group)
        sizes.push_back(shape[dim]);
      // Unit dims added around one dim: they span no axis.
      if (llvm::count(sizes, 1) + 1 >= int64_t(sizes.size())) {
        auto *kept =
            llvm::find_if(sizes, [](int64_t size) { return size != 1; });
        for (auto [i, dim] : llvm::enumerate(group))
          result[dim] =
              (kept == sizes.end() ? i == 0
                                   : int64_t(i) == kept - sizes.begin())
                  ? label
                  : Label();
        continue;
      }
      // With one dynamic size at most, the product fixes every size.
      bool proven = llvm::count(sizes, ShapedType::kDynamic) <= 1;
      if (!proven && !allowUnproven)
        return failure();
      Label parts = label;
      if (label.size() == 1 && isBatch(label[0])) {
        if (get(label[0]).parts.empty()) {
          if (get(label[0]).parent != kNoAxis)
            return failure();
          get(label[0]).unproven = !proven;
          for (int64_t size : sizes) {
            unsigned part = addBatch(size, label[0]);
            get(label[0]).parts.push_back(part);
          }
        }
        if (get(label[0]).unproven && !allowUnproven)
          return failure();
        parts = get(label[0]).parts;
      } else if (!proven) {
        return failure();
      }
      if (parts.size() != group.size())
        return failure();
      for (auto [part, dim, size] : llvm::zip_equal(parts, group, sizes)) {
        if (!isBatch(part) || get(part).size != size)
          return failure();
        result[dim] = {part};
      }
    }
    return result;
  }

  /// The labels after collapsing dims with `labels` by `reassociation`:
  /// only batch axes may share a dim; all the parts of an axis name it.
  FailureOr<Labels> collapse(const Labels &labels,
                             ArrayRef<ReassociationIndices> reassociation) {
    Labels result;
    for (const ReassociationIndices &group : reassociation) {
      Label merged;
      for (int64_t dim : group)
        merged.append(labels[dim]);
      // Unit dims (no axis) may join any dim; axes only batch axes.
      if (merged.size() > 1 && !llvm::all_of(merged, isBatch))
        return failure();
      if (merged.size() > 1 && get(merged[0]).parent != kNoAxis &&
          ArrayRef<unsigned>(get(get(merged[0]).parent).parts) ==
              ArrayRef<unsigned>(merged))
        merged = {get(merged[0]).parent};
      result.push_back(merged);
    }
    return result;
  }

  /// Batch axes as the contractions see them, in order.
  SmallVector<unsigned> getRoots() const {
    SmallVector<unsigned> roots;
    for (auto [i, axis] : llvm::enumerate(axes))
      if (axis.parent == kNoAxis)
        roots.push_back(kFirstBatch + i);
    return roots;
  }

  /// Batch axes with every proven split applied, in order.
  SmallVector<unsigned> getLeaves() const {
    SmallVector<unsigned> leaves;
    for (unsigned root : getRoots()) {
      const BatchAxis &axis = axes[root - kFirstBatch];
      if (axis.parts.empty() || axis.unproven)
        leaves.push_back(root);
      else
        leaves.append(axis.parts);
    }
    return leaves;
  }

  static bool isBatch(unsigned axis) { return axis >= kFirstBatch; }

  /// Whether some dim of `labels` is a part of an unproven split.
  bool hasUnprovenPart(const Labels &labels) const {
    return llvm::any_of(labels, [&](const Label &label) {
      return llvm::any_of(label, [&](unsigned axis) {
        if (!isBatch(axis))
          return false;
        unsigned parent = axes[axis - kFirstBatch].parent;
        return parent != kNoAxis && axes[parent - kFirstBatch].unproven;
      });
    });
  }

private:
  struct BatchAxis {
    int64_t size;
    unsigned parent;
    Label parts;
    /// The parts' sizes are not proven (the scores were split by two
    /// dynamic sizes): the axis is only ever used whole.
    bool unproven = false;
  };
  BatchAxis &get(unsigned axis) { return axes[axis - kFirstBatch]; }

  SmallVector<BatchAxis> axes;
};

/// One place an operand or the result can be taken from.
struct Candidate {
  Value value;
  Labels labels;
  /// Product of the constant scales passed to get there.
  double scale = 1.0;
};

/// A mask applied to the scores: added (a float mask), or selected
/// between the scores and a value that hides them (an i1 keep-mask).
struct MaskAdd {
  /// An elementwise linalg.generic, or an arith op on whole tensors.
  Operation *op;
  Value scores, mask;
  AffineMap maskMap;
};
} // namespace

/// The tensor a probabilities or scores value comes from by a cast, a
/// reshape (or tensor.cast) or a transpose, or null.
static Value getLayoutInput(Value value) {
  if (Value input = getCastInput(value))
    return input;
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    return expand.getSrc();
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    return collapse.getSrc();
  if (auto tensorCast = value.getDefiningOp<tensor::CastOp>())
    return tensorCast.getSource();
  if (auto transpose = getTransposeInput(value))
    return transpose->first;
  return {};
}

/// If `value` is the scores plus a tensor (torch's `alpha` of 1 allowed),
/// the scores and that tensor. The scores are the operand that is not an
/// argument or a generic built from positions, when one is.
static std::optional<MaskAdd> getMaskAdd(Value value) {
  // A function argument (through casts, as a widened f16 mask) or a mask
  // built from positions; the scores come from a contraction.
  auto isLikelyMask = [](Value tensor) {
    while (Value input = getCastInput(tensor))
      tensor = input;
    return isa<BlockArgument>(tensor) || isCausalMask(tensor);
  };
  if (auto add = value.getDefiningOp<arith::AddFOp>()) {
    auto type = dyn_cast<RankedTensorType>(add.getType());
    if (!type)
      return std::nullopt;
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(type.getRank(), add.getContext());
    bool maskFirst = isLikelyMask(add.getLhs()) && !isLikelyMask(add.getRhs());
    return MaskAdd{add, maskFirst ? add.getRhs() : add.getLhs(),
                   maskFirst ? add.getLhs() : add.getRhs(), identity};
  }
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || !isElementwise(op) || op.getNumDpsInputs() != 2)
    return std::nullopt;
  Value yielded = getYieldedValue(op);
  auto add = yielded ? yielded.getDefiningOp<arith::AddFOp>() : arith::AddFOp();
  if (!add || add->getParentOp() != op)
    return std::nullopt;
  auto asMask = [&](Value scoreArg, Value maskArg) -> std::optional<MaskAdd> {
    OpOperand *scores = getIdentityInput(op, scoreArg);
    OpOperand *mask = getInputOperand(op, stripUnitFactor(maskArg));
    if (!scores || !mask || scores == mask)
      return std::nullopt;
    return MaskAdd{op, scores->get(), mask->get(),
                   op.getMatchingIndexingMap(mask)};
  };
  std::optional<MaskAdd> first = asMask(add.getLhs(), add.getRhs());
  std::optional<MaskAdd> second = asMask(add.getRhs(), add.getLhs());
  if (first && second && isLikelyMask(first->scores))
    return second;
  return first ? first : second;
}

/// If `value` is select(keep, scores, hidden) with `hidden` -inf or a
/// constant whose exponential vanishes next to any kept score (at most
/// half the lowest float, as JAX's -0.7 * max), the scores and the i1
/// keep-mask. A row that keeps no key differs: sage gives 0, the select
/// form the mean of V (docs/Frontends.md).
static std::optional<MaskAdd> getMaskSelect(Value value) {
  Operation *op = nullptr;
  Value keep, scores;
  AffineMap keepMap;
  std::optional<double> constant;
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    // On whole tensors: the condition is an i1 tensor of the same shape.
    auto type = dyn_cast<RankedTensorType>(select.getType());
    if (!type || !isa<RankedTensorType>(select.getCondition().getType()))
      return std::nullopt;
    op = select;
    keep = select.getCondition();
    scores = select.getTrueValue();
    keepMap =
        AffineMap::getMultiDimIdentityMap(type.getRank(), select.getContext());
    constant = getConstantFloat(select.getFalseValue());
  } else if (auto generic = value.getDefiningOp<linalg::GenericOp>()) {
    if (!isElementwise(generic))
      return std::nullopt;
    Value yielded = getYieldedValue(generic);
    auto select =
        yielded ? yielded.getDefiningOp<arith::SelectOp>() : arith::SelectOp();
    if (!select || select->getParentOp() != generic)
      return std::nullopt;
    OpOperand *keepInput = getInputOperand(generic, select.getCondition());
    OpOperand *scoreInput = getIdentityInput(generic, select.getTrueValue());
    if (!keepInput || !scoreInput || keepInput == scoreInput)
      return std::nullopt;
    Value hidden = select.getFalseValue();
    if (OpOperand *input = getInputOperand(generic, hidden))
      constant = getConstantFloat(input->get());
    else if (auto def = hidden.getDefiningOp<arith::ConstantOp>())
      if (auto attr = dyn_cast<FloatAttr>(def.getValue()))
        constant = attr.getValueAsDouble();
    op = generic;
    keep = keepInput->get();
    scores = scoreInput->get();
    keepMap = generic.getMatchingIndexingMap(keepInput);
  } else {
    return std::nullopt;
  }
  auto type = dyn_cast<FloatType>(getElementTypeOrSelf(scores));
  if (!constant || !type)
    return std::nullopt;
  double lowest =
      llvm::APFloat::getLargest(type.getFloatSemantics(), /*Negative=*/true)
          .convertToDouble();
  if (!(*constant <= 0.5 * lowest))
    return std::nullopt;
  return MaskAdd{op, scores, keep, keepMap};
}

/// The labels of `value` from the labels of the tensor it was computed from
/// by a cast, an elementwise op, a reshape or a transpose.
static FailureOr<Labels> forwardLabels(AxisSpace &space, Value value,
                                       const Labels &input) {
  if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
    return space.expand(input, expand.getReassociationIndices(),
                        expand.getResultType().getShape(),
                        /*allowUnproven=*/true);
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    return space.collapse(input, collapse.getReassociationIndices());
  if (auto transpose = getTransposeInput(value)) {
    Labels output;
    for (int64_t dim : transpose->second)
      output.push_back(input[dim]);
    return output;
  }
  return input;
}

/// The labels of the dims of `operand` of `op`, given the labels of the
/// loops; fails on indexing maps that are not plain dims.
static FailureOr<Labels> getOperandLabels(linalg::LinalgOp op,
                                          OpOperand *operand,
                                          ArrayRef<Label> loops) {
  Labels labels;
  for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || loops[dim.getPosition()].empty())
      return failure();
    labels.push_back(loops[dim.getPosition()]);
  }
  return labels;
}

/// The tensor `value` is an exact widening of (f16 / bf16 to f32, a
/// mask's extf), or null.
static Value getWideningInput(Value value) {
  Value input = getCastInput(value);
  if (!input)
    return {};
  auto from = dyn_cast<FloatType>(getElementTypeOrSelf(input));
  auto to = dyn_cast<FloatType>(getElementTypeOrSelf(value));
  return from && to && from.getWidth() < to.getWidth() ? input : Value();
}

/// Where an operand can be taken from: itself, then up through transposes,
/// reshapes, tensor.cast and (if `scales`) constant scales.
static SmallVector<Candidate> walkOperand(AxisSpace &space, Value value,
                                          Labels labels, bool scales,
                                          bool widenings = false) {
  SmallVector<Candidate> candidates = {{value, std::move(labels), 1.0}};
  while (true) {
    const Candidate &last = candidates.back();
    Candidate next = {Value(), {}, last.scale};
    if (auto transpose = getTransposeInput(last.value)) {
      next.value = transpose->first;
      next.labels.resize(last.labels.size());
      for (auto [i, dim] : llvm::enumerate(transpose->second))
        next.labels[dim] = last.labels[i];
    } else if (auto collapse =
                   last.value.getDefiningOp<tensor::CollapseShapeOp>()) {
      FailureOr<Labels> labels =
          space.expand(last.labels, collapse.getReassociationIndices(),
                       collapse.getSrcType().getShape());
      if (failed(labels))
        break;
      next.value = collapse.getSrc();
      next.labels = std::move(*labels);
    } else if (auto expand =
                   last.value.getDefiningOp<tensor::ExpandShapeOp>()) {
      FailureOr<Labels> labels =
          space.collapse(last.labels, expand.getReassociationIndices());
      if (failed(labels))
        break;
      next.value = expand.getSrc();
      next.labels = std::move(*labels);
    } else if (auto tensorCast = last.value.getDefiningOp<tensor::CastOp>()) {
      next.value = tensorCast.getSource();
      next.labels = last.labels;
    } else if (Value narrow =
                   widenings ? getWideningInput(last.value) : Value()) {
      next.value = narrow;
      next.labels = last.labels;
    } else if (auto scaled =
                   scales ? getScaleInput(last.value) : std::nullopt) {
      next.value = scaled->first;
      next.labels = last.labels;
      next.scale *= scaled->second;
    } else {
      break;
    }
    candidates.push_back(std::move(next));
  }
  return candidates;
}

/// Where the result can be replaced: itself, then down through its only
/// user while that is a reshape or a transpose.
static SmallVector<Candidate> walkResult(AxisSpace &space, Value value,
                                         Labels labels) {
  SmallVector<Candidate> candidates = {{value, std::move(labels), 1.0}};
  while (candidates.back().value.hasOneUse()) {
    Operation *user = *candidates.back().value.getUsers().begin();
    if (user->getNumResults() != 1 ||
        !isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
             linalg::TransposeOp, linalg::GenericOp>(user))
      break;
    Value next = user->getResult(0);
    auto transpose = getTransposeInput(next);
    if (isa<linalg::TransposeOp, linalg::GenericOp>(user) &&
        (!transpose || transpose->first != candidates.back().value))
      break;
    FailureOr<Labels> labels =
        forwardLabels(space, next, candidates.back().labels);
    if (failed(labels))
      break;
    candidates.push_back({next, std::move(*labels), 1.0});
  }
  return candidates;
}

/// The query heads of a group sharing one K/V head (GQA as JAX spells it):
/// a second free dim of Q*K^T on the query side, `axis`, which Q's reshape
/// merges right after the batch axis `kvHeads` (heads = kv heads x group,
/// kv-major, so query head h reads K/V head h / group).
struct QueryGroup {
  unsigned axis = kNoAxis, kvHeads = kNoAxis;
};

/// The canonical order of a tensor, one label per dim: `batch` axes, then
/// `rows`, `columns`. With a query group, the K/V heads axis of an operand
/// that has the group (Q, the result) spans both.
static SmallVector<Label> getOrder(ArrayRef<unsigned> batch, unsigned rows,
                                   unsigned columns,
                                   const QueryGroup &group = {}) {
  SmallVector<Label> order;
  for (unsigned axis : batch)
    order.push_back(axis == group.kvHeads ? Label{axis, group.axis}
                                          : Label{axis});
  order.append({Label{rows}, Label{columns}});
  return order;
}

/// Where each label of `order` is in `labels`, if all are.
static std::optional<SmallVector<int64_t>>
getPermutation(const Labels &labels, ArrayRef<Label> order) {
  if (labels.size() != order.size())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (const Label &label : order) {
    auto it = llvm::find(labels, label);
    if (it == labels.end())
      return std::nullopt;
    perm.push_back(it - labels.begin());
  }
  return perm;
}

/// The furthest candidate whose dims are the labels of `order`, with its
/// permutation to `order`.
static std::optional<std::pair<Candidate, SmallVector<int64_t>>>
pickCandidate(ArrayRef<Candidate> candidates, ArrayRef<Label> order) {
  for (const Candidate &candidate : llvm::reverse(candidates))
    if (std::optional<SmallVector<int64_t>> perm =
            getPermutation(candidate.labels, order))
      return std::make_pair(candidate, *perm);
  return std::nullopt;
}

/// The permutation of a mask with `labels` to `order`: unit dims stand for
/// the batch axes the mask broadcasts over.
static std::optional<SmallVector<int64_t>>
getMaskPermutation(const Labels &labels, ArrayRef<Label> order) {
  if (labels.size() != order.size())
    return std::nullopt;
  SmallVector<int64_t> units;
  for (auto [i, label] : llvm::enumerate(labels))
    if (label.empty())
      units.push_back(i);
  SmallVector<int64_t> perm;
  for (const Label &axes : order) {
    auto it = llvm::find(labels, axes);
    if (it != labels.end()) {
      perm.push_back(it - labels.begin());
      continue;
    }
    if (!llvm::all_of(axes, AxisSpace::isBatch) || units.empty())
      return std::nullopt;
    perm.push_back(units.front());
    units.erase(units.begin());
  }
  if (!units.empty())
    return std::nullopt;
  return perm;
}

/// `perm`, or empty when it is the identity.
static SmallVector<int64_t> compactPermutation(ArrayRef<int64_t> perm) {
  if (isIdentityPermutation(perm))
    return {};
  return SmallVector<int64_t>(perm);
}

/// Whether dims `a` and `b` of `value` provably have the same size: static
/// and equal, or dynamic sizes given by one SSA value to the tensor.empty
/// the value is computed into.
static bool haveEqualSizes(Value value, int64_t a, int64_t b) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.isDynamicDim(a) || !type.isDynamicDim(b))
    return type.getDimSize(a) == type.getDimSize(b);
  while (auto dps = value.getDefiningOp<DestinationStyleOpInterface>())
    value = dps.getTiedOpOperand(cast<OpResult>(value))->get();
  auto empty = value.getDefiningOp<tensor::EmptyOp>();
  return empty && empty.getDynamicSize(a) == empty.getDynamicSize(b);
}

/// For a Q*K^T with two query-side free loops `free`, the loop of the
/// query group (QueryGroup) and the batch loop it follows: Q, up through
/// transposes, is an expand_shape that splits one dim into exactly [a
/// batch loop, one of `free`], as JAX splits the query heads into [K/V
/// heads, group].
static std::optional<std::pair<unsigned, unsigned>>
findQueryGroupLoops(linalg::LinalgOp qk, ArrayRef<unsigned> free,
                    ArrayRef<unsigned> batch) {
  OpOperand *query = qk.getDpsInputOperand(0);
  SmallVector<std::optional<unsigned>> loopOf;
  for (AffineExpr expr : qk.getMatchingIndexingMap(query).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    loopOf.push_back(dim ? std::optional<unsigned>(dim.getPosition())
                         : std::nullopt);
  }
  Value value = query->get();
  while (auto transpose = getTransposeInput(value)) {
    SmallVector<std::optional<unsigned>> input(loopOf.size());
    for (auto [i, dim] : llvm::enumerate(transpose->second))
      input[dim] = loopOf[i];
    loopOf = std::move(input);
    value = transpose->first;
  }
  auto expand = value.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand)
    return std::nullopt;
  std::optional<std::pair<unsigned, unsigned>> found;
  for (const ReassociationIndices &dims : expand.getReassociationIndices()) {
    if (dims.size() != 2 || !loopOf[dims[0]] || !loopOf[dims[1]] ||
        !llvm::is_contained(batch, *loopOf[dims[0]]) ||
        !llvm::is_contained(free, *loopOf[dims[1]]))
      continue;
    if (found)
      return std::nullopt;
    found = {*loopOf[dims[1]], *loopOf[dims[0]]};
  }
  return found;
}

/// Checks that the ops found by structure compute softmax(s) over one axis
/// and that nothing else reads their intermediate values.
static LogicalResult checkSoftmax(SpelledSoftmax &softmax,
                                  AttentionMatch &match) {
  auto hasUsers = [](Value value, ArrayRef<Operation *> users) {
    return llvm::equal(llvm::to_vector(value.getUsers()), users) ||
           (users.size() == 2 &&
            llvm::equal(llvm::to_vector(value.getUsers()),
                        ArrayRef<Operation *>{users[1], users[0]}));
  };
  // JAX takes the max before its vmap moves a dim: the exponent then
  // subtracts it from a transpose of the tensor the max reduces, the max
  // read back through the same transpose. The max's axis and map are
  // brought to the scores' dims.
  Value maxInput = softmax.max.op.getDpsInputs()[0];
  unsigned maxAxis = softmax.max.axis;
  AffineMap maxMap = softmax.max.map;
  if (maxInput != softmax.scores) {
    auto transpose = getTransposeInput(softmax.scores);
    if (!transpose || transpose->first != maxInput)
      return match.refuse("the max is not taken over the scores the "
                          "exponent subtracts it from");
    SmallVector<int64_t> inverse = invertPermutationVector(transpose->second);
    maxAxis = inverse[maxAxis];
    maxMap = maxMap.compose(
        AffineMap::getPermutationMap(inverse, maxMap.getContext()));
    if (!hasUsers(maxInput, {softmax.max.op, softmax.scores.getDefiningOp()}))
      return match.refuse("the scores have users besides the max and the "
                          "subtraction");
  }
  if (softmax.sum.op.getDpsInputs()[0] != softmax.exps)
    return match.refuse("the sum is not taken over the exponentials the "
                        "normalization divides");
  if (maxAxis != softmax.sum.axis)
    return match.refuse("the max reduces dimension " + Twine(maxAxis) +
                        ", but the sum reduces dimension " +
                        Twine(softmax.sum.axis));
  if (dropConstantResults(softmax.maxRead) != dropConstantResults(maxMap) ||
      dropConstantResults(softmax.sumRead) !=
          dropConstantResults(softmax.sum.map))
    return match.refuse("the max or the sum is not broadcast back along the "
                        "dimension it reduces");

  if (!hasUsers(softmax.scores,
                maxInput == softmax.scores
                    ? ArrayRef<Operation *>{softmax.max.op, softmax.sub}
                    : ArrayRef<Operation *>{softmax.sub}))
    return match.refuse("the scores have users besides the max and the "
                        "subtraction");
  if (!hasUsers(softmax.exps, {softmax.sum.op, softmax.normalize}))
    return match.refuse("the exponentials have users besides the sum and "
                        "the normalization");
  if (softmax.sub != softmax.exp && !softmax.sub->getResult(0).hasOneUse())
    return match.refuse("the differences s - max have users besides the "
                        "exponential");
  auto hasOneUseEach = [](Value reduction, ArrayRef<Operation *> chain) {
    return reduction.hasOneUse() && llvm::all_of(chain, [](Operation *op) {
             return op->getNumResults() == 1 && op->getResult(0).hasOneUse();
           });
  };
  if (!hasOneUseEach(softmax.max.result, softmax.maxChain))
    return match.refuse("the max has users besides the subtraction");
  if (!hasOneUseEach(softmax.sum.result, softmax.sumChain))
    return match.refuse("the sum has users besides the normalization");
  return success();
}

LogicalResult sage::matchDecomposedAttention(linalg::LinalgOp root,
                                             AttentionMatch &match) {
  auto refuse = [&](const Twine &why) { return match.refuse(why); };
  linalg::LinalgOp pv = getRootContraction(root);
  if (!pv)
    return refuse("not a contraction of two tensors");

  // P: casts, reshapes and transposes up to the softmax. Find the softmax
  // first, so that later refusals are known to be refused attention.
  SmallVector<Value> probs = {pv.getDpsInputs()[0]};
  while (Value input = getLayoutInput(probs.back()))
    probs.push_back(input);
  SpelledSoftmax softmax;
  if (!matchSpelledSoftmax(probs.back(), softmax)) {
    if (!findSoftmaxAbove(probs.back(), softmax))
      return refuse("the left operand is not a spelled-out softmax");
    match.anchor = softmax.normalize;
    return refuse("the probabilities pass through " +
                  probs.back().getDefiningOp()->getName().getStringRef() +
                  " between the softmax and P*V, not only casts and "
                  "reshapes");
  }
  match.anchor = softmax.normalize;
  if (failed(checkSoftmax(softmax, match)))
    return failure();
  for (Value value : probs)
    if (!value.hasOneUse())
      return refuse("the probabilities have users besides the P*V "
                    "contraction");

  // S: casts, constant scales, one mask, reshapes and transposes up to
  // Q*K^T.
  SmallVector<Value> scores = {softmax.scores};
  double scale = 1.0, scaleAfterMask = 1.0;
  std::optional<MaskAdd> mask;
  linalg::LinalgOp qk;
  // The tensor the max reduces, when the exponent reads a transpose of it
  // (checkSoftmax checked its two users).
  Value maxInput = softmax.max.op.getDpsInputs()[0];
  auto hasOnlySoftmaxUsers = [&](Value value) {
    return value.hasOneUse() || value == maxInput;
  };
  while (!(qk = getContraction(scores.back()))) {
    Value value = scores.back();
    if (scores.size() > 1 && !hasOnlySoftmaxUsers(value))
      return refuse("the scores have users besides the softmax");
    if (Value input = getLayoutInput(value)) {
      scores.push_back(input);
    } else if (auto scaled = getScaleInput(value)) {
      scale *= scaled->second;
      if (!mask)
        scaleAfterMask *= scaled->second;
      scores.push_back(scaled->first);
    } else if (auto added = getMaskAdd(value) ? getMaskAdd(value)
                                              : getMaskSelect(value)) {
      if (mask)
        return refuse("more than one mask is added to the scores");
      mask = added;
      scores.push_back(added->scores);
    } else if (Operation *def = value.getDefiningOp()) {
      return refuse("the scores reach the softmax through " +
                    def->getName().getStringRef() +
                    ", not only casts, constant scales, a mask, reshapes "
                    "and transposes");
    } else {
      return refuse("the scores do not come from a Q*K^T contraction");
    }
  }
  if (scores.size() > 1 && !hasOnlySoftmaxUsers(scores.back()))
    return refuse("the scores have users besides the softmax");

  // Q*K^T labels the axes: its batch dims, in the order of its result,
  // queries (m), keys (n) and features (k).
  FailureOr<linalg::ContractionDimensions> qkDims =
      linalg::inferContractionDims(qk);
  // GQA as JAX spells it: the query heads of a group are a second free dim.
  std::optional<std::pair<unsigned, unsigned>> groupLoops;
  if (succeeded(qkDims) && qkDims->m.size() == 2) {
    groupLoops = findQueryGroupLoops(qk, qkDims->m, qkDims->batch);
    if (!groupLoops)
      return refuse("Q*K^T has two query-side free dims, but Q is not a "
                    "reshape of heads into [K/V heads, group] (GQA as JAX "
                    "spells it)");
  }
  if (failed(qkDims) || (qkDims->m.size() != 1 && !groupLoops) ||
      qkDims->n.size() != 1 || qkDims->k.size() != 1)
    return refuse("Q*K^T is not a matrix product with one query, key and "
                  "feature dimension");
  if (!hasZeroInit(qk))
    return refuse("Q*K^T accumulates into a non-zero init");
  AxisSpace space;
  SmallVector<Label> qkLoops(qk.getNumLoops());
  unsigned queryLoop = qkDims->m[0];
  if (groupLoops && queryLoop == groupLoops->first)
    queryLoop = qkDims->m[1];
  qkLoops[queryLoop] = {kQueries};
  qkLoops[qkDims->n[0]] = {kKeys};
  qkLoops[qkDims->k[0]] = {kFeatures};
  auto scoreType = cast<ShapedType>(qk->getResult(0).getType());
  QueryGroup group;
  for (auto [i, expr] : llvm::enumerate(
           qk.getMatchingIndexingMap(qk.getDpsInitOperand(0)).getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (dim && (llvm::is_contained(qkDims->batch, dim.getPosition()) ||
                (groupLoops && dim.getPosition() == groupLoops->first)))
      qkLoops[dim.getPosition()] = {space.addBatch(scoreType.getDimSize(i))};
  }
  if (groupLoops) {
    group.axis = qkLoops[groupLoops->first][0];
    group.kvHeads = qkLoops[groupLoops->second][0];
  }
  FailureOr<Labels> queryLabels =
      getOperandLabels(qk, qk.getDpsInputOperand(0), qkLoops);
  FailureOr<Labels> keyLabels =
      getOperandLabels(qk, qk.getDpsInputOperand(1), qkLoops);
  FailureOr<Labels> labels =
      getOperandLabels(qk, qk.getDpsInitOperand(0), qkLoops);
  if (failed(queryLabels) || failed(keyLabels) || failed(labels))
    return refuse("Q*K^T has indexing maps that are not plain dimensions");

  // Follow the labels down to the softmax.
  Labels maskLabels;
  for (Value value : llvm::reverse(ArrayRef<Value>(scores).drop_back())) {
    labels = forwardLabels(space, value, *labels);
    if (failed(labels))
      return refuse("the scores are reshaped across attention axes");
    if (mask && value.getDefiningOp() == mask->op) {
      auto maskType = cast<ShapedType>(mask->mask.getType());
      for (auto [i, expr] : llvm::enumerate(mask->maskMap.getResults())) {
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          maskLabels.push_back((*labels)[dim.getPosition()]);
        else if (isa<AffineConstantExpr>(expr) && maskType.getDimSize(i) == 1)
          maskLabels.push_back({});
        else
          return refuse("the mask is read through a map that is not plain "
                        "dimensions and unit broadcasts");
      }
    }
  }
  unsigned axis = softmax.sum.axis;
  auto keyDim = llvm::find(*labels, Label{kKeys});
  if ((*labels)[axis] != Label{kKeys})
    return refuse("softmax runs over dimension " + Twine(axis) +
                  ", not the key dimension " + Twine(keyDim - labels->begin()));

  // ... and on to P*V: it must contract the keys.
  for (Value value : llvm::reverse(ArrayRef<Value>(probs).drop_back())) {
    labels = forwardLabels(space, value, *labels);
    if (failed(labels))
      return refuse("the probabilities are reshaped across attention axes");
  }
  FailureOr<linalg::ContractionDimensions> pvDims =
      linalg::inferContractionDims(pv);
  if (failed(pvDims) || pvDims->m.size() != (group.axis == kNoAxis ? 1u : 2u) ||
      pvDims->n.size() != 1 || pvDims->k.size() != 1)
    return refuse("P*V is not a matrix product with one query, key and "
                  "feature dimension");
  if (!hasZeroInit(pv))
    return refuse("P*V accumulates into a non-zero init");
  SmallVector<Label> pvLoops(pv.getNumLoops());
  AffineMap probsMap = pv.getMatchingIndexingMap(pv.getDpsInputOperand(0));
  for (auto [i, expr] : llvm::enumerate(probsMap.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      pvLoops[dim.getPosition()] = (*labels)[i];
  if (pvLoops[pvDims->k[0]] != Label{kKeys}) {
    std::optional<unsigned> contracted = probsMap.getResultPosition(
        getAffineDimExpr(pvDims->k[0], pv.getContext()));
    keyDim = llvm::find(*labels, Label{kKeys});
    return refuse("P*V contracts dimension " +
                  Twine(contracted ? int64_t(*contracted) : -1) +
                  " of the probabilities, not the key dimension " +
                  Twine(keyDim - labels->begin()));
  }
  // With a query group, P*V's second free dim must be the group.
  unsigned pvRows = pvDims->m[0];
  if (pvDims->m.size() == 2 && pvLoops[pvRows] == Label{group.axis})
    pvRows = pvDims->m[1];
  if (pvLoops[pvRows] != Label{kQueries} ||
      (pvDims->m.size() == 2 &&
       pvLoops[pvDims->m[pvRows == pvDims->m[0] ? 1 : 0]] != Label{group.axis}))
    return refuse("the rows of P*V are not the queries");
  pvLoops[pvDims->n[0]] = {kValueFeatures};
  FailureOr<Labels> valueLabels =
      getOperandLabels(pv, pv.getDpsInputOperand(1), pvLoops);
  FailureOr<Labels> resultLabels =
      getOperandLabels(pv, pv.getDpsInitOperand(0), pvLoops);
  if (failed(valueLabels) || failed(resultLabels))
    return refuse("P*V has indexing maps that are not plain dimensions");

  // Q, K, V and the result from as far as their labels stay canonical:
  // every batch split applied if all four follow it, else none.
  SmallVector<Candidate> queries = walkOperand(
      space, qk.getDpsInputs()[0], std::move(*queryLabels), /*scales=*/true);
  SmallVector<Candidate> keys = walkOperand(
      space, qk.getDpsInputs()[1], std::move(*keyLabels), /*scales=*/true);
  SmallVector<Candidate> values = walkOperand(
      space, pv.getDpsInputs()[1], std::move(*valueLabels), /*scales=*/false);
  SmallVector<Candidate> results =
      walkResult(space, pv->getResult(0), std::move(*resultLabels));
  std::optional<std::pair<Candidate, SmallVector<int64_t>>> query, key, value,
      result;
  SmallVector<unsigned> batch;
  bool tooMany = false, groupNotHeads = false;
  for (SmallVector<unsigned> option : {space.getLeaves(), space.getRoots()}) {
    // The query group is part of the heads of Q and the result: its K/V
    // heads axis must be the heads dim, after the batch.
    llvm::erase(option, group.axis);
    if (option.size() > 2) {
      tooMany = true;
      continue;
    }
    if (group.axis != kNoAxis &&
        (option.size() != 2 || option[1] != group.kvHeads)) {
      groupNotHeads = true;
      continue;
    }
    query =
        pickCandidate(queries, getOrder(option, kQueries, kFeatures, group));
    key = pickCandidate(keys, getOrder(option, kKeys, kFeatures));
    value = pickCandidate(values, getOrder(option, kKeys, kValueFeatures));
    result = pickCandidate(results,
                           getOrder(option, kQueries, kValueFeatures, group));
    if (query && key && value && result) {
      batch = option;
      break;
    }
  }
  if (!query || !key || !value || !result) {
    if (groupNotHeads)
      return refuse("the query group of Q*K^T (GQA) is split from a batch "
                    "dim that is not the heads of [batch, heads, tokens, "
                    "features]");
    if (tooMany)
      return refuse("attention with more than 2 batch dimensions is not "
                    "raised");
    return refuse("Q, K, V and the result do not split their batch "
                  "dimensions alike");
  }

  Type elementType = getElementTypeOrSelf(query->first.value.getType());
  if (!isAttentionElementType(elementType) ||
      getElementTypeOrSelf(key->first.value.getType()) != elementType ||
      getElementTypeOrSelf(value->first.value.getType()) != elementType)
    return refuse("Q, K and V must share an f16, bf16 or f32 element type");
  if (!isAttentionElementType(getElementTypeOrSelf(pv->getResult(0))))
    return refuse("the output must be f16, bf16 or f32");
  int64_t tokensPos = batch.size(), featuresPos = tokensPos + 1;
  auto dimSize = [](const std::pair<Candidate, SmallVector<int64_t>> &operand,
                    int64_t pos) {
    return cast<ShapedType>(operand.first.value.getType())
        .getDimSize(operand.second[pos]);
  };
  if (ShapedType::isDynamic(dimSize(*query, featuresPos)) ||
      ShapedType::isDynamic(dimSize(*key, featuresPos)) ||
      ShapedType::isDynamic(dimSize(*value, featuresPos)))
    return refuse("feature dimensions must be static");
  // The rewrite types the result from Q and V: static and dynamic sizes
  // must agree with the replaced value.
  for (int64_t pos = 0; pos <= featuresPos; ++pos) {
    int64_t expected =
        pos == featuresPos ? dimSize(*value, pos) : dimSize(*query, pos);
    int64_t actual = dimSize(*result, pos);
    auto text = [](int64_t size) {
      return ShapedType::isDynamic(size) ? std::string("?")
                                         : std::to_string(size);
    };
    if (actual != expected)
      return refuse("canonical result dimension " + Twine(pos) + " has size " +
                    text(actual) + ", but Q and V give " + text(expected));
  }

  match.query = query->first.value;
  match.queryPerm = compactPermutation(query->second);
  match.key = key->first.value;
  match.keyPerm = compactPermutation(key->second);
  match.value = value->first.value;
  match.valuePerm = compactPermutation(value->second);
  match.batchDims = batch.size();
  match.result = result->first.value;
  // The result takes canonical dim resultPerm[i] at its dim i.
  SmallVector<int64_t> resultPerm(result->second.size());
  for (auto [canonical, dim] : llvm::enumerate(result->second))
    resultPerm[dim] = canonical;
  match.resultPerm = compactPermutation(resultPerm);
  match.scale = scale * query->first.scale * key->first.scale;

  if (!mask)
    return success();
  // A causal mask is read by position, [..., queries, keys]; it may be
  // broadcast over any batch dims. The frontends align it top-left; sage's
  // default, bottom-right, agrees when Nq = Nk.
  int64_t maskRank = maskLabels.size();
  int64_t numQueries = dimSize(*query, tokensPos);
  int64_t numKeys = dimSize(*key, tokensPos);
  bool positional = maskRank >= 2 &&
                    maskLabels[maskRank - 2] == Label{kQueries} &&
                    maskLabels[maskRank - 1] == Label{kKeys};
  bool equalLengths =
      (!ShapedType::isDynamic(numQueries) && numQueries == numKeys) ||
      (positional && haveEqualSizes(mask->mask, maskRank - 2, maskRank - 1));
  bool causalMask = positional && isCausalMask(mask->mask);
  if (causalMask) {
    // Aligned top-left, as the frontends' is_causal; the same as sage's
    // default bottom-right when Nq = Nk.
    match.causal = true;
    match.causalTopLeft = !equalLengths;
  } else {
    // The mask from as far up its transposes, reshapes and widenings as
    // it stays shaped like the scores (a function argument, for the
    // lowering to read).
    SmallVector<Label> maskOrder = getOrder(batch, kQueries, kKeys, group);
    std::optional<std::pair<Value, SmallVector<int64_t>>> picked;
    SmallVector<Candidate> masks =
        walkOperand(space, mask->mask, maskLabels, /*scales=*/false,
                    /*widenings=*/true);
    for (const Candidate &candidate : llvm::reverse(masks))
      if (auto perm = getMaskPermutation(candidate.labels, maskOrder)) {
        picked = {candidate.value, *perm};
        break;
      }
    if (!picked && space.hasUnprovenPart(maskLabels))
      return refuse("the mask is read on scores whose batch dim is split by "
                    "two dynamic sizes, which nothing proves to be the "
                    "split of Q, K and V");
    if (!picked)
      return refuse("the mask is not shaped like the scores (only batch "
                    "dimensions may broadcast)");
    // Not a causal mask built from positions (checked above); with Nq
    // unknown to it, recordMask could only make its source top-left causal,
    // the frontends' meaning.
    if (failed(recordMask(match, picked->first,
                          compactPermutation(picked->second),
                          ShapedType::kDynamic, numKeys)))
      return failure();
  }
  // softmax(c * (S + M)) = softmax(c * S + M) only for a 0 / -inf mask and
  // c > 0.
  if (scaleAfterMask != 1.0 && !(match.causal && scaleAfterMask > 0.0))
    return refuse("the scores are scaled after the mask is added");
  return success();
}
