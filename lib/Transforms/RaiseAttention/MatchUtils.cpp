//===- MatchUtils.cpp - helpers shared by the attention matchers ----------===//

#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sage;

linalg::LinalgOp sage::getContraction(Value value) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || !linalg::isaContractionOpInterface(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics())
    return {};
  return op;
}

linalg::LinalgOp sage::getRootContraction(Operation *root) {
  return root->getNumResults() == 1 ? getContraction(root->getResult(0))
                                    : linalg::LinalgOp();
}

bool sage::hasZeroInit(linalg::LinalgOp op) {
  std::optional<double> init = getConstantFloat(op.getDpsInits()[0]);
  return init && *init == 0.0;
}

bool sage::isAttentionElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

/// The float an attribute holds: a float, an integer, or a splat of either.
static std::optional<double> getAttrFloat(Attribute attr) {
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return double(intAttr.getValue().getSExtValue());
  return std::nullopt;
}

std::optional<double> sage::getConstantFloat(Value value) {
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr)))
    return getAttrFloat(attr);
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto truncf = dyn_cast<arith::TruncFOp>(def)) {
    // Rounded as the narrower type holds it.
    std::optional<double> wide = getConstantFloat(truncf.getIn());
    auto type = dyn_cast<FloatType>(getElementTypeOrSelf(truncf.getType()));
    if (!wide || !type)
      return std::nullopt;
    llvm::APFloat narrow(*wide);
    bool losesInfo;
    narrow.convert(type.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                   &losesInfo);
    return narrow.convertToDouble();
  }
  if (isa<arith::ExtFOp, arith::SIToFPOp, arith::UIToFPOp, tensor::ExtractOp>(
          def))
    return getConstantFloat(def->getOperand(0));
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return getConstantFloat(fill.getInputs()[0]);
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(def))
    return getConstantFloat(broadcast.getInput());
  if (auto splat = dyn_cast<tensor::SplatOp>(def))
    return getConstantFloat(splat.getInput());
  if (auto generic = dyn_cast<linalg::GenericOp>(def)) {
    if (!isElementwise(generic))
      return std::nullopt;
    Value yielded = getYieldedValue(generic);
    if (!yielded)
      return std::nullopt;
    if (OpOperand *input = getInputOperand(generic, yielded))
      return getConstantFloat(input->get());
    return getConstantFloat(yielded);
  }
  return std::nullopt;
}

bool sage::isElementwise(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return op.getMatchingIndexingMap(init).isIdentity() &&
         op.getMatchingBlockArgument(init).use_empty();
}

Value sage::getYieldedValue(linalg::GenericOp op) {
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  return yield.getNumOperands() == 1 ? yield.getOperand(0) : Value();
}

OpOperand *sage::getInputOperand(linalg::GenericOp op, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &op.getRegion().front() ||
      arg.getArgNumber() >= op.getNumDpsInputs())
    return nullptr;
  return op.getDpsInputOperand(arg.getArgNumber());
}

OpOperand *sage::getIdentityInput(linalg::GenericOp op, Value value) {
  OpOperand *input = getInputOperand(op, value);
  if (!input || !op.getMatchingIndexingMap(input).isIdentity())
    return nullptr;
  return input;
}

Value sage::stripUnitFactor(Value value) {
  auto mul = value.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return value;
  if (getConstantFloat(mul.getRhs()) == 1.0)
    return mul.getLhs();
  if (getConstantFloat(mul.getLhs()) == 1.0)
    return mul.getRhs();
  return value;
}

Value sage::getCastInput(Value value) {
  // The cast written on the whole tensor is the same step.
  if (isa<RankedTensorType>(value.getType()))
    if (Operation *cast = value.getDefiningOp();
        cast && isa<arith::ExtFOp, arith::TruncFOp>(cast))
      return cast->getOperand(0);
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || !isElementwise(op) || op.getNumDpsInputs() != 1)
    return {};
  Value yielded = getYieldedValue(op);
  Operation *cast = yielded ? yielded.getDefiningOp() : nullptr;
  if (!cast || !isa<arith::ExtFOp, arith::TruncFOp>(cast) ||
      !getIdentityInput(op, cast->getOperand(0)))
    return {};
  return op.getDpsInputs()[0];
}

