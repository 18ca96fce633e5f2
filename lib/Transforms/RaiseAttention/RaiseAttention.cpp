//===- RaiseAttention.cpp - raise attention into sage.attention -----------===//
//
// One pattern tries every frontend form (a matcher per file) on each op,
// asks the recipe policy which recipe the attention gets, and rewrites the
// match into sage.attention: operands transposed to [batch..., tokens,
// features] where the form had another order, the result transposed back.
//
//===----------------------------------------------------------------------===//

#include "AttentionMatch.h"
#include "StableHlo.h"

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/GlobPattern.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGERAISEATTENTION
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Tries every form on `op`. A failure with `match.anchor` set is attention
/// that was refused; without it, `op` is not a candidate.
static LogicalResult matchAnyForm(Operation *op, AttentionMatch &match) {
  StringRef name = op->getName().getStringRef();
  if (name == "tm_tensor.attention")
    return matchTorchAttention(op, match);
  if (name == "iree_linalg_ext.attention" ||
      name == "iree_linalg_ext.online_attention")
    return matchIreeAttention(op, match);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return failure();
  if (succeeded(matchLinalgAttention(linalgOp, match)))
    return success();
  if (match.anchor)
    return failure(); // a refused linalg.softmax form
  match = AttentionMatch();
  return matchDecomposedAttention(linalgOp, match);
}

//===----------------------------------------------------------------------===//
// Recipe policy
//===----------------------------------------------------------------------===//

namespace {
/// One `pattern=variant` rule; a null variant leaves the attention alone.
struct PolicyRule {
  std::string text;
  llvm::GlobPattern pattern;
  std::optional<Variant> variant;
};

/// Which recipe each attention gets (README, "Recipe policy"):
/// 1. a `sage.recipe` attribute on the attention op or its function: a
///    #sage.recipe, or the string "none";
/// 2. the first rule whose glob matches the function name or the location;
/// 3. the default recipe.
struct RecipePolicy {
  RecipeAttr defaultRecipe;
  SmallVector<PolicyRule> rules;

  /// The recipe for the attention rooted at `root`, or null to leave it
  /// alone; `reason` says which part of the policy decided.
  RecipeAttr select(Operation *root, const AttentionMatch &match,
                    std::string &reason) const {
    SmallVector<Operation *, 3> holders = {root};
    if (match.anchor && match.anchor != root)
      holders.push_back(match.anchor);
    auto func = root->getParentOfType<FunctionOpInterface>();
    if (func)
      holders.push_back(func);
    for (Operation *holder : holders) {
      Attribute attr = holder->getAttr("sage.recipe");
      if (!attr)
        continue;
      if (auto recipe = dyn_cast<RecipeAttr>(attr))
        return recipe;
      std::string text;
      llvm::raw_string_ostream(text) << attr;
      reason = "its sage.recipe attribute is " + text;
      return {};
    }
    std::string location;
    llvm::raw_string_ostream os(location);
    root->getLoc().print(os);
    StringRef funcName = func ? func.getName() : "";
    for (const PolicyRule &rule : rules) {
      if (!rule.pattern.match(funcName) && !rule.pattern.match(location))
        continue;
      if (rule.variant)
        return RecipeAttr::get(root->getContext(), *rule.variant);
      reason = "policy rule '" + rule.text + "' leaves it alone";
      return {};
    }
    return defaultRecipe;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Rewrite
//===----------------------------------------------------------------------===//

/// linalg.transpose of `value` by `perm` (output dim i = input dim perm[i]).
static Value transpose(RewriterBase &rewriter, Location loc, Value value,
                       ArrayRef<int64_t> perm) {
  if (perm.empty() || isIdentityPermutation(perm))
    return value;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, value);
  SmallVector<OpFoldResult> permuted;
  for (int64_t p : perm)
    permuted.push_back(sizes[p]);
  Value init = tensor::EmptyOp::create(rewriter, loc, permuted,
                                       getElementTypeOrSelf(value.getType()));
  return linalg::TransposeOp::create(rewriter, loc, value, init, perm)
      ->getResult(0);
}

/// [tokens, features] -> [1, tokens, features] and back.
static const ReassociationIndices kUnitBatch[] = {{0, 1}, {2}};

static Value addUnitBatch(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto batchedType = RankedTensorType::get(
      {1, type.getDimSize(0), type.getDimSize(1)}, type.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, batchedType, value,
                                       kUnitBatch);
}

/// Groups the first `batchDims - 1` dims of a [batch dims..., heads,
/// tokens, features] tensor into one.
static SmallVector<ReassociationIndices>
getLeadingReassociation(unsigned batchDims) {
  ReassociationIndices leading;
  for (unsigned i = 0; i + 1 < batchDims; ++i)
    leading.push_back(i);
  return {leading, {batchDims - 1}, {batchDims}, {batchDims + 1}};
}

static Value collapseLeading(RewriterBase &rewriter, Location loc, Value value,
                             unsigned batchDims) {
  return tensor::CollapseShapeOp::create(rewriter, loc, value,
                                         getLeadingReassociation(batchDims));
}

/// If `value` ([B, H, N, D]) repeats each of `Hkv` heads `H / Hkv` times in
/// a row (repeat_interleave, as torch's enable_gqa spells GQA: a broadcast
/// along a new dim after heads, collapsed into heads), the unrepeated
/// [B, Hkv, N, D] tensor.
static Value getUnrepeatedHeads(Value value) {
  auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getSrcType().getRank() != 5 ||
      collapse.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}})
    return {};
  Value repeated = collapse.getSrc();
  if (auto broadcast = repeated.getDefiningOp<linalg::BroadcastOp>())
    if (broadcast.getDimensions() == ArrayRef<int64_t>{2})
      return broadcast.getInput();
  // The same as a linalg.generic: one input read without the repeat dim.
  auto generic = repeated.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return {};
  MLIRContext *ctx = generic.getContext();
  AffineMap readsWithoutRepeat =
      AffineMap::get(5, 0,
                     {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx),
                      getAffineDimExpr(3, ctx), getAffineDimExpr(4, ctx)},
                     ctx);
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  Block &body = generic.getRegion().front();
  if (maps[0] != readsWithoutRepeat || !maps[1].isIdentity() ||
      body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return {};
  return generic.getDpsInputs()[0];
}

