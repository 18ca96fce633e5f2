//===- Masks.cpp - attention masks: causal or carried ---------------------===//
//
// Frontends build the causal mask as a tensor (0 / -inf, or true / false)
// with a linalg.generic that compares linalg.index values. The body must be
// one comparison of the query and key positions (through casts, an
// optional `not` and a select of constants): no offsets, no other index.
// Such a body is then one of six predicates, which a small grid of
// positions tells apart, so comparing it with the causal pattern there is
// a proof, not a sample.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sage;

/// Evaluates the body of an elementwise generic at `indices`; arith on
/// integers, indices, booleans and floats, all held as doubles. Returns
/// std::nullopt on anything else (block arguments included: the mask must
/// be built from positions alone).
static std::optional<double> evaluateBody(linalg::GenericOp op,
                                          ArrayRef<int64_t> indices) {
  llvm::DenseMap<Value, double> values;
  auto get = [&](Value v) -> std::optional<double> {
    auto it = values.find(v);
    if (it == values.end())
      return std::nullopt;
    return it->second;
  };
  auto constantOf = [&](Value v) -> std::optional<double> {
    Attribute attr;
    if (auto c = v.getDefiningOp<arith::ConstantOp>())
      attr = c.getValue();
    if (auto i = dyn_cast_or_null<IntegerAttr>(attr))
      return i.getType().isInteger(1) ? double(i.getValue().getZExtValue())
                                      : double(i.getValue().getSExtValue());
    if (auto f = dyn_cast_or_null<FloatAttr>(attr))
      return f.getValueAsDouble();
    return std::nullopt;
  };
  auto operand = [&](Value v) -> std::optional<double> {
    if (std::optional<double> known = get(v))
      return known;
    return constantOf(v);
  };
  for (Operation &inner : op.getRegion().front()) {
    if (auto yield = dyn_cast<linalg::YieldOp>(inner))
      return yield.getNumOperands() == 1 ? operand(yield.getOperand(0))
                                         : std::nullopt;
    std::optional<double> result =
        llvm::TypeSwitch<Operation *, std::optional<double>>(&inner)
            .Case([&](linalg::IndexOp index) -> std::optional<double> {
              if (index.getDim() >= indices.size())
                return std::nullopt;
              return double(indices[index.getDim()]);
            })
            .Case([&](arith::ConstantOp c) { return constantOf(c); })
            .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                  arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
                  arith::UIToFPOp, arith::ExtFOp, arith::TruncFOp>(
                [&](Operation *cast) { return operand(cast->getOperand(0)); })
            .Case([&](arith::CmpIOp cmp) -> std::optional<double> {
              std::optional<double> a = operand(cmp.getLhs());
              std::optional<double> b = operand(cmp.getRhs());
              if (!a || !b)
                return std::nullopt;
              using P = arith::CmpIPredicate;
              switch (cmp.getPredicate()) {
              case P::eq:
                return double(*a == *b);
              case P::ne:
                return double(*a != *b);
              case P::slt:
              case P::ult:
                return double(*a < *b);
              case P::sle:
              case P::ule:
                return double(*a <= *b);
              case P::sgt:
              case P::ugt:
                return double(*a > *b);
              case P::sge:
              case P::uge:
                return double(*a >= *b);
              }
              return std::nullopt;
            })
            .Case([&](arith::XOrIOp x) -> std::optional<double> {
              std::optional<double> a = operand(x.getLhs());
              std::optional<double> b = operand(x.getRhs());
              if (!a || !b)
                return std::nullopt;
              return double(int64_t(*a) ^ int64_t(*b));
            })
            .Case([&](arith::SelectOp select) -> std::optional<double> {
              std::optional<double> c = operand(select.getCondition());
              if (!c)
                return std::nullopt;
              return operand(*c != 0 ? select.getTrueValue()
                                     : select.getFalseValue());
            })
            .Default([](Operation *) { return std::nullopt; });
    if (!result || inner.getNumResults() != 1)
      return std::nullopt;
    values[inner.getResult(0)] = *result;
  }
  return std::nullopt;
}