/// The factor `value` holds in the body of `op`: a constant, or the block
/// argument of a constant input.
static std::optional<double> getBodyConstant(linalg::GenericOp op,
                                             Value value) {
  if (OpOperand *input = getInputOperand(op, value))
    return getConstantFloat(input->get());
  return getConstantFloat(value);
}

std::optional<std::pair<Value, double>> sage::getScaleInput(Value value) {
  if (auto op = value.getDefiningOp<linalg::GenericOp>()) {
    if (!isElementwise(op) || op.getNumDpsInputs() > 2)
      return std::nullopt;
    Value yielded = getYieldedValue(op);
    Operation *inner = yielded ? yielded.getDefiningOp() : nullptr;
    if (!inner || !isa<arith::MulFOp, arith::DivFOp>(inner))
      return std::nullopt;
    auto scaled = [&](Value element, Value factor,
                      bool divide) -> std::optional<std::pair<Value, double>> {
      OpOperand *input = getIdentityInput(op, element);
      std::optional<double> constant = getBodyConstant(op, factor);
      if (!input || !constant || (divide && *constant == 0.0))
        return std::nullopt;
      return std::make_pair(input->get(), divide ? 1.0 / *constant : *constant);
    };
    Value lhs = inner->getOperand(0), rhs = inner->getOperand(1);
    if (isa<arith::DivFOp>(inner))
      return scaled(lhs, rhs, /*divide=*/true);
    if (auto result = scaled(lhs, rhs, /*divide=*/false))
      return result;
    return scaled(rhs, lhs, /*divide=*/false);
  }
  // arith.mulf / divf on whole tensors, by a splat constant.
  if (isa<RankedTensorType>(value.getType())) {
    if (auto mul = value.getDefiningOp<arith::MulFOp>()) {
      if (std::optional<double> factor = getConstantFloat(mul.getRhs()))
        return std::make_pair(mul.getLhs(), *factor);
      if (std::optional<double> factor = getConstantFloat(mul.getLhs()))
        return std::make_pair(mul.getRhs(), *factor);
      return std::nullopt;
    }
    if (auto div = value.getDefiningOp<arith::DivFOp>())
      if (std::optional<double> divisor = getConstantFloat(div.getRhs()))
        if (*divisor != 0.0)
          return std::make_pair(div.getLhs(), 1.0 / *divisor);
  }
  if (auto mul = value.getDefiningOp<linalg::MulOp>()) {
    Value lhs = mul.getInputs()[0], rhs = mul.getInputs()[1];
    if (std::optional<double> factor = getConstantFloat(rhs))
      return std::make_pair(lhs, *factor);
    if (std::optional<double> factor = getConstantFloat(lhs))
      return std::make_pair(rhs, *factor);
    return std::nullopt;
  }
  if (auto div = value.getDefiningOp<linalg::DivOp>())
    if (std::optional<double> divisor = getConstantFloat(div.getInputs()[1]))
      if (*divisor != 0.0)
        return std::make_pair(div.getInputs()[0], 1.0 / *divisor);
  return std::nullopt;
}

std::optional<std::pair<Value, SmallVector<int64_t>>>
sage::getTransposeInput(Value value) {
  if (auto transpose = value.getDefiningOp<linalg::TransposeOp>())
    return std::make_pair(transpose.getInput(),
                          SmallVector<int64_t>(transpose.getPermutation()));
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || !isElementwise(op) || op.getNumDpsInputs() != 1 ||
      getYieldedValue(op) != op.getRegion().front().getArgument(0))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!map.isPermutation())
    return std::nullopt;
  // The input's dim j is read at loop (= result) dim map(j).
  SmallVector<int64_t> perm(map.getNumResults());
  for (unsigned j = 0, e = map.getNumResults(); j < e; ++j)
    perm[map.getDimPosition(j)] = j;
  return std::make_pair(op.getDpsInputs()[0], perm);
}

