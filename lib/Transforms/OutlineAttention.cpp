//===- OutlineAttention.cpp - attentions of a model into functions --------===//
//
// Each sage.attention of a function that computes more than the attention
// moves, with the layout ops that only re-describe its operands and
// results, into a function of its own, called from where it was
// (docs/Launchers.md, "Whole models").
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/Utils/LayoutChains.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEOUTLINEATTENTION
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

namespace {
/// One attention and the layout ops that move with it.
struct Cluster {
  AttentionOp attention;
  /// Q, K, V and the mask, if any: each traced up to the tensor the new
  /// function takes.
  SmallVector<LayoutChain> operands;
  /// The result and the LSE, if any: each traced down to the value the
  /// model uses.
  SmallVector<LayoutChain> results;
};
} // namespace

/// The buffer names of the C ABI (docs/Launchers.md).
static constexpr StringLiteral kOperandNames[] = {"q", "k", "v", "mask"};
static constexpr StringLiteral kResultNames[] = {"o", "lse"};

/// The size of dim `dim` of `value`, read where it was given (an init's
/// size, an expand_shape's output shape, the query's for the attention's
/// results) rather than by a tensor.dim of `value`: a dim read of a layout
/// op's result or of the attention would keep them in the model.
static OpFoldResult resolveSize(OpBuilder &builder, Location loc, Value value,
                                int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return builder.getIndexAttr(type.getDimSize(dim));
  Operation *def = value.getDefiningOp();
  if (auto empty = dyn_cast_or_null<tensor::EmptyOp>(def))
    return empty.getDynamicSize(dim);
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(def))
    return resolveSize(builder, loc, transpose.getInput(),
                       transpose.getPermutation()[dim]);
  if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def))
    return expand.getMixedOutputShape()[dim];
  if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def)) {
    ReassociationIndices group = collapse.getReassociationIndices()[dim];
    if (group.size() == 1)
      return resolveSize(builder, loc, collapse.getSrc(), group.front());
  }
  if (auto attention = dyn_cast_or_null<AttentionOp>(def)) {
    // The result is the query's shape with V's (static) features; the LSE
    // is the result without its features dim.
    unsigned features = *attention.getLayout().getPosition(DimRole::Features);
    bool isLse = value == attention.getLse();
    return resolveSize(builder, loc, attention.getQuery(),
                       isLse && dim >= features ? dim + 1 : dim);
  }
  return tensor::DimOp::create(builder, loc, value, dim).getResult();
}

/// Rewrites each `tensor.dim` of a layout op's result or of an attention
/// in `func` with resolveSize, so that the values that move into the new
/// functions have no such uses left in the model.
static void resolveDims(func::FuncOp func) {
  SmallVector<tensor::DimOp> dims;
  func.walk([&](tensor::DimOp dim) {
    Operation *def = dim.getSource().getDefiningOp();
    if (def && (isa<AttentionOp>(def) || isLayoutOp(def)) &&
        dim.getConstantIndex())
      dims.push_back(dim);
  });
  for (tensor::DimOp dim : dims) {
    int64_t index = *dim.getConstantIndex();
    if (index < 0 || index >= dim.getSource().getType().getRank())
      continue;
    OpBuilder builder(dim);
    OpFoldResult size =
        resolveSize(builder, dim.getLoc(), dim.getSource(), index);
    dim.replaceAllUsesWith(
        getValueOrCreateConstantIndexOp(builder, dim.getLoc(), size));
    dim.erase();
  }
}

static void trimUnrebuildable(Cluster &cluster);

/// The attention's operands and results with the layout ops that move
/// with it. Transposes move only when Q, K, V and the result all cross one
/// (the kernels take one memory order for all four); the mask crosses
/// reshapes only, and so does the LSE.
static Cluster getCluster(AttentionOp op) {
  auto trace = [&](bool allowSwap) {
    Cluster cluster;
    cluster.attention = op;
    // ODS order: query, key, value, then the mask; the result, then the
    // LSE.
    for (OpOperand &operand : op->getOpOperands())
      cluster.operands.push_back(traceLayoutChain(
          operand.get(), {}, allowSwap && operand.getOperandNumber() < 3,
          /*singleUse=*/true));
    for (OpResult result : op->getResults())
      cluster.results.push_back(
          traceLayoutUsers(result, allowSwap && result.getResultNumber() == 0));
    // What the new function cannot rebuild stays in the model, before the
    // transposes are counted.
    trimUnrebuildable(cluster);
    return cluster;
  };
  Cluster cluster = trace(/*allowSwap=*/true);
  bool allSwapped =
      llvm::all_of(ArrayRef(cluster.operands).take_front(3),
                   [](const LayoutChain &chain) { return chain.swapped; });
  if (!allSwapped || !cluster.results.front().swapped)
    cluster = trace(/*allowSwap=*/false);
  return cluster;
}