/// The body is one comparison of the last two loop indices, through casts,
/// `xori` with a constant, and a select of constants (see the file comment).
static bool isSingleComparisonOfPositions(linalg::GenericOp op) {
  unsigned rank = op.getNumLoops();
  int comparisons = 0;
  for (Operation &inner : op.getRegion().front()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      if (index.getDim() + 2 < rank)
        return false;
      continue;
    }
    if (isa<arith::CmpIOp>(inner)) {
      ++comparisons;
      continue;
    }
    if (!isa<arith::ConstantOp, arith::IndexCastOp, arith::IndexCastUIOp,
             arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::XOrIOp,
             arith::SelectOp, arith::SIToFPOp, arith::UIToFPOp, arith::ExtFOp,
             arith::TruncFOp, linalg::YieldOp>(inner))
      return false;
    if (auto select = dyn_cast<arith::SelectOp>(inner))
      if (!select.getTrueValue().getDefiningOp<arith::ConstantOp>() ||
          !select.getFalseValue().getDefiningOp<arith::ConstantOp>())
        return false;
  }
  return comparisons == 1;
}

bool sage::isCausalMask(Value mask) {
  // Reshapes of the leading dims keep positions where they are.
  auto keepsLastTwo = [](ArrayRef<ReassociationIndices> groups) {
    size_t n = groups.size();
    return n >= 2 && groups[n - 1].size() == 1 && groups[n - 2].size() == 1;
  };
  while (true) {
    if (auto collapse = mask.getDefiningOp<tensor::CollapseShapeOp>();
        collapse && keepsLastTwo(collapse.getReassociationIndices())) {
      mask = collapse.getSrc();
    } else if (auto expand = mask.getDefiningOp<tensor::ExpandShapeOp>();
               expand && keepsLastTwo(expand.getReassociationIndices())) {
      mask = expand.getSrc();
    } else {
      break;
    }
  }
  auto op = mask.getDefiningOp<linalg::GenericOp>();
  if (!op || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() || op.getNumLoops() < 2)
    return false;
  // The output map must be the identity, so loop dims are tensor dims.
  if (!op.getIndexingMapsArray().back().isIdentity() ||
      !isSingleComparisonOfPositions(op))
    return false;
  Type element = getElementTypeOrSelf(mask.getType());
  unsigned rank = op.getNumLoops();
  constexpr int64_t kGrid = 6;
  for (int64_t i = 0; i < kGrid; ++i)
    for (int64_t j = 0; j < kGrid; ++j) {
      SmallVector<int64_t> indices(rank, 0);
      indices[rank - 2] = i;
      indices[rank - 1] = j;
      std::optional<double> value = evaluateBody(op, indices);
      if (!value)
        return false;
      bool visible = j <= i;
      if (element.isInteger(1)) {
        if ((*value != 0) != visible)
          return false;
        continue;
      }
      // Additive: 0 where visible, -inf, the lowest float of the mask's
      // type (torch's finfo.min) or below -1e30 elsewhere.
      bool masked = *value <= -1e30 || isMaxIdentity(value, element);
      if (visible ? *value != 0 : !masked)
        return false;
    }
  return true;
}

LogicalResult sage::recordMask(AttentionMatch &match, Value mask,
                               ArrayRef<int64_t> perm, int64_t queries,
                               int64_t keys) {
  // The causal pattern is read on the mask's last two dims: they must be
  // queries then keys.
  int64_t rank = perm.size();
  bool positional = perm.empty() ||
                    (perm[rank - 2] == rank - 2 && perm[rank - 1] == rank - 1);
  auto type = dyn_cast<RankedTensorType>(mask.getType());
  Type element = getElementTypeOrSelf(mask.getType());
  if (!type || !(element.isInteger(1) || isAttentionElementType(element)))
    return match.refuse("the mask is not an i1, f16, bf16 or f32 tensor");
  // The frontends' causal mask is aligned top-left; sage's default,
  // bottom-right, is the same when Nq = Nk, and then the IR says nothing.
  if (positional && isCausalMask(mask)) {
    match.causal = true;
    match.causalTopLeft = ShapedType::isDynamic(queries) || queries != keys;
    return success();
  }
  match.mask = mask;
  match.maskPerm.assign(perm.begin(), perm.end());
  return success();
}