/// Whether the body value `value` combines the two block arguments `a` and
/// `b` as their maximum.
static bool isMaxOf(Value value, Value a, Value b) {
  auto isPair = [&](Value x, Value y) {
    return (x == a && y == b) || (x == b && y == a);
  };
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return isPair(op->getOperand(0), op->getOperand(1));
  auto select = dyn_cast<arith::SelectOp>(op);
  auto cmp = select ? select.getCondition().getDefiningOp<arith::CmpFOp>()
                    : arith::CmpFOp();
  if (!cmp || !isPair(cmp.getLhs(), cmp.getRhs()))
    return false;
  using P = arith::CmpFPredicate;
  switch (cmp.getPredicate()) {
  case P::OGT:
  case P::OGE:
  case P::UGT:
  case P::UGE:
    return select.getTrueValue() == cmp.getLhs() &&
           select.getFalseValue() == cmp.getRhs();
  case P::OLT:
  case P::OLE:
  case P::ULT:
  case P::ULE:
    return select.getTrueValue() == cmp.getRhs() &&
           select.getFalseValue() == cmp.getLhs();
  default:
    return false;
  }
}

bool sage::isMaxIdentity(std::optional<double> init, Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!init || !floatType)
    return false;
  double lowest =
      llvm::APFloat::getLargest(floatType.getFloatSemantics(), /*Negative=*/
                                true)
          .convertToDouble();
  return *init <= lowest;
}

std::optional<Reduction> sage::getReduction(Value value) {
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || !isa<linalg::GenericOp, linalg::ReduceOp>(op) ||
      !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumReductionLoops() != 1)
    return std::nullopt;
  // Other results (torch's max.dim indices) must be dead.
  unsigned number = cast<OpResult>(value).getResultNumber();
  for (OpResult result : op->getResults())
    if (result != value && !result.use_empty())
      return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(number);
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(init);
  if (!in.isPermutation())
    return std::nullopt;
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  unsigned reduced = reductionDims.front();
  // The result keeps every other loop once, plus unit dims (keepdim).
  llvm::SmallBitVector kept(op.getNumLoops());
  for (AffineExpr expr : out.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      if (dim.getPosition() == reduced || kept.test(dim.getPosition()))
        return std::nullopt;
      kept.set(dim.getPosition());
      continue;
    }
    auto constant = dyn_cast<AffineConstantExpr>(expr);
    if (!constant || constant.getValue() != 0)
      return std::nullopt;
  }
  if (kept.count() != op.getNumLoops() - 1)
    return std::nullopt;

  Value element = op.getMatchingBlockArgument(op.getDpsInputOperand(0));
  Value accumulator = op.getMatchingBlockArgument(init);
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  Value yielded = yield.getOperand(number);
  Type type = getElementTypeOrSelf(value.getType());
  std::optional<double> initValue = getConstantFloat(init->get());
  ReductionKind kind;
  auto add = yielded.getDefiningOp<arith::AddFOp>();
  if (add && ((add.getLhs() == element && add.getRhs() == accumulator) ||
              (add.getLhs() == accumulator && add.getRhs() == element))) {
    if (initValue != 0.0)
      return std::nullopt;
    kind = ReductionKind::Sum;
  } else if (isMaxOf(yielded, element, accumulator)) {
    if (!isMaxIdentity(initValue, type))
      return std::nullopt;
    kind = ReductionKind::Max;
  } else {
    return std::nullopt;
  }
  unsigned axis =
      *in.getResultPosition(getAffineDimExpr(reduced, op.getContext()));
  return Reduction{op, value, kind, axis, out.compose(inversePermutation(in))};
}