/// Rebuilds layout op `op` on `input` (its re-described operand, in the new
/// function). Transposes get a fresh init; expand_shape infers its output
/// sizes from `input` (trimUnrebuildable keeps only those it can).
static Value rebuildLayoutOp(OpBuilder &builder, Operation *op, Value input) {
  Location loc = op->getLoc();
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(builder, loc, input);
    SmallVector<OpFoldResult> permuted;
    for (int64_t dim : transpose.getPermutation())
      permuted.push_back(sizes[dim]);
    Value init = tensor::EmptyOp::create(builder, loc, permuted,
                                         getElementTypeOrSelf(input.getType()));
    return linalg::TransposeOp::create(builder, loc, input, init,
                                       transpose.getPermutation())
        ->getResult(0);
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    auto resultType = cast<RankedTensorType>(expand.getResultType());
    FailureOr<SmallVector<OpFoldResult>> sizes =
        tensor::ExpandShapeOp::inferOutputShape(
            builder, loc, resultType, expand.getReassociationIndices(),
            tensor::getMixedSizes(builder, loc, input));
    assert(succeeded(sizes) && "trimUnrebuildable keeps inferable ones only");
    return tensor::ExpandShapeOp::create(builder, loc, resultType, input,
                                         expand.getReassociationIndices(),
                                         *sizes);
  }
  auto collapse = cast<tensor::CollapseShapeOp>(op);
  return tensor::CollapseShapeOp::create(builder, loc, input,
                                         collapse.getReassociationIndices());
}

/// Whether `op` is an expand_shape whose output sizes the new function
/// cannot infer from its input (a split group with two dynamic sizes):
/// only the model knows them.
static bool isUninferableExpand(Operation *op) {
  auto expand = dyn_cast<tensor::ExpandShapeOp>(op);
  if (!expand)
    return false;
  RankedTensorType type = expand.getResultType();
  return llvm::any_of(expand.getReassociationIndices(),
                      [&](const ReassociationIndices &g) {
                        return llvm::count_if(g, [&](int64_t d) {
                                 return type.isDynamicDim(d);
                               }) > 1;
                      });
}

/// Cuts each chain at an expand_shape the new function could not rebuild:
/// an operand chain starts after it (the model passes its result), a
/// result chain ends before it.
static void trimUnrebuildable(Cluster &cluster) {
  for (LayoutChain &chain : cluster.operands) {
    auto cut = llvm::find_if(chain.ops, isUninferableExpand);
    if (cut == chain.ops.end())
      continue;
    chain.source = (*cut)->getResult(0);
    chain.ops.erase(cut, chain.ops.end());
  }
  for (LayoutChain &chain : cluster.results)
    chain.ops.erase(llvm::find_if(chain.ops, isUninferableExpand),
                    chain.ops.end());
  for (LayoutChain &chain :
       llvm::concat<LayoutChain>(cluster.operands, cluster.results))
    chain.swapped = llvm::any_of(
        chain.ops, [](Operation *op) { return isa<linalg::TransposeOp>(op); });
}

/// The value a result chain hands to the model.
static Value getChainEnd(const LayoutChain &chain) {
  return chain.ops.empty() ? chain.source : chain.ops.back()->getResult(0);
}

/// A symbol name made of C identifier characters, so that the launchers'
/// C functions can be named after it.
static std::string getCIdentifier(StringRef name) {
  std::string id;
  for (char c : name)
    id.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (id.empty() || llvm::isDigit(id.front()))
    id.insert(id.begin(), '_');
  return id;
}

