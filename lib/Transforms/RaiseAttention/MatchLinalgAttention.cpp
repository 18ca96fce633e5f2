//===- MatchLinalgAttention.cpp - attention in upstream linalg ------------===//
//
// Recognizes, walking back from the P*V contraction:
//
//   S = Q * K^T        contraction; K transposed by maps or linalg.transpose
//   S = S * c          optional elementwise scale by a constant
//   P = softmax(S)     linalg.softmax over the key dimension
//   P = cast(P)        optional extf / truncf
//   O = P * V          contraction
//
// Operand roles come from the contractions' indexing maps, not from op
// names, so matmul, batch_matmul and their indexing_maps forms all match.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "MatchUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

using namespace mlir;
using namespace mlir::sage;

namespace {
/// Role of one dimension of a contraction operand.
enum class Role { Batch, M, N, K };
} // namespace

/// Roles of the dimensions of `operand` of `op`, outermost first.
static FailureOr<SmallVector<Role>>
getRoles(linalg::LinalgOp op, OpOperand *operand,
         const linalg::ContractionDimensions &dims) {
  SmallVector<Role> roles;
  for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim)
      return failure();
    unsigned pos = dim.getPosition();
    if (llvm::is_contained(dims.batch, pos))
      roles.push_back(Role::Batch);
    else if (llvm::is_contained(dims.m, pos))
      roles.push_back(Role::M);
    else if (llvm::is_contained(dims.n, pos))
      roles.push_back(Role::N);
    else
      roles.push_back(Role::K);
  }
  return roles;
}

/// `roles` is [Batch?, first, second] with `batched` saying whether the
/// batch dimension is there.
static bool hasRoles(ArrayRef<Role> roles, bool batched, Role first,
                     Role second) {
  if (batched)
    return roles.size() == 3 && roles[0] == Role::Batch && roles[1] == first &&
           roles[2] == second;
  return roles.size() == 2 && roles[0] == first && roles[1] == second;
}

