//===- AssignFragments.cpp - fragment encodings on the tile level ---------===//
//
// The first half of the distribute level (docs/Levels.md): every tile of
// the online-softmax chain gets the tensor encoding that says how the
// CTA's lanes hold it. The anchors are the warp MMAs `sage-select-mma`
// chose: a sage.qmma's result is its accumulator fragment, one row tile a
// warp. From there the encodings follow the values through the ops that
// keep the lanes' elements where they are (linalg.generic computed
// element by element, whose broadcast inputs stay CTA-wide,
// sage.mask_scores, sage.online_softmax, P's sage.quantize,
// sage.accumulate, the K/V loop's carried values); per-row values get the
// row fragment of the same rows. A tile no op ties to an anchor keeps its
// type, and so does a value whose producer is none of these ops: the
// encoded ops read it through a tensor.cast. Types change only once every
// encoding is known and consistent.
//
//===----------------------------------------------------------------------===//

#include "DistributableGenerics.h"
#include "LaneFragments.h"
#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::sage {
#define GEN_PASS_DEF_SAGEASSIGNFRAGMENTS
#include "sage/Transforms/Passes.h.inc"
} // namespace mlir::sage

using namespace mlir;
using namespace mlir::sage;

/// Whether `use` may see an encoded tile: the ops the assignment ties
/// (their encoded operands and results agree) and the inputs of any
/// linalg.generic, whose types nothing else pins.
static bool keepsEncoding(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto generic = dyn_cast<linalg::GenericOp>(user))
    return generic.isDpsInput(&use) || isDistributableGeneric(generic);
  if (isa<scf::YieldOp>(user))
    return isa<scf::ForOp>(user->getParentOp());
  // A qmma takes its accumulator, and P as A, from the lanes; B and the
  // scales are read from CTA-wide tiles.
  if (auto qmma = dyn_cast<QMmaOp>(user))
    return &use == &qmma.getAccMutable() || &use == &qmma.getAMutable();
  return isa<linalg::FillOp, MaskScoresOp, OnlineSoftmaxOp, QuantizeOp,
             AccumulateOp, scf::ForOp>(user);
}

/// Whether `use` is tied to the encoding of the value it reads (the
/// operands the assignment gives its value's encoding).
static bool wantsEncoding(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto generic = dyn_cast<linalg::GenericOp>(user))
    return isDistributableGeneric(generic) && isReadInPlace(generic, use);
  if (auto qmma = dyn_cast<QMmaOp>(user))
    return &use == &qmma.getAccMutable();
  return keepsEncoding(use);
}

/// Whether `value`'s type may change to an encoded one: a result of the ops
/// the assignment ties, or a value the K/V loop carries. Others (function
/// arguments, operand windows) keep their types.
static bool canCarryEncoding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa_and_nonnull<scf::ForOp>(arg.getOwner()->getParentOp());
  Operation *def = value.getDefiningOp();
  if (auto generic = dyn_cast<linalg::GenericOp>(def))
    return isDistributableGeneric(generic);
  return isa<linalg::FillOp, tensor::EmptyOp, QMmaOp, MaskScoresOp,
             OnlineSoftmaxOp, QuantizeOp, AccumulateOp, scf::ForOp,
             tensor::ExtractSliceOp>(def);
}

namespace {
/// Propagates encodings over the values of one function.
class FragmentAssignment {
public:
  /// Gives `value` `encoding`, as `user` requires, or fails with a
  /// diagnostic on `user` if the value has another one already.
  LogicalResult assign(Value value, Attribute encoding, Operation *user) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    auto [it, inserted] = encodings.try_emplace(value, encoding);
    if (inserted) {
      worklist.push_back(value);
      return success();
    }
    if (it->second == encoding)
      return success();
    return user->emitOpError()
           << "cannot distribute a tile held two ways: " << it->second
           << " and " << encoding;
  }

