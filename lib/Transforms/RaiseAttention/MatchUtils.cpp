//===- MatchUtils.cpp - helpers shared by the attention matchers ----------===//

#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
          tensor::ExtractOp>(def))
    return getConstantFloat(def->getOperand(0));
  if (auto fill = dyn_cast<linalg::FillOp>(def))
    return getConstantFloat(fill.getInputs()[0]);
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(def))
    return getConstantFloat(broadcast.getInput());
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
  auto yield = cast<linalg::YieldOp>(op.getRegion().front().getTerminator());
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

/// Whether `init` starts a max-reduction over `type`: -inf or the lowest
/// finite float.
static bool isMaxIdentity(std::optional<double> init, Type type) {
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
  auto op = value.getDefiningOp<linalg::GenericOp>();
  if (!op || !op.hasPureTensorSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
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

  Block &body = op.getRegion().front();
  Value element = body.getArgument(0), accumulator = body.getArgument(1);
  Value yielded = getYieldedValue(op);
  if (!yielded)
    return std::nullopt;
  Type type = getElementTypeOrSelf(value.getType());
  std::optional<double> init = getConstantFloat(op.getDpsInits()[0]);
  ReductionKind kind;
  auto add = yielded.getDefiningOp<arith::AddFOp>();
  if (add && ((add.getLhs() == element && add.getRhs() == accumulator) ||
              (add.getLhs() == accumulator && add.getRhs() == element))) {
    if (init != 0.0)
      return std::nullopt;
    kind = ReductionKind::Sum;
  } else if (isMaxOf(yielded, element, accumulator)) {
    if (!isMaxIdentity(init, type))
      return std::nullopt;
    kind = ReductionKind::Max;
  } else {
    return std::nullopt;
  }
  unsigned axis = *in.getResultPosition(getAffineDimExpr(reduced, op.getContext()));
  return Reduction{op, kind, axis, out.compose(inversePermutation(in))};
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