/// For a reshape that only adds or drops unit dims, the map from the dims
/// of the larger-or-equal-rank side `shape` to the smaller side, grouped by
/// `reassociation` (one group per dim of the smaller side); null otherwise.
/// `fromLarge` says whether the map reads the smaller side from the larger.
static AffineMap getUnitReshapeMap(ArrayRef<ReassociationIndices> reassociation,
                                   ArrayRef<int64_t> largeShape, bool fromLarge,
                                   MLIRContext *ctx) {
  unsigned largeRank = largeShape.size(), smallRank = reassociation.size();
  SmallVector<AffineExpr> results(fromLarge ? smallRank : largeRank,
                                  getAffineConstantExpr(0, ctx));
  for (auto [smallDim, group] : llvm::enumerate(reassociation)) {
    std::optional<int64_t> kept;
    for (int64_t largeDim : group) {
      if (largeShape[largeDim] == 1)
        continue;
      if (kept)
        return {};
      kept = largeDim;
    }
    if (!kept)
      continue;
    if (fromLarge)
      results[smallDim] = getAffineDimExpr(*kept, ctx);
    else
      results[*kept] = getAffineDimExpr(smallDim, ctx);
  }
  return AffineMap::get(fromLarge ? largeRank : smallRank, 0, results, ctx);
}

std::pair<Value, AffineMap>
sage::traceBroadcast(Value value, AffineMap map,
                     SmallVectorImpl<Operation *> &chain) {
  MLIRContext *ctx = map.getContext();
  while (Operation *def = value.getDefiningOp()) {
    AffineMap step;
    Value source;
    if (auto broadcast = dyn_cast<linalg::BroadcastOp>(def)) {
      step = broadcast.getIndexingMapsArray()[0];
      source = broadcast.getInput();
    } else if (auto generic = dyn_cast<linalg::GenericOp>(def)) {
      if (!isElementwise(generic) || generic.getNumDpsInputs() != 1)
        break;
      Value yielded = getYieldedValue(generic);
      Value element = generic.getRegion().front().getArgument(0);
      if (yielded && isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(
                         yielded.getDefiningOp()))
        yielded = yielded.getDefiningOp()->getOperand(0);
      if (yielded != element)
        break;
      step = generic.getIndexingMapsArray()[0];
      source = generic.getDpsInputs()[0];
    } else if (auto transpose = dyn_cast<linalg::TransposeOp>(def)) {
      // Result dim i is input dim perm[i]: input dim d is read at result
      // dim inverse[d].
      step = AffineMap::getPermutationMap(
          invertPermutationVector(transpose.getPermutation()), ctx);
      source = transpose.getInput();
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
      step = getUnitReshapeMap(expand.getReassociationIndices(),
                               expand.getResultType().getShape(),
                               /*fromLarge=*/true, ctx);
      source = expand.getSrc();
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
      step = getUnitReshapeMap(collapse.getReassociationIndices(),
                               collapse.getSrcType().getShape(),
                               /*fromLarge=*/false, ctx);
      source = collapse.getSrc();
    }
    if (!step)
      break;
    map = step.compose(map);
    value = source;
    chain.push_back(def);
  }
  return {value, map};
}

AffineMap sage::dropConstantResults(AffineMap map) {
  SmallVector<AffineExpr> results;
  for (AffineExpr expr : map.getResults())
    if (!isa<AffineConstantExpr>(expr))
      results.push_back(expr);
  return AffineMap::get(map.getNumDims(), 0, results, map.getContext());
}

/// The op of type `OpTy` applied to whole ranked tensors that defines
/// `value`, or null.
template <typename OpTy> static OpTy getWholeTensorOp(Value value) {
  auto op = value.getDefiningOp<OpTy>();
  return op && isa<RankedTensorType>(op->getResult(0).getType()) ? op : OpTy();
}

/// The identity map of the dims of a ranked tensor.
static AffineMap getIdentityMap(Value tensor) {
  return AffineMap::getMultiDimIdentityMap(
      cast<RankedTensorType>(tensor.getType()).getRank(), tensor.getContext());
}

/// The reduction of `kind` producing `source`, if any.
static std::optional<Reduction> getReductionOfKind(Value source,
                                                   ReductionKind kind) {
  std::optional<Reduction> reduction = getReduction(source);
  if (!reduction || reduction->kind != kind)
    return std::nullopt;
  return reduction;
}