  /// Spreads the encodings from the anchors until nothing changes.
  LogicalResult propagate() {
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (Operation *def = value.getDefiningOp())
        if (failed(visit(def)))
          return failure();
      if (auto arg = dyn_cast<BlockArgument>(value))
        if (failed(visit(arg.getOwner()->getParentOp())))
          return failure();
      for (Operation *user : value.getUsers())
        if (failed(visit(user)))
          return failure();
    }
    return success();
  }

  /// The online softmax holds its rows where the scores' MMA holds them, so
  /// row values that are distributed (they rescale a distributed output)
  /// need distributed scores: fails, naming the op the scores come from,
  /// where the chain from the sage.qmma breaks before the softmax.
  LogicalResult checkSoftmax(OnlineSoftmaxOp op) const {
    Value rows[] = {op.getMax(), op.getSum(), op.getNewMax(), op.getNewSum(),
                    op.getRescale()};
    if (encodingOf(op.getScores()) ||
        llvm::none_of(rows, [&](Value row) { return encodingOf(row); }))
      return success();
    InFlightDiagnostic diag = op.emitOpError()
                              << "cannot be distributed: its scores are not "
                                 "held as MMA accumulators";
    if (Operation *def = findChainBreak(op.getScores()))
      diag << "; they come through '" << def->getName()
           << "', which the distribute level does not take yet";
    return diag;
  }

  /// The first op up the chain of `scores` that keeps no element in place.
  static Operation *findChainBreak(Value scores) {
    Operation *def = scores.getDefiningOp();
    while (def) {
      if (auto mask = dyn_cast<MaskScoresOp>(def)) {
        def = mask.getScores().getDefiningOp();
        continue;
      }
      auto generic = dyn_cast<linalg::GenericOp>(def);
      if (!generic || !isDistributableGeneric(generic) ||
          generic.getNumDpsInputs() == 0)
        break;
      def = generic.getDpsInputs()[0].getDefiningOp();
    }
    return def;
  }

  /// Writes the encodings into the values' types. Uses by ops that pin
  /// their operands' types (a return, a slice) read the value through a
  /// tensor.cast that drops the encoding. A value whose producer keeps its
  /// type (an operand window, a function argument) stays as it is: the
  /// ops that take it encoded read it through a tensor.cast that adds the
  /// encoding, where sage-distribute-tiles gives each lane its elements.
  void apply() {
    for (auto [value, encoding] : encodings) {
      auto type = cast<RankedTensorType>(value.getType());
      auto encoded = RankedTensorType::get(type.getShape(),
                                           type.getElementType(), encoding);
      OpBuilder builder(value.getContext());
      builder.setInsertionPointAfterValue(value);
      if (!canCarryEncoding(value)) {
        Value cast =
            tensor::CastOp::create(builder, value.getLoc(), encoded, value);
        value.replaceUsesWithIf(cast, [&](OpOperand &use) {
          return use.getOwner() != cast.getDefiningOp() && wantsEncoding(use);
        });
        continue;
      }
      SmallVector<OpOperand *> pinned, whole;
      for (OpOperand &use : value.getUses()) {
        if (isPartialSums(encoding) && !continuesSums(use))
          whole.push_back(&use);
        else if (!keepsEncoding(use) && !isEncodedSlice(use.getOwner()))
          pinned.push_back(&use);
      }
      value.setType(encoded);
      if (!whole.empty()) {
        // The row sums the lanes hold in parts, reduced over the quad.
        auto rows = cast<RowFragmentAttr>(encoding);
        auto wholeType =
            RankedTensorType::get(type.getShape(), type.getElementType(),
                                  rows.withPartialSums(false));
        Value sums =
            tensor::CastOp::create(builder, value.getLoc(), wholeType, value);
        Value plain;
        for (OpOperand *use : whole) {
          if (keepsEncoding(*use)) {
            use->set(sums);
            continue;
          }
          if (!plain)
            plain = tensor::CastOp::create(builder, value.getLoc(), type, sums);
          use->set(plain);
        }
      }
      if (pinned.empty())
        continue;
      Value plain =
          tensor::CastOp::create(builder, value.getLoc(), type, value);
      for (OpOperand *use : pinned)
        use->set(plain);
    }
  }

  /// Whether `op` is a slice of columns the assignment gave its source's
  /// encoding (which reads the source as the lanes hold it).
  bool isEncodedSlice(Operation *op) const {
    return isa<tensor::ExtractSliceOp>(op) && encodings.count(op->getResult(0));
  }

  static bool isPartialSums(Attribute encoding) {
    auto rows = dyn_cast_or_null<RowFragmentAttr>(encoding);
    return rows && rows.getPartialSums();
  }

  /// Whether `use` takes partial row sums as they are: the online softmax's
  /// running sum, and the K/V loop that carries it.
  static bool continuesSums(OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto softmax = dyn_cast<OnlineSoftmaxOp>(user))
      return &use == &softmax.getSumMutable();
    return isa<linalg::FillOp, scf::ForOp>(user) ||
           (isa<scf::YieldOp>(user) && isa<scf::ForOp>(user->getParentOp()));
  }