/// Replaces `match.result` with a sage.attention on the matched operands.
static void replaceWithAttention(RewriterBase &rewriter, Operation *root,
                                 const AttentionMatch &match,
                                 RecipeAttr recipe) {
  Location loc = root->getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Value query = transpose(rewriter, loc, match.query, match.queryPerm);
  Value key = transpose(rewriter, loc, match.key, match.keyPerm);
  Value value = transpose(rewriter, loc, match.value, match.valuePerm);
  Value mask = match.mask ? transpose(rewriter, loc, match.mask, match.maskPerm)
                          : Value();
  // GQA / MQA: K and V heads repeated for the query heads are read once,
  // through the op's head ratio.
  if (match.batchDims == 2) {
    Value unrepeatedKey = getUnrepeatedHeads(key);
    Value unrepeatedValue = getUnrepeatedHeads(value);
    auto headsOf = [](Value v) {
      return cast<RankedTensorType>(v.getType()).getDimSize(1);
    };
    // K and V must repeat the same (known) number of heads.
    if (unrepeatedKey && unrepeatedValue &&
        !ShapedType::isDynamic(headsOf(unrepeatedKey)) &&
        headsOf(unrepeatedKey) == headsOf(unrepeatedValue)) {
      key = unrepeatedKey;
      value = unrepeatedValue;
    }
  }
  // More than [batch, heads]: the leading batch dims become one.
  std::optional<SmallVector<OpFoldResult>> leadingSizes;
  if (match.batchDims > 2) {
    leadingSizes = tensor::getMixedSizes(rewriter, loc, query);
    leadingSizes->resize(match.batchDims - 1);
    query = collapseLeading(rewriter, loc, query, match.batchDims);
    key = collapseLeading(rewriter, loc, key, match.batchDims);
    value = collapseLeading(rewriter, loc, value, match.batchDims);
    if (mask)
      mask = collapseLeading(rewriter, loc, mask, match.batchDims);
  }
  bool unbatched = match.batchDims == 0;
  if (unbatched) {
    query = addUnitBatch(rewriter, loc, query);
    key = addUnitBatch(rewriter, loc, key);
    value = addUnitBatch(rewriter, loc, value);
    if (mask)
      mask = addUnitBatch(rewriter, loc, mask);
  }
  // The canonical result: the query's shape with the value's features.
  auto queryType = cast<RankedTensorType>(query.getType());
  SmallVector<int64_t> shape(queryType.getShape());
  shape.back() = cast<RankedTensorType>(value.getType()).getShape().back();
  auto resultType = RankedTensorType::get(
      shape, getElementTypeOrSelf(match.result.getType()));

  SmallVector<DimRole> dims = {DimRole::Batch};
  if (queryType.getRank() == 4)
    dims.push_back(DimRole::Heads);
  dims.append({DimRole::Tokens, DimRole::Features});
  Value result =
      AttentionOp::create(
          rewriter, loc, resultType, /*lse=*/Type(), query, key, value, mask,
          LayoutAttr::get(ctx, dims), recipe,
          rewriter.getF64FloatAttr(match.scale),
          match.causal ? rewriter.getUnitAttr() : UnitAttr(),
          match.causalTopLeft
              ? CausalAlignmentAttr::get(ctx, CausalAlignment::TopLeft)
              : CausalAlignmentAttr())
          .getResult();
  if (unbatched)
    result = tensor::CollapseShapeOp::create(rewriter, loc, result, kUnitBatch);
  if (leadingSizes) {
    SmallVector<OpFoldResult> sizes = *leadingSizes;
    SmallVector<OpFoldResult> rest =
        tensor::getMixedSizes(rewriter, loc, result);
    sizes.append(rest.begin() + 1, rest.end());
    SmallVector<int64_t> staticSizes;
    SmallVector<Value> dynamicSizes;
    dispatchIndexOpFoldResults(sizes, dynamicSizes, staticSizes);
    auto expandedType = RankedTensorType::get(
        staticSizes, getElementTypeOrSelf(result.getType()));
    result = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, result,
        getLeadingReassociation(match.batchDims), sizes);
  }
  result = transpose(rewriter, loc, result, match.resultPerm);
  Operation *replaced = match.result.getDefiningOp();
  rewriter.replaceAllUsesWith(match.result, result);
  // Ops of unregistered dialects are not known to be dead: erase the
  // replaced op and the root here. The rest of a matched chain is pure and
  // goes with them.
  if (replaced != root && replaced->use_empty())
    rewriter.eraseOp(replaced);
  if (root->use_empty())
    rewriter.eraseOp(root);
}

