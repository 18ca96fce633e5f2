//===- MatchTorchAttention.cpp - torch-mlir's tm_tensor.attention ---------===//
//
// tm_tensor.attention ins(Q, K, V [, mask]) outs(O): batch and heads
// collapsed into leading dims, [batch..., L, E]. Matched by name and
// structure, so the op may be unregistered (generic form).
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sage;

LogicalResult sage::matchTorchAttention(Operation *op, AttentionMatch &match) {
  match.anchor = op;
  // ins(...) outs(O): with operand segments, or one output last.
  int64_t inputs = op->getNumOperands() - 1;
  if (auto segments =
          op->getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes")) {
    if (segments.size() != 2 || segments[1] != 1)
      return match.refuse("expected one output operand");
    inputs = segments[0];
  }
  if ((inputs != 3 && inputs != 4) || op->getNumResults() != 1)
    return match.refuse("expected query, key, value and an optional mask, "
                        "and one result");
  Value query = op->getOperand(0), key = op->getOperand(1),
        value = op->getOperand(2);
  auto queryType = dyn_cast<RankedTensorType>(query.getType());
  auto keyType = dyn_cast<RankedTensorType>(key.getType());
  auto valueType = dyn_cast<RankedTensorType>(value.getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!queryType || !keyType || !valueType || !resultType)
    return match.refuse("expected ranked tensors");
  int64_t rank = queryType.getRank();
  if (rank < 3 || keyType.getRank() != rank || valueType.getRank() != rank ||
      resultType.getRank() != rank)
    return match.refuse("expected operands of rank 3 or more ([batch..., "
                        "tokens, features])");
  Type element = queryType.getElementType();
  if (!isAttentionElementType(element) || keyType.getElementType() != element ||
      valueType.getElementType() != element)
    return match.refuse("Q, K and V must share an f16, bf16 or f32 element "
                        "type");
  int64_t features = queryType.getShape().back();
  if (ShapedType::isDynamic(features) || valueType.isDynamicDim(rank - 1))
    return match.refuse("feature dimensions must be static");

  match.query = query;
  match.key = key;
  match.value = value;
  match.batchDims = rank - 2;
  match.result = op->getResult(0);
  match.scale = 1.0 / std::sqrt(double(features));
  if (auto scale = op->getAttrOfType<FloatAttr>("scale"))
    match.scale = scale.getValueAsDouble();
  if (!std::isfinite(match.scale) || match.scale == 0)
    return match.refuse("the scale is not finite and non-zero");
  if (inputs == 4 && failed(recordMask(match, op->getOperand(3), {},
                                       queryType.getDimSize(rank - 2),
                                       keyType.getDimSize(rank - 2))))
    return failure();
  return success();
}