private:
  Attribute encodingOf(Value value) const { return encodings.lookup(value); }

  /// The row fragment of the rows an accumulator fragment holds, of the
  /// lanes' partial row sums with `partialSums`.
  static Attribute getRows(Attribute accumulator, bool partialSums = false) {
    auto acc = dyn_cast_or_null<AccFragmentAttr>(accumulator);
    if (!acc)
      return {};
    return RowFragmentAttr::get(acc.getContext(), acc.getMma().getM(),
                                acc.getWarps(), partialSums);
  }

  /// Gives all of `values` the encoding one of them has, as `user`
  /// requires. With `readsWholeSums`, `user` reads partial row sums among
  /// its operands as the rows' sums (apply() reduces them over the quad
  /// first), which is the encoding they are tied by.
  LogicalResult tie(Operation *user, ValueRange values,
                    bool readsWholeSums = false) {
    auto readsSums = [&](Value value) {
      return readsWholeSums && value.getDefiningOp() != user &&
             isPartialSums(encodingOf(value));
    };
    auto seenByUser = [&](Value value) -> Attribute {
      if (readsSums(value))
        return cast<RowFragmentAttr>(encodingOf(value)).withPartialSums(false);
      return encodingOf(value);
    };
    Attribute known;
    for (Value value : values)
      if ((known = seenByUser(value)))
        break;
    if (!known)
      return success();
    for (Value value : values) {
      if (!readsSums(value)) {
        if (failed(assign(value, known, user)))
          return failure();
      } else if (seenByUser(value) != known) {
        return user->emitOpError() << "cannot distribute a tile held two ways: "
                                   << seenByUser(value) << " and " << known;
      }
    }
    return success();
  }

  LogicalResult visit(Operation *op) {
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      if (!isDistributableGeneric(generic))
        return success();
      // Broadcast inputs are read where each lane needs them.
      SmallVector<Value> values;
      for (OpOperand &operand : generic->getOpOperands())
        if (isReadInPlace(generic, operand))
          values.push_back(operand.get());
      llvm::append_range(values, generic->getResults());
      return tie(op, values, /*readsWholeSums=*/true);
    }
    if (auto fill = dyn_cast<linalg::FillOp>(op))
      return tie(op, {fill.getOutputs()[0], fill.getResult(0)});
    if (auto qmma = dyn_cast<QMmaOp>(op))
      return tie(op, {qmma.getAcc(), qmma.getResult()});
    if (auto mask = dyn_cast<MaskScoresOp>(op))
      return tie(op, {mask.getScores(), mask.getResult()});
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
      // Whole MMA tiles of columns of a tile the lanes hold (P's keys of
      // one f16 flush): its lanes hold them as they hold the tile.
      auto acc =
          dyn_cast_or_null<AccFragmentAttr>(encodingOf(slice.getSource()));
      if (!acc || !isWholeColumnTiles(slice, acc.getMma().getN()))
        return success();
      return tie(op, {slice.getSource(), slice.getResult()});
    }
    if (auto softmax = dyn_cast<OnlineSoftmaxOp>(op)) {
      if (failed(tie(op, {softmax.getScores(), softmax.getProbs()})))
        return failure();
      Attribute rows = getRows(encodingOf(softmax.getScores()));
      if (!rows)
        return success();
      for (Value value :
           {softmax.getMax(), softmax.getNewMax(), softmax.getRescale()})
        if (failed(assign(value, rows, op)))
          return failure();
      // Each lane sums its own columns: the row sum l is held in parts
      // through the loop.
      Attribute sums =
          getRows(encodingOf(softmax.getScores()), /*partialSums=*/true);
      for (Value value : {softmax.getSum(), softmax.getNewSum()})
        if (failed(assign(value, sums, op)))
          return failure();
      return success();
    }
    if (auto quantize = dyn_cast<QuantizeOp>(op)) {
      // P's quantization: a static scale, one for the tile, element-wise.
      if (!quantize.getBound() ||
          quantize.getQuant().getGranularity() != Granularity::PerTensor)
        return success();
      if (failed(tie(op, {quantize.getInput(), quantize.getValues()})))
        return failure();
      if (!encodingOf(quantize.getInput()))
        return success();
      return assign(quantize.getScales(), ReplicatedAttr::get(op->getContext()),
                    op);
    }
    if (auto accumulate = dyn_cast<AccumulateOp>(op)) {
      if (failed(tie(op, {accumulate.getPartial(), accumulate.getBuffer(),
                          accumulate.getResult()})))
        return failure();
      Attribute rows = getRows(encodingOf(accumulate.getBuffer()));
      return rows ? assign(accumulate.getRescale(), rows, op) : success();
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
        if (failed(tie(op, {loop.getInitArgs()[i], arg, loop.getResult(i),
                            yield.getOperand(i)})))
          return failure();
      return success();
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op))
      if (isa<scf::ForOp>(op->getParentOp()))
        return visit(op->getParentOp());
    return success();
  }

  // Insertion-ordered, so that the casts apply() adds come in one order.
  llvm::MapVector<Value, Attribute> encodings;
  SmallVector<Value> worklist;
};