/// Moves `cluster` into a new function after `after` and calls it; returns
/// the new function.
static func::FuncOp outline(Cluster &cluster, func::FuncOp parent,
                            unsigned index, Operation *after,
                            SymbolTable &symbols) {
  AttentionOp op = cluster.attention;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();

  SmallVector<Value> sources;
  SmallVector<Type> argumentTypes, resultTypes;
  for (const LayoutChain &chain : cluster.operands) {
    sources.push_back(chain.source);
    argumentTypes.push_back(chain.source.getType());
  }
  for (const LayoutChain &chain : cluster.results)
    resultTypes.push_back(getChainEnd(chain).getType());

  OpBuilder builder(after);
  builder.setInsertionPointAfter(after);
  auto callee = func::FuncOp::create(
      builder, loc,
      getCIdentifier(
          (parent.getSymName() + "_attention_" + Twine(index)).str()),
      FunctionType::get(ctx, argumentTypes, resultTypes));
  symbols.insert(callee, Block::iterator(callee));
  // Operands and results in ODS order: query, key, value, mask; result,
  // lse.
  for (unsigned i = 0; i < argumentTypes.size(); ++i)
    callee.setArgAttr(i, "sage.buffer", StringAttr::get(ctx, kOperandNames[i]));
  for (unsigned i = 0; i < resultTypes.size(); ++i)
    callee.setResultAttr(i, "sage.buffer",
                         StringAttr::get(ctx, kResultNames[i]));

  // The body: each operand chain replayed from the argument up, the
  // attention, each result chain replayed down.
  Block *body = callee.addEntryBlock();
  OpBuilder inner = OpBuilder::atBlockBegin(body);
  SmallVector<Value> operands;
  for (auto [i, chain] : llvm::enumerate(cluster.operands)) {
    Value value = body->getArgument(i);
    for (Operation *layoutOp : llvm::reverse(chain.ops))
      value = rebuildLayoutOp(inner, layoutOp, value);
    operands.push_back(value);
  }
  // By position: Q, K and V may be one value in the model (self-attention
  // on one tensor), and stay three arguments of the ABI.
  Operation *clone = inner.clone(*op);
  clone->setOperands(operands);
  SmallVector<Value> returned;
  for (auto [i, chain] : llvm::enumerate(cluster.results)) {
    Value value = clone->getResult(i);
    for (Operation *layoutOp : chain.ops)
      value = rebuildLayoutOp(inner, layoutOp, value);
    returned.push_back(value);
  }
  func::ReturnOp::create(inner, loc, returned);

  // The call takes the attention's place: the sources dominate it (they
  // are its operands' ancestors), and every use of a result chain's end
  // comes after it.
  builder.setInsertionPoint(op);
  auto call = func::CallOp::create(builder, loc, callee, sources);
  SmallVector<Operation *> dead;
  for (auto [i, chain] : llvm::enumerate(cluster.results)) {
    getChainEnd(chain).replaceAllUsesWith(call.getResult(i));
    dead.append(chain.ops.rbegin(), chain.ops.rend());
  }
  dead.push_back(op);
  for (const LayoutChain &chain : cluster.operands)
    dead.append(chain.ops.begin(), chain.ops.end());
  // Erase what moved (users first), then what only fed it (inits, dims,
  // constants): a feeder is an op outside `dead`, visited once.
  llvm::SmallPtrSet<Operation *, 16> moved(dead.begin(), dead.end());
  llvm::SetVector<Operation *> feeders;
  for (Operation *deadOp : dead)
    for (Value operand : deadOp->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && !moved.count(def))
        feeders.insert(def);
  for (Operation *deadOp : dead) {
    assert(deadOp->use_empty() && "a moved op is still used in the model");
    deadOp->erase();
  }
  while (!feeders.empty()) {
    Operation *feeder = feeders.pop_back_val();
    if (!isOpTriviallyDead(feeder))
      continue;
    for (Value operand : feeder->getOperands())
      if (Operation *def = operand.getDefiningOp())
        feeders.insert(def);
    feeder->erase();
  }
  return callee;
}

namespace {
struct SageOutlineAttentionPass
    : public sage::impl::SageOutlineAttentionBase<SageOutlineAttentionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto func :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (isAttentionOnlyFunction(func))
        continue;
      SmallVector<AttentionOp> attentions;
      func.walk([&](AttentionOp op) { attentions.push_back(op); });
      if (attentions.empty())
        continue;
      resolveDims(func);
      // The new functions follow their model's, in the order of the calls.
      Operation *after = func;
      for (auto [index, op] : llvm::enumerate(attentions)) {
        Cluster cluster = getCluster(op);
        after = outline(cluster, func, index, after, symbols);
      }
    }
  }
};
} // namespace