/// Records in `softmax` the sum-reduction z that the normalization `op`
/// reads at `map` from `source`: z itself through broadcasts, or, with
/// `reciprocal`, 1 / z (a generic or an arith.divf on whole tensors) of it.
static bool matchSumRead(Operation *op, Value exps, Value source, AffineMap map,
                         bool reciprocal, SpelledSoftmax &softmax) {
  SmallVector<Operation *> chain;
  std::tie(source, map) = traceBroadcast(source, map, chain);
  if (reciprocal) {
    Value input;
    AffineMap inputMap;
    if (auto inverse = getWholeTensorOp<arith::DivFOp>(source)) {
      if (getConstantFloat(inverse.getLhs()) != 1.0)
        return false;
      input = inverse.getRhs();
      inputMap = getIdentityMap(input);
      chain.push_back(inverse);
    } else if (auto inverse = source.getDefiningOp<linalg::GenericOp>()) {
      // 1 / z as a generic of its own.
      if (!isElementwise(inverse) || inverse.getNumDpsInputs() != 1)
        return false;
      Value inverted = getYieldedValue(inverse);
      auto invDiv =
          inverted ? inverted.getDefiningOp<arith::DivFOp>() : arith::DivFOp();
      OpOperand *operand =
          invDiv ? getInputOperand(inverse, invDiv.getRhs()) : nullptr;
      if (!operand || getConstantFloat(invDiv.getLhs()) != 1.0)
        return false;
      input = operand->get();
      inputMap = inverse.getMatchingIndexingMap(operand);
      chain.push_back(inverse);
    } else {
      return false;
    }
    std::tie(source, map) = traceBroadcast(input, inputMap.compose(map), chain);
  }
  std::optional<Reduction> reduction =
      getReductionOfKind(source, ReductionKind::Sum);
  if (!reduction)
    return false;
  softmax.normalize = op;
  softmax.exps = exps;
  softmax.sum = *reduction;
  softmax.sumRead = map;
  softmax.sumChain = std::move(chain);
  return true;
}

/// Finds the normalization P = e / z or e * (1 / z) of a sum-reduction z,
/// in an elementwise generic or on whole tensors.
static bool matchNormalize(Value probs, SpelledSoftmax &softmax) {
  if (auto div = getWholeTensorOp<arith::DivFOp>(probs))
    return matchSumRead(div, div.getLhs(), div.getRhs(), getIdentityMap(probs),
                        /*reciprocal=*/false, softmax);
  if (auto mul = getWholeTensorOp<arith::MulFOp>(probs))
    return matchSumRead(mul, mul.getLhs(), mul.getRhs(), getIdentityMap(probs),
                        /*reciprocal=*/true, softmax) ||
           matchSumRead(mul, mul.getRhs(), mul.getLhs(), getIdentityMap(probs),
                        /*reciprocal=*/true, softmax);
  auto op = probs.getDefiningOp<linalg::GenericOp>();
  if (!op || !isElementwise(op) || op.getNumDpsInputs() != 2)
    return false;
  Value yielded = getYieldedValue(op);
  Operation *inner = yielded ? yielded.getDefiningOp() : nullptr;
  if (!inner || inner->getParentOp() != op)
    return false;
  auto tryOperands = [&](Value expArg, Value sumArg, bool reciprocal) {
    OpOperand *exps = getIdentityInput(op, expArg);
    if (!exps)
      return false;
    // 1 / z in the body.
    auto div = sumArg.getDefiningOp<arith::DivFOp>();
    if (reciprocal && div && getConstantFloat(div.getLhs()) == 1.0) {
      sumArg = div.getRhs();
      reciprocal = false;
    }
    OpOperand *sum = getInputOperand(op, sumArg);
    if (!sum || sum == exps)
      return false;
    return matchSumRead(op, exps->get(), sum->get(),
                        op.getMatchingIndexingMap(sum), reciprocal, softmax);
  };
  if (auto div = dyn_cast<arith::DivFOp>(inner))
    return tryOperands(div.getLhs(), div.getRhs(), /*reciprocal=*/false);
  if (auto mul = dyn_cast<arith::MulFOp>(inner))
    return tryOperands(mul.getLhs(), mul.getRhs(), /*reciprocal=*/true) ||
           tryOperands(mul.getRhs(), mul.getLhs(), /*reciprocal=*/true);
  return false;
}