/// Gives each use of a fill, then of a tensor.empty, its own copy: after
/// CSE one zero tile may start both Q K^T's accumulator and the output
/// buffer, which the lanes hold in different ways.
template <typename OpTy> static void splitSharedUses(Operation *root) {
  SmallVector<OpTy> shared;
  root->walk([&](OpTy op) {
    if (op->getNumResults() == 1 && !op->hasOneUse() && !op->use_empty())
      shared.push_back(op);
  });
  for (OpTy op : shared) {
    OpBuilder builder(op);
    for (OpOperand &use : llvm::make_early_inc_range(
             llvm::drop_begin(op->getResult(0).getUses())))
      use.set(builder.clone(*op)->getResult(0));
  }
}

struct AssignFragmentsPass
    : public sage::impl::SageAssignFragmentsBase<AssignFragmentsPass> {
  void runOnOperation() override {
    splitSharedUses<linalg::FillOp>(getOperation());
    splitSharedUses<tensor::EmptyOp>(getOperation());
    FragmentAssignment assignment;
    WalkResult walk = getOperation()->walk([&](QMmaOp op) {
      MmaAttr mma = op.getMmaAttr();
      if (!mma) {
        op.emitOpError() << "has no instruction yet: run sage-select-mma "
                            "before sage-assign-fragments";
        return WalkResult::interrupt();
      }
      if (mma.getScope() == MmaScope::Tcgen05) {
        op.emitOpError() << "cannot be distributed yet: its accumulator "
                            "lives in tensor memory (scope tcgen05), not "
                            "in the lanes";
        return WalkResult::interrupt();
      }
      RankedTensorType tile = op.getResult().getType();
      if (tile.getRank() != 2) {
        op.emitOpError() << "cannot be distributed: expected a [rows, "
                            "columns] tile, got rank "
                         << tile.getRank();
        return WalkResult::interrupt();
      }
      // The verifier makes the rows a whole number of the MMA's; a wgmma's
      // warps each hold 16 of its rows as a warp MMA's accumulators.
      int64_t rows = tile.getDimSize(0);
      MmaAttr fragment = getWarpFragmentMma(mma);
      // A CTA holds a bounded number of warps: a Q block of a million
      // rows is a valid tile but no CTA's accumulator.
      auto encoding = AccFragmentAttr::getChecked(
          [&] {
            return op.emitOpError()
                   << "cannot be distributed: its " << rows << " rows need "
                   << rows / fragment.getM() << " warps of " << fragment.getM()
                   << " rows: ";
          },
          op.getContext(), fragment, rows / fragment.getM());
      if (!encoding)
        return WalkResult::interrupt();
      if (failed(assignment.assign(op.getResult(), encoding, op)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted() || failed(assignment.propagate()))
      return signalPassFailure();
    walk = getOperation()->walk([&](OnlineSoftmaxOp op) {
      return failed(assignment.checkSoftmax(op)) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    assignment.apply();
  }
};
} // namespace