namespace {
/// Remembers which ops a rewrite erased.
struct ErasedOps : public RewriterBase::Listener {
  void notifyOperationErased(Operation *op) override { erased.insert(op); }
  llvm::DenseSet<Operation *> erased;
};
} // namespace

/// Raises the attention whose P*V is the stablehlo.dot_general `root`
/// (StableHlo.h): its linalg form is built, matched and raised, and the
/// StableHLO ops it replaces are erased; if it is not raised, the linalg
/// form goes and the IR is as it was. Returns why not, or nothing.
static std::optional<std::string>
raiseStableHloAttention(Operation *root, const RecipePolicy &policy,
                        ErasedOps &listener) {
  IRRewriter rewriter(root->getContext(), &listener);
  std::string why;
  FailureOr<StableHloSlice> slice =
      convertStableHloAttention(rewriter, root, why);
  if (failed(slice))
    return why;
  AttentionMatch match;
  RecipeAttr recipe;
  std::string reason;
  if (succeeded(matchDecomposedAttention(slice->root, match)))
    recipe = policy.select(root, match, reason);
  else
    reason = match.refusal + (why.empty() ? "" : " (" + why + ")");
  if (!recipe) {
    rewriter.replaceAllUsesWith(slice->converted, slice->original);
    for (Operation *op : llvm::reverse(slice->created))
      rewriter.eraseOp(op);
    return reason;
  }
  rewriter.setInsertionPoint(slice->root);
  replaceWithAttention(rewriter, slice->root, match, recipe);
  // What the attention no longer reads: the rest of the linalg form, then
  // the StableHLO ops (not known to be dead to MLIR: unregistered).
  for (Operation *op : llvm::reverse(slice->created))
    if (!listener.erased.contains(op) && op->use_empty())
      rewriter.eraseOp(op);
  llvm::SetVector<Operation *> callees;
  for (Operation *op : llvm::reverse(slice->replaced)) {
    if (listener.erased.contains(op) || !op->use_empty())
      continue;
    if (auto call = dyn_cast<func::CallOp>(op))
      if (auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
              call, call.getCalleeAttr()))
        callees.insert(callee);
    rewriter.eraseOp(op);
  }
  // Private functions only the replaced ops called (JAX's @_where, @tril).
  for (Operation *callee : callees) {
    if (listener.erased.contains(callee))
      continue;
    Operation *table = SymbolTable::getNearestSymbolTable(callee);
    if (table && SymbolTable::symbolKnownUseEmpty(callee, table))
      rewriter.eraseOp(callee);
  }
  return std::nullopt;
}

