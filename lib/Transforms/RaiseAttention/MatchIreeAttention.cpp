//===- MatchIreeAttention.cpp - IREE's iree_linalg_ext.attention ----------===//
//
// iree_linalg_ext.attention {indexing_maps} ins(Q, K, V, scale [, mask])
// outs(O) with a score region. Earlier IREE releases emitted it without
// the region (scores are used as they are) and without the scale's `()`
// map; both forms are read. The roles of the loop dimensions come from
// the maps, as in IREE's own AttentionOpDetail: batch dims index every
// operand; m indexes Q and O; k1 (head dim) Q and K; k2 (keys) K and V; n
// V and O. Matched by name and structure, so the op may be unregistered.
//
// iree_linalg_ext.online_attention is the same loop without its final
// normalization (outputs: the unnormalized O, the row max and the row
// sum); it is attention when it reaches us whole: O, max and sum start
// from 0, -inf and 0, and O / sum follows.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sage;

/// Loop dimensions an operand's map reads, or std::nullopt for maps that
/// are not projected permutations.
static std::optional<SmallVector<unsigned>> getDims(AffineMap map) {
  if (!map.isProjectedPermutation())
    return std::nullopt;
  SmallVector<unsigned> dims;
  for (AffineExpr expr : map.getResults())
    dims.push_back(cast<AffineDimExpr>(expr).getPosition());
  return dims;
}

/// For each canonical position, the operand dimension that goes there.
static SmallVector<int64_t> getPermutation(ArrayRef<unsigned> operandDims,
                                           ArrayRef<unsigned> canonical) {
  SmallVector<int64_t> perm;
  for (unsigned dim : canonical)
    perm.push_back(llvm::find(operandDims, dim) - operandDims.begin());
  return perm;
}

/// If `acc` (the unnormalized output of online_attention, dims `o`) is only
/// divided by `sum` (dims `o` without the value dim `n`) in an elementwise
/// linalg.generic, that division's result.
static Value getNormalization(Value acc, Value sum, unsigned outputRank,
                              unsigned nPosition) {
  if (!acc.hasOneUse() || !sum.hasOneUse())
    return {};
  auto generic = dyn_cast<linalg::GenericOp>(*acc.getUsers().begin());
  if (!generic || *sum.getUsers().begin() != generic.getOperation() ||
      generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      generic.getNumLoops() != outputRank)
    return {};
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned accIndex = generic.getDpsInputs()[0] == acc ? 0 : 1;
  if (generic.getDpsInputs()[1 - accIndex] != sum ||
      !maps[accIndex].isIdentity() || !maps[2].isIdentity() ||
      maps[1 - accIndex] != maps[2].dropResult(nPosition))
    return {};
  Block &body = generic.getRegion().front();
  auto divide = dyn_cast<arith::DivFOp>(&body.front());
  if (!divide || body.getOperations().size() != 2 ||
      divide.getLhs() != body.getArgument(accIndex) ||
      divide.getRhs() != body.getArgument(1 - accIndex) ||
      body.getTerminator()->getOperand(0) != divide.getResult())
    return {};
  return generic->getResult(0);
}