LogicalResult sage::matchLinalgAttention(linalg::LinalgOp root,
                                         AttentionMatch &match) {
  auto refuse = [&](const Twine &why) { return match.refuse(why); };
  linalg::LinalgOp pv = getRootContraction(root);
  if (!pv)
    return refuse("not a contraction of two tensors");

  // P*V: find the softmax behind P first, so that later refusals are known
  // to be refused attention.
  SmallVector<Value> probsChain = {pv.getDpsInputs()[0]};
  while (Value input = getCastInput(probsChain.back()))
    probsChain.push_back(input);
  auto softmax = probsChain.back().getDefiningOp<linalg::SoftmaxOp>();
  if (!softmax)
    return refuse("the left operand is not produced by linalg.softmax");
  match.anchor = softmax;
  for (Value value : probsChain)
    if (!value.hasOneUse())
      return refuse("the probabilities have users besides the P*V "
                    "contraction");

  FailureOr<linalg::ContractionDimensions> pvDims =
      linalg::inferContractionDims(pv);
  if (failed(pvDims) || pvDims->m.size() != 1 || pvDims->n.size() != 1 ||
      pvDims->k.size() != 1 || pvDims->batch.size() > 1)
    return refuse("P*V is not a (batched) matrix product");
  bool batched = pvDims->batch.size() == 1;
  FailureOr<SmallVector<Role>> probRoles =
      getRoles(pv, pv.getDpsInputOperand(0), *pvDims);
  FailureOr<SmallVector<Role>> valueRoles =
      getRoles(pv, pv.getDpsInputOperand(1), *pvDims);
  FailureOr<SmallVector<Role>> outRoles =
      getRoles(pv, pv.getDpsInitOperand(0), *pvDims);
  if (failed(probRoles) || failed(valueRoles) || failed(outRoles) ||
      !hasRoles(*probRoles, batched, Role::M, Role::K) ||
      !hasRoles(*valueRoles, batched, Role::K, Role::N) ||
      !hasRoles(*outRoles, batched, Role::M, Role::N))
    return refuse("P*V is not laid out [batch, tokens, features]");
  if (!hasZeroInit(pv))
    return refuse("P*V accumulates into a non-zero init");

  int64_t keyAxis = batched ? 2 : 1;
  if (int64_t(softmax.getDimension()) != keyAxis)
    return refuse("softmax runs over dimension " +
                  Twine(softmax.getDimension()) + ", not the key dimension " +
                  Twine(keyAxis));

  // The scores: casts and at most one scale between Q*K^T and the softmax.
  Value scores = softmax.getInput();
  double scale = 1.0;
  bool scaled = false;
  while (true) {
    if (!scores.hasOneUse())
      return refuse("the scores have users besides the softmax");
    if (Value input = getCastInput(scores)) {
      scores = input;
      continue;
    }
    std::optional<std::pair<Value, double>> scaledInput;
    if (!scaled && (scaledInput = getScaleInput(scores))) {
      std::tie(scores, scale) = *scaledInput;
      scaled = true;
      continue;
    }
    break;
  }
  linalg::LinalgOp qk = getContraction(scores);
  if (!qk)
    return refuse("the softmax input is not a scaled Q*K^T contraction");
  FailureOr<linalg::ContractionDimensions> qkDims =
      linalg::inferContractionDims(qk);
  if (failed(qkDims) || qkDims->m.size() != 1 || qkDims->n.size() != 1 ||
      qkDims->k.size() != 1 || qkDims->batch.size() != pvDims->batch.size())
    return refuse("Q*K^T is not a matrix product batched like P*V");
  FailureOr<SmallVector<Role>> queryRoles =
      getRoles(qk, qk.getDpsInputOperand(0), *qkDims);
  FailureOr<SmallVector<Role>> keyRoles =
      getRoles(qk, qk.getDpsInputOperand(1), *qkDims);
  FailureOr<SmallVector<Role>> scoreRoles =
      getRoles(qk, qk.getDpsInitOperand(0), *qkDims);
  if (failed(queryRoles) || failed(keyRoles) || failed(scoreRoles) ||
      !hasRoles(*queryRoles, batched, Role::M, Role::K) ||
      !hasRoles(*scoreRoles, batched, Role::M, Role::N))
    return refuse("Q*K^T is not laid out [batch, tokens, features]");
  if (!hasZeroInit(qk))
    return refuse("Q*K^T accumulates into a non-zero init");

  // K enters either transposed by the indexing maps, or through a
  // linalg.transpose of its last two dimensions.
  Value key = qk.getDpsInputs()[1];
  if (!hasRoles(*keyRoles, batched, Role::N, Role::K)) {
    auto transpose = key.getDefiningOp<linalg::TransposeOp>();
    SmallVector<int64_t> swapLast =
        batched ? SmallVector<int64_t>{0, 2, 1} : SmallVector<int64_t>{1, 0};
    if (!hasRoles(*keyRoles, batched, Role::K, Role::N) || !transpose ||
        transpose.getPermutation() != ArrayRef<int64_t>(swapLast))
      return refuse("K is not transposed into Q*K^T");
    key = transpose.getInput();
  }

  Value query = qk.getDpsInputs()[0], value = pv.getDpsInputs()[1];
  Type elementType = getElementTypeOrSelf(query.getType());
  if (!isAttentionElementType(elementType) ||
      getElementTypeOrSelf(key.getType()) != elementType ||
      getElementTypeOrSelf(value.getType()) != elementType)
    return refuse("Q, K and V must share an f16, bf16 or f32 element type");
  if (!isAttentionElementType(getElementTypeOrSelf(pv->getResult(0))))
    return refuse("the output must be f16, bf16 or f32");
  if (cast<ShapedType>(query.getType()).isDynamicDim(keyAxis) ||
      cast<ShapedType>(value.getType()).isDynamicDim(keyAxis))
    return refuse("feature dimensions must be static");

  match.query = query;
  match.key = key;
  match.value = value;
  match.result = pv->getResult(0);
  match.scale = scale;
  match.batchDims = batched ? 1 : 0;
  return success();
}