/// Records in `softmax` the max-reduction m and the scores s of
/// d = s - m: an arith.subf on whole tensors, or one in the body of an
/// elementwise generic (`inBody`, the body's d; by default what it yields).
static bool matchDifference(Value difference, SpelledSoftmax &softmax,
                            Value inBody = {}) {
  Value scores, max;
  AffineMap maxMap;
  Operation *sub = nullptr;
  if (auto subf = getWholeTensorOp<arith::SubFOp>(difference)) {
    sub = subf;
    scores = subf.getLhs();
    max = subf.getRhs();
    maxMap = getIdentityMap(difference);
  } else if (auto generic = difference.getDefiningOp<linalg::GenericOp>()) {
    if (!isElementwise(generic) || generic.getNumDpsInputs() != 2)
      return false;
    if (!inBody)
      inBody = getYieldedValue(generic);
    auto subf =
        inBody ? inBody.getDefiningOp<arith::SubFOp>() : arith::SubFOp();
    if (!subf || subf->getParentOp() != generic)
      return false;
    OpOperand *scoreInput = getIdentityInput(generic, subf.getLhs());
    OpOperand *maxInput =
        getInputOperand(generic, stripUnitFactor(subf.getRhs()));
    if (!scoreInput || !maxInput || scoreInput == maxInput)
      return false;
    sub = generic;
    scores = scoreInput->get();
    max = maxInput->get();
    maxMap = generic.getMatchingIndexingMap(maxInput);
  } else {
    return false;
  }
  SmallVector<Operation *> chain;
  auto [source, map] = traceBroadcast(max, maxMap, chain);
  std::optional<Reduction> reduction =
      getReductionOfKind(source, ReductionKind::Max);
  if (!reduction)
    return false;
  softmax.sub = sub;
  softmax.scores = scores;
  softmax.max = *reduction;
  softmax.maxRead = map;
  softmax.maxChain = std::move(chain);
  return true;
}

/// Finds e = exp(s - m) of a max-reduction m: one generic, or a subtraction
/// then an exp, each in a generic or on whole tensors.
static bool matchExp(Value exps, SpelledSoftmax &softmax) {
  if (auto exp = getWholeTensorOp<math::ExpOp>(exps)) {
    softmax.exp = exp;
    return matchDifference(exp.getOperand(), softmax);
  }
  auto op = exps.getDefiningOp<linalg::GenericOp>();
  if (!op || !isElementwise(op))
    return false;
  Value yielded = getYieldedValue(op);
  auto exp = yielded ? yielded.getDefiningOp<math::ExpOp>() : math::ExpOp();
  if (!exp || exp->getParentOp() != op)
    return false;
  softmax.exp = op;
  if (OpOperand *input = getIdentityInput(op, exp.getOperand()))
    return op.getNumDpsInputs() == 1 && matchDifference(input->get(), softmax);
  // exp(s - m) in one body.
  return matchDifference(exps, softmax, exp.getOperand());
}

bool sage::matchSpelledSoftmax(Value probs, SpelledSoftmax &softmax) {
  return matchNormalize(probs, softmax) && matchExp(softmax.exps, softmax);
}

/// Whether `op` computes its result elementwise from its operands (up to
/// data movement): an elementwise generic, a reshape, a transpose or a
/// broadcast, but not a contraction or a reduction.
static bool isElementwiseLike(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return isElementwise(generic);
  return isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp,
             linalg::TransposeOp, linalg::BroadcastOp>(op);
}

bool sage::findSoftmaxAbove(Value value, SpelledSoftmax &softmax) {
  Operation *def = value.getDefiningOp();
  if (!def || !isElementwiseLike(def))
    return false;
  SmallVector<Value> worklist(def->getOperands());
  for (unsigned budget = 16; !worklist.empty() && budget; --budget) {
    Value operand = worklist.pop_back_val();
    if (matchSpelledSoftmax(operand, softmax))
      return true;
    Operation *producer = operand.getDefiningOp();
    if (producer && isElementwiseLike(producer))
      worklist.append(producer->operand_begin(), producer->operand_end());
  }
  return false;
}