namespace {
/// Raises attention in any recognized form, rooted at `op`.
struct RaiseAttentionPattern : public RewritePattern {
  RaiseAttentionPattern(MLIRContext *ctx, RecipePolicy policy)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx),
        policy(std::move(policy)) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    AttentionMatch match;
    if (failed(matchAnyForm(op, match)))
      return rewriter.notifyMatchFailure(op, match.refusal);
    std::string reason;
    RecipeAttr recipe = policy.select(op, match, reason);
    if (!recipe)
      return rewriter.notifyMatchFailure(op, reason);
    replaceWithAttention(rewriter, op, match, recipe);
    return success();
  }

  RecipePolicy policy;
};

struct SageRaiseAttentionPass
    : public sage::impl::SageRaiseAttentionBase<SageRaiseAttentionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    std::optional<Variant> parsed = symbolizeVariant(variant);
    if (!parsed)
      return emitError(UnknownLoc::get(ctx))
             << "unknown variant '" << variant
             << "'; expected int8-fp8, int4-fp8, int8-fp8-f16acc, "
                "int4-fp8-f16acc, nvfp4, int8-fp16 or int8-fp16-f16acc";
    policy.defaultRecipe = RecipeAttr::get(ctx, *parsed);
    for (const std::string &text : rules) {
      auto [pattern, choice] = StringRef(text).rsplit('=');
      std::optional<Variant> ruleVariant = symbolizeVariant(choice);
      llvm::Expected<llvm::GlobPattern> glob =
          llvm::GlobPattern::create(pattern);
      if (pattern.empty() || (!ruleVariant && choice != "none") || !glob) {
        if (!glob)
          llvm::consumeError(glob.takeError());
        return emitError(UnknownLoc::get(ctx))
               << "policy rule '" << text
               << "' is not GLOB=VARIANT with a variant or 'none'";
      }
      policy.rules.push_back({text, std::move(*glob), ruleVariant});
    }
    return success();
  }

  void runOnOperation() override {
    // StableHLO first: its linalg form is built and raised (or removed)
    // one candidate at a time, outside the pattern driver.
    SmallVector<Operation *> stableHloRoots;
    getOperation()->walk([&](Operation *op) {
      if (isStableHloAttentionRoot(op))
        stableHloRoots.push_back(op);
    });
    // One record of erased ops for all: raising one attention can erase a
    // private function that holds another root.
    ErasedOps erased;
    for (Operation *root : stableHloRoots) {
      if (erased.erased.contains(root) || !isStableHloAttentionRoot(root))
        continue;
      std::optional<std::string> why =
          raiseStableHloAttention(root, policy, erased);
      if (why && explain)
        root->emitRemark("not raised to sage.attention: ") << *why;
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<RaiseAttentionPattern>(&getContext(), policy);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    if (explain)
      explainLeftovers();
  }

  /// Says, once per candidate, why attention that is still there was not
  /// raised.
  void explainLeftovers() {
    llvm::DenseSet<Operation *> explained;
    getOperation()->walk([&](Operation *op) {
      AttentionMatch match;
      if (failed(matchAnyForm(op, match))) {
        if (match.anchor) {
          op->emitRemark("not raised to sage.attention: ") << match.refusal;
          explained.insert(op);
        }
        return;
      }
      std::string reason;
      if (!policy.select(op, match, reason)) {
        op->emitRemark("not raised to sage.attention: ") << reason;
        explained.insert(op);
      }
    });
    // Attention no matcher recognized: said from the Q*K^T end.
    getOperation()->walk([&](Operation *op) {
      if (std::optional<std::string> reason =
              explainUnmatchedSoftmax(op, explained))
        op->emitRemark("not raised to sage.attention: ") << *reason;
    });
  }

  RecipePolicy policy;
};
} // namespace

void sage::populateRaiseAttentionPatterns(RewritePatternSet &patterns,
                                          RecipeAttr recipe) {
  patterns.add<RaiseAttentionPattern>(patterns.getContext(),
                                      RecipePolicy{recipe, {}});
}