LogicalResult sage::matchIreeAttention(Operation *op, AttentionMatch &match) {
  match.anchor = op;
  bool online =
      op->getName().getStringRef() == "iree_linalg_ext.online_attention";
  // Outputs: O, or O, max and sum.
  unsigned outputs = online ? 3 : 1;
  auto maps = op->getAttrOfType<ArrayAttr>("indexing_maps");
  unsigned operands = op->getNumOperands();
  // One map per operand, or (earlier releases) none for the scale.
  bool scaleMap = maps && maps.size() == operands;
  if (!maps || (operands != 4 + outputs && operands != 5 + outputs) ||
      (!scaleMap && maps.size() + 1 != operands) ||
      op->getNumResults() != outputs)
    return match.refuse("expected Q, K, V, scale, an optional mask and " +
                        Twine(outputs) +
                        " outputs, with one indexing map each (the scale's "
                        "may be left out)");
  bool hasMask = operands == 5 + outputs;

  // A score region, where there is one, hands the scores through unchanged.
  if (op->getNumRegions() > 1)
    return match.refuse("expected at most one score region");
  if (op->getNumRegions() == 1 && !op->getRegion(0).empty()) {
    // Unregistered IR is unverified: the block may hold no terminator.
    Block &region = op->getRegion(0).front();
    if (region.empty() || region.getNumArguments() < 1 ||
        region.getOperations().size() != 1 ||
        region.back().getNumOperands() != 1 ||
        region.back().getOperand(0) != region.getArgument(0))
      return match.refuse("the score region is not the identity");
  }

  // The loop dimensions each operand reads, the scale's none.
  SmallVector<SmallVector<unsigned>> dims;
  for (Attribute attr : maps) {
    if (!scaleMap && dims.size() == 3)
      dims.emplace_back();
    auto map = dyn_cast<AffineMapAttr>(attr);
    std::optional<SmallVector<unsigned>> operandDims =
        map ? getDims(map.getValue()) : std::nullopt;
    if (!operandDims)
      return match.refuse("indexing maps must be projected permutations");
    dims.push_back(*operandDims);
  }
  ArrayRef<unsigned> q = dims[0], k = dims[1], v = dims[2],
                     o = dims[operands - outputs];
  auto in = [](ArrayRef<unsigned> set, unsigned d) {
    return llvm::is_contained(set, d);
  };
  SmallVector<unsigned> batch, m, k1, k2, n;
  for (unsigned d : o) {
    if (in(q, d) && in(k, d) && in(v, d))
      batch.push_back(d);
    else if (in(q, d) && !in(k, d))
      m.push_back(d);
    else if (in(v, d) && !in(q, d) && !in(k, d))
      n.push_back(d);
  }
  for (unsigned d : q)
    if (in(k, d) && !in(o, d))
      k1.push_back(d);
  for (unsigned d : k)
    if (in(v, d) && !in(o, d) && !in(q, d))
      k2.push_back(d);
  if (m.size() != 1 || n.size() != 1 || k1.size() != 1 || k2.size() != 1 ||
      q.size() != batch.size() + 2 || k.size() != batch.size() + 2 ||
      v.size() != batch.size() + 2 || o.size() != batch.size() + 2)
    return match.refuse("the indexing maps do not describe one query, key, "
                        "head and value dimension over shared batch dims");

  auto canonical = [&](unsigned first, unsigned second) {
    SmallVector<unsigned> order(batch);
    order.append({first, second});
    return order;
  };
  Value query = op->getOperand(0), key = op->getOperand(1),
        value = op->getOperand(2);
  // Every tensor operand is ranked like its map.
  for (unsigned i = 0; i < operands; ++i) {
    if (i == 3)
      continue; // the scale
    auto type = dyn_cast<RankedTensorType>(op->getOperand(i).getType());
    if (!type || type.getRank() != int64_t(dims[i].size()))
      return match.refuse("operand #" + Twine(i) +
                          " is not a ranked tensor of its map's rank");
  }
  Type element = getElementTypeOrSelf(query.getType());
  if (!isAttentionElementType(element) ||
      getElementTypeOrSelf(key.getType()) != element ||
      getElementTypeOrSelf(value.getType()) != element)
    return match.refuse("Q, K and V must share an f16, bf16 or f32 element "
                        "type");
  auto queryType = cast<RankedTensorType>(query.getType());
  auto keyType = cast<RankedTensorType>(key.getType());
  auto valueType = cast<RankedTensorType>(value.getType());
  auto position = [](ArrayRef<unsigned> operandDims, unsigned d) {
    return llvm::find(operandDims, d) - operandDims.begin();
  };
  if (queryType.isDynamicDim(position(q, k1[0])) ||
      valueType.isDynamicDim(position(v, n[0])))
    return match.refuse("feature dimensions must be static");

  std::optional<double> scale = getConstantFloat(op->getOperand(3));
  if (!scale)
    return match.refuse("the scale is not a constant");
  if (!std::isfinite(*scale) || *scale == 0)
    return match.refuse("the scale is not finite and non-zero");

  match.query = query;
  match.key = key;
  match.value = value;
  match.queryPerm = getPermutation(q, canonical(m[0], k1[0]));
  match.keyPerm = getPermutation(k, canonical(k2[0], k1[0]));
  match.valuePerm = getPermutation(v, canonical(k2[0], n[0]));
  // The result goes back from canonical [batch..., m, n] to O's order.
  match.resultPerm = getPermutation(canonical(m[0], n[0]), o);
  match.batchDims = batch.size();
  match.scale = *scale;
  match.result = op->getResult(0);
  if (online) {
    // O, max and sum start empty; O / sum completes the softmax.
    Value out = op->getOperand(operands - 3),
          max = op->getOperand(operands - 2),
          sum = op->getOperand(operands - 1);
    std::optional<double> out0 = getConstantFloat(out),
                          max0 = getConstantFloat(max),
                          sum0 = getConstantFloat(sum);
    if (!out0 || *out0 != 0 || !sum0 || *sum0 != 0 || !max0 ||
        !(*max0 <= -1e30 ||
          isMaxIdentity(max0, getElementTypeOrSelf(max.getType()))))
      return match.refuse("online_attention does not start from O = 0, "
                          "max = -inf, sum = 0");
    unsigned nPosition = llvm::find(o, n[0]) - o.begin();
    match.result = getNormalization(op->getResult(0), op->getResult(2),
                                    o.size(), nPosition);
    if (!match.result)
      return match.refuse("online_attention is not followed by its "
                          "normalization O / sum alone");
    if (!op->getResult(1).use_empty())
      return match.refuse("the row max of online_attention has users");
  }
  if (hasMask) {
    ArrayRef<unsigned> maskDims = dims[4];
    auto allowed = [&](unsigned d) {
      return in(batch, d) || d == m[0] || d == k2[0];
    };
    if (maskDims.size() != batch.size() + 2 || !in(maskDims, m[0]) ||
        !in(maskDims, k2[0]) || !llvm::all_of(maskDims, allowed))
      return match.refuse("the mask map is not [batch..., queries, keys]");
    if (failed(recordMask(match, op->getOperand(4),
                          getPermutation(maskDims, canonical(m[0], k2[0])),
                          queryType.getDimSize(position(q, m[0])),
                          keyType.getDimSize(position(k, k2[0])))))
      return failure();
  }
  return success();
}
