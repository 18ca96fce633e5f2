//===- StableHlo.cpp - attention in StableHLO ops, seen as linalg ---------===//
//
// The ops attention uses, rebuilt as linalg on tensors with their
// StableHLO semantics:
//
//   dot_general          linalg.generic contraction (mul, add; extf of the
//                        operands to the result type), zero init
//   reduce (max / add)   linalg.reduce from a linalg.fill of the init
//   broadcast_in_dim     a splat, nothing (unit dims only) or a broadcasting
//                        linalg.generic copy, which elementwise consumers
//                        read through their indexing map instead
//   reshape, transpose   tensor.expand_shape / collapse_shape,
//                        linalg.transpose
//   elementwise ops      linalg.generic with the arith / math body; a
//                        compare of iotas becomes one generic over
//                        linalg.index (a causal mask, as Masks.cpp reads)
//   func.call            followed into the private callee (JAX's @_where)
//
// Every value is built without its unit dims ("squeezed"): JAX's vmap adds
// a unit dim and moves it around with transposes, which would otherwise
// hide that the softmax's max and its subtraction read the same scores.
// Values the slice reads as they are get their unit dims collapsed, and
// the slice's result gets them back. Identities JAX emits are folded:
// max(x, -inf), x & true, x + 0 and select(c, true, false). P, the
// operand of the root product that comes from the exponential, is read in
// full (the softmax, a bias, a mask); Q, K and V only through layout ops
// and scales by constants, and values further up as they are.
//
//===----------------------------------------------------------------------===//

#include "StableHlo.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <functional>
#include <limits>
#include <variant>

using namespace mlir;
using namespace mlir::sage;

std::optional<SmallVector<int64_t>> sage::parseDimensionList(StringRef text,
                                                             StringRef name) {
  size_t at = 0;
  // The name must stand alone: "lhs_batching_dimensions" is not found in
  // "xlhs_batching_dimensions".
  while ((at = text.find(name, at)) != StringRef::npos) {
    if (at == 0 || !(llvm::isAlnum(text[at - 1]) || text[at - 1] == '_'))
      break;
    at += name.size();
  }
  if (at == StringRef::npos)
    return std::nullopt;
  StringRef rest = text.drop_front(at + name.size()).ltrim();
  if (!rest.consume_front("="))
    return std::nullopt;
  rest = rest.ltrim();
  if (!rest.consume_front("["))
    return std::nullopt;
  StringRef list = rest.take_until([](char c) { return c == ']'; });
  if (list.size() == rest.size())
    return std::nullopt;
  SmallVector<int64_t> dims;
  SmallVector<StringRef> items;
  list.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    int64_t dim = 0;
    if (item.trim().getAsInteger(10, dim) || dim < 0)
      return std::nullopt;
    dims.push_back(dim);
  }
  return dims;
}

/// The text of an opaque StableHLO attribute, as sage-opt's placeholder
/// dialect keeps it; empty for anything else.
static StringRef getOpaqueText(Operation *op, StringRef name) {
  auto attr = dyn_cast_or_null<OpaqueAttr>(op->getAttr(name));
  return attr ? attr.getAttrData() : StringRef();
}

static bool isStableHlo(Operation *op, StringRef name) {
  return op && op->getName().getStringRef() == ("stablehlo." + name).str();
}

/// The private callee of a call with one block and one result.
static func::FuncOp getInlinableCallee(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee.isPrivate() || !callee.getBody().hasOneBlock() ||
      call->getNumResults() != 1)
    return {};
  Block &body = callee.getBody().front();
  auto ret =
      body.empty() ? func::ReturnOp() : dyn_cast<func::ReturnOp>(body.back());
  if (body.getNumArguments() != call.getNumOperands() || !ret ||
      ret.getNumOperands() != 1)
    return {};
  return callee;
}

/// Whether `value` comes from a stablehlo.exponential within `depth` ops
/// (through calls too) without passing another product: the P of a P*V.
/// `seen` keeps the deepest budget each value was searched with.
static bool reachesExponential(Value value, int depth,
                               DenseMap<Value, int> &seen) {
  Operation *def = value.getDefiningOp();
  if (!def || depth == 0)
    return false;
  auto [it, inserted] = seen.try_emplace(value, depth);
  if (!inserted && it->second >= depth)
    return false;
  it->second = depth;
  if (isStableHlo(def, "exponential"))
    return true;
  if (auto call = dyn_cast<func::CallOp>(def))
    if (func::FuncOp callee = getInlinableCallee(call))
      return reachesExponential(callee.getBody().front().back().getOperand(0),
                                depth - 1, seen);
  if (!def->getName().getStringRef().starts_with("stablehlo.") ||
      isStableHlo(def, "dot_general"))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return reachesExponential(operand, depth - 1, seen);
  });
}

static bool reachesExponential(Value value) {
  DenseMap<Value, int> seen;
  return reachesExponential(value, /*depth=*/12, seen);
}

bool sage::isStableHloAttentionRoot(Operation *op) {
  return isStableHlo(op, "dot_general") && op->getNumOperands() == 2 &&
         op->getNumResults() == 1 &&
         llvm::any_of(op->getOperands(),
                      [](Value v) { return reachesExponential(v); });
}

/// A constant tensor in StableHLO ops: a constant, or a broadcast of one.
static bool isStableHloConstant(Value value) {
  Operation *def = value.getDefiningOp();
  while (isStableHlo(def, "broadcast_in_dim") && def->getNumOperands() == 1)
    def = def->getOperand(0).getDefiningOp();
  return isStableHlo(def, "constant");
}

namespace {
/// What the converter may read above a value: everything, or (above a
/// contraction's operands) only layout ops and constant scales.
enum class Mode { Full, Layout };

/// Values already converted, per function body: a callee is read once per
/// call, its arguments mapped to the caller's converted operands.
struct Scope {
  DenseMap<Value, Value> values;
  /// Values read as they are (the slice stops there), without unit dims.
  DenseMap<Value, Value> leaves;
  /// Values of a callee that could not be converted (read once).
  DenseSet<Value> failed;
  bool inCallee = false;
};

class Converter {
public:
  Converter(RewriterBase &rewriter, std::string &why)
      : rewriter(rewriter), why(why) {}

  /// The linalg counterpart of `value`, or `value` itself where the slice
  /// stops; failure where a value inside a callee cannot be converted.
  FailureOr<Value> convert(Value value, Mode mode, Scope &scope);

  SmallVector<Operation *> created, replaced;

private:
  FailureOr<Value> convertOp(Operation *op, Mode mode, Scope &scope);
  FailureOr<Value> convertDotGeneral(Operation *op, Scope &scope);
  FailureOr<Value> convertReduce(Operation *op, Scope &scope);
  FailureOr<Value> convertBroadcast(Operation *op, Value input);
  FailureOr<Value> convertElementwise(Operation *op, ArrayRef<Value> inputs);

  /// An elementwise linalg.generic of `type` over `inputs`; broadcasts
  /// recorded in `broadcastSources` are read through their map, generics
  /// built from positions alone are cloned into the body.
  Value
  buildElementwise(Location loc, RankedTensorType type, ArrayRef<Value> inputs,
                   function_ref<Value(OpBuilder &, Location, ValueRange)> body,
                   bool inlinePositions = false);
  Value emptyLike(Location loc, RankedTensorType type);
  template <typename OpTy, typename... Args>
  OpTy create(Location loc, Args &&...args) {
    auto op = OpTy::create(rewriter, loc, std::forward<Args>(args)...);
    created.push_back(op);
    return op;
  }
  /// Says why an op is not read: "'stablehlo.X' ...". The first reason
  /// is kept: what follows from it says less.
  LogicalResult refuse(const Twine &reason) {
    if (why.empty())
      why = reason.str();
    return failure();
  }

  RewriterBase &rewriter;
  std::string &why;
  /// Broadcasting copies built for broadcast_in_dim: their source and the
  /// map from result dims to source dims.
  DenseMap<Value, std::pair<Value, AffineMap>> broadcastSources;
  /// Generics built from positions alone (iota, compares of iotas).
  DenseSet<Value> positional;
  /// Callees being followed: a call back into one is not read.
  DenseSet<Operation *> activeCallees;

public:
  /// The root P*V product, once `convertRoot` reads it.
  Operation *root = nullptr;
};
} // namespace

static Value castScalar(OpBuilder &b, Location loc, Value value, Type from,
                        Type to);

/// A splat constant's value (floats, integers, booleans as 0 / 1).
static std::optional<double> getSplat(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  auto splat = constant ? dyn_cast<SplatElementsAttr>(constant.getValue())
                        : SplatElementsAttr();
  if (!splat)
    return std::nullopt;
  Type element = splat.getElementType();
  if (isa<FloatType>(element))
    return splat.getSplatValue<APFloat>().convertToDouble();
  if (element.isInteger(1))
    return splat.getSplatValue<bool>() ? 1.0 : 0.0;
  if (isa<IntegerType>(element))
    return double(splat.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

/// The dims of `type` that are not 1 (dynamic ones included).
static SmallVector<int64_t> getKeptDims(RankedTensorType type) {
  SmallVector<int64_t> kept;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.getDimSize(dim) != 1)
      kept.push_back(dim);
  return kept;
}

/// `type` without its unit dims.
static RankedTensorType getSqueezedType(RankedTensorType type) {
  SmallVector<int64_t> shape;
  for (int64_t dim : getKeptDims(type))
    shape.push_back(type.getDimSize(dim));
  return RankedTensorType::get(shape, type.getElementType());
}

/// Where dim `dim` of `type` is once the unit dims are gone, if it stays.
static std::optional<int64_t> getSqueezedDim(RankedTensorType type,
                                             int64_t dim) {
  if (type.getDimSize(dim) == 1)
    return std::nullopt;
  return int64_t(llvm::count_if(llvm::seq<int64_t>(0, dim), [&](int64_t d) {
    return type.getDimSize(d) != 1;
  }));
}

/// `value` reshaped from `from` to `to` (one has the other's dims plus
/// unit dims, or they are reshapes of each other), or failure.
static FailureOr<Value> reshapeTo(RewriterBase &rewriter, Location loc,
                                  Value value, RankedTensorType to,
                                  SmallVectorImpl<Operation *> &created) {
  auto from = dyn_cast<RankedTensorType>(value.getType());
  if (!from)
    return failure();
  if (from.getShape() == to.getShape())
    return value;
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForReshape(from, to);
  if (!groups || from.getRank() == to.getRank())
    return failure();
  Operation *op =
      from.getRank() > to.getRank()
          ? tensor::CollapseShapeOp::create(
                rewriter, loc,
                RankedTensorType::get(to.getShape(), from.getElementType()),
                value, *groups)
                .getOperation()
          : tensor::ExpandShapeOp::create(
                rewriter, loc,
                RankedTensorType::get(to.getShape(), from.getElementType()),
                value, *groups)
                .getOperation();
  created.push_back(op);
  return op->getResult(0);
}

Value Converter::emptyLike(Location loc, RankedTensorType type) {
  return create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType());
}

Value Converter::buildElementwise(
    Location loc, RankedTensorType type, ArrayRef<Value> inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    bool inlinePositions) {
  MLIRContext *ctx = rewriter.getContext();
  unsigned rank = type.getRank();
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  // Per input: its block argument, or the generic whose body is cloned.
  SmallVector<std::variant<unsigned, linalg::GenericOp>> sources;
  for (Value input : inputs) {
    if (inlinePositions && this->positional.contains(input)) {
      sources.push_back(input.getDefiningOp<linalg::GenericOp>());
      continue;
    }
    AffineMap map = AffineMap::getMultiDimIdentityMap(rank, ctx);
    auto it = broadcastSources.find(input);
    if (it != broadcastSources.end())
      std::tie(input, map) = it->second;
    sources.push_back(unsigned(operands.size()));
    operands.push_back(input);
    maps.push_back(map);
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = create<linalg::GenericOp>(
      loc, type, operands, ValueRange{emptyLike(loc, type)}, maps, iterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        SmallVector<Value> scalars;
        for (auto &source : sources) {
          if (auto *index = std::get_if<unsigned>(&source)) {
            scalars.push_back(args[*index]);
            continue;
          }
          // Clone the positional generic's body (linalg.index and arith).
          IRMapping mapping;
          Block &cloned =
              std::get<linalg::GenericOp>(source).getRegion().front();
          for (Operation &inner : cloned.without_terminator())
            b.clone(inner, mapping);
          scalars.push_back(
              mapping.lookupOrDefault(cloned.getTerminator()->getOperand(0)));
        }
        linalg::YieldOp::create(b, bodyLoc, body(b, bodyLoc, scalars));
      });
  return generic->getResult(0);
}

FailureOr<Value> Converter::convertDotGeneral(Operation *op, Scope &scope) {
  StringRef text = getOpaqueText(op, "dot_dimension_numbers");
  if (!text.starts_with("dot<"))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has no #stablehlo.dot dimension numbers to read");
  // An absent list is empty (StableHLO prints only the non-empty ones).
  auto dims = [&](StringRef name) {
    return parseDimensionList(text, name).value_or(SmallVector<int64_t>());
  };
  SmallVector<int64_t> batch[2] = {dims("lhs_batching_dimensions"),
                                   dims("rhs_batching_dimensions")};
  SmallVector<int64_t> contract[2] = {dims("lhs_contracting_dimensions"),
                                      dims("rhs_contracting_dimensions")};
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  RankedTensorType types[2];
  if (op->getNumOperands() == 2)
    for (int side = 0; side < 2; ++side)
      types[side] = dyn_cast<RankedTensorType>(op->getOperand(side).getType());
  // Dims in range, each used once per side, paired dims of equal size.
  auto validDims = [&]() {
    for (int side = 0; side < 2; ++side) {
      SmallVector<int64_t> used(batch[side]);
      used.append(contract[side]);
      if (llvm::any_of(used,
                       [&](int64_t d) { return d >= types[side].getRank(); }))
        return false;
      llvm::sort(used);
      if (llvm::adjacent_find(used) != used.end())
        return false;
    }
    for (auto *pairs : {batch, contract})
      for (size_t i = 0; i < pairs[0].size(); ++i)
        if (types[0].getDimSize(pairs[0][i]) !=
            types[1].getDimSize(pairs[1][i]))
          return false;
    return true;
  };
  if (!resultType || !types[0] || !types[1] ||
      !isa<FloatType>(resultType.getElementType()) ||
      !isa<FloatType>(types[0].getElementType()) ||
      !isa<FloatType>(types[1].getElementType()) ||
      batch[0].size() != batch[1].size() ||
      contract[0].size() != contract[1].size() || !validDims())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a float product of ranked tensors over a dim "
                  "longer than 1");
  // Unit dims are gone from the operands: so are batch and contracted
  // pairs of size 1, and unit free dims.
  for (SmallVector<int64_t> *pairs : {batch, contract}) {
    SmallVector<int64_t> kept[2];
    for (size_t i = 0; i < pairs[0].size(); ++i)
      if (types[0].getDimSize(pairs[0][i]) != 1)
        for (int side = 0; side < 2; ++side)
          kept[side].push_back(pairs[side][i]);
    pairs[0] = kept[0];
    pairs[1] = kept[1];
  }
  SmallVector<int64_t> free[2];
  for (int side = 0; side < 2; ++side)
    for (int64_t dim : getKeptDims(types[side]))
      if (!llvm::is_contained(batch[side], dim) &&
          !llvm::is_contained(contract[side], dim))
        free[side].push_back(dim);
  if (contract[0].empty())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a float product of ranked tensors over a dim "
                  "longer than 1");

  // Loops in the result's order: batch, lhs free, rhs free; then the
  // contracted dims.
  MLIRContext *ctx = rewriter.getContext();
  int64_t numBatch = batch[0].size(),
          numResult = numBatch + free[0].size() + free[1].size();
  int64_t numLoops = numResult + contract[0].size();
  AffineMap sideMaps[2];
  Value operands[2];
  for (int side = 0; side < 2; ++side) {
    Value original = op->getOperand(side);
    // The root's P is read in full (the softmax); Q, K and V only through
    // layout ops and scales.
    Mode mode =
        op == root && reachesExponential(original) ? Mode::Full : Mode::Layout;
    FailureOr<Value> converted = convert(original, mode, scope);
    if (failed(converted))
      return failure();
    operands[side] = *converted;
    SmallVector<AffineExpr> exprs;
    for (int64_t dim : getKeptDims(types[side])) {
      int64_t loop;
      if (auto *it = llvm::find(batch[side], dim); it != batch[side].end())
        loop = it - batch[side].begin();
      else if (auto *it = llvm::find(contract[side], dim);
               it != contract[side].end())
        loop = numResult + (it - contract[side].begin());
      else
        loop = numBatch + (side ? free[0].size() : 0) +
               (llvm::find(free[side], dim) - free[side].begin());
      exprs.push_back(getAffineDimExpr(loop, ctx));
    }
    sideMaps[side] = AffineMap::get(numLoops, 0, exprs, ctx);
  }
  RankedTensorType productType = getSqueezedType(resultType);
  SmallVector<int64_t> productShape;
  for (int64_t dim : batch[0])
    productShape.push_back(types[0].getDimSize(dim));
  for (int side = 0; side < 2; ++side)
    for (int64_t dim : free[side])
      productShape.push_back(types[side].getDimSize(dim));
  if (ArrayRef<int64_t>(productShape) != productType.getShape())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a float product of ranked tensors over a dim "
                  "longer than 1");
  Type element = resultType.getElementType();
  Location loc = op->getLoc();
  Value zero =
      create<arith::ConstantOp>(loc, rewriter.getFloatAttr(element, 0));
  Value init = create<linalg::FillOp>(loc, zero, emptyLike(loc, productType))
                   ->getResult(0);
  SmallVector<utils::IteratorType> iterators(numLoops,
                                             utils::IteratorType::parallel);
  for (int64_t loop = numResult; loop < numLoops; ++loop)
    iterators[loop] = utils::IteratorType::reduction;
  // P first: the matchers read P*V with P on the left.
  int first = reachesExponential(op->getOperand(1)) ? 1 : 0;
  Value inputs[2] = {operands[first], operands[1 - first]};
  AffineMap maps[3] = {sideMaps[first], sideMaps[1 - first],
                       AffineMap::getMultiDimIdentityMap(numResult, ctx)};
  maps[2] = AffineMap::get(numLoops, 0, maps[2].getResults(), ctx);
  auto product = create<linalg::GenericOp>(
      loc, productType, ValueRange(inputs), ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        auto widen = [&](Value v) {
          return castScalar(b, bodyLoc, v, v.getType(), element);
        };
        Value mul =
            arith::MulFOp::create(b, bodyLoc, widen(args[0]), widen(args[1]));
        linalg::YieldOp::create(
            b, bodyLoc,
            arith::AddFOp::create(b, bodyLoc, args[2], mul).getResult());
      });
  return product->getResult(0);
}

FailureOr<Value> Converter::convertReduce(Operation *op, Scope &scope) {
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>("dimensions");
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (op->getNumOperands() != 2 || op->getNumResults() != 1 || !dims ||
      !resultType || op->getNumRegions() != 1 ||
      !op->getRegion(0).hasOneBlock())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a reduction of one tensor over `dimensions`");
  // The body: maximum or add of its two arguments, returned.
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != 2 || body.getOperations().size() != 2 ||
      !isStableHlo(&body.back(), "return"))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has a body other than one maximum or add");
  Operation &combine = body.front();
  bool isMax = isStableHlo(&combine, "maximum");
  if ((!isMax && !isStableHlo(&combine, "add")) ||
      combine.getNumOperands() != 2 ||
      !llvm::is_contained(combine.getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(combine.getOperands(), body.getArgument(1)) ||
      combine.getNumResults() != 1 || body.back().getNumOperands() != 1 ||
      body.back().getOperand(0) != combine.getResult(0))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has a body other than one maximum or add");
  FailureOr<Value> input = convert(op->getOperand(0), Mode::Full, scope);
  FailureOr<Value> init = convert(op->getOperand(1), Mode::Full, scope);
  if (failed(input) || failed(init))
    return failure();
  std::optional<double> start = getSplat(*init);
  Type element = resultType.getElementType();
  if (!start || !isa<FloatType>(element))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "does not start from a float constant");
  // Reducing unit dims only is the identity for an identity init.
  auto inputType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  SmallVector<int64_t> sortedDims(dims.asArrayRef());
  llvm::sort(sortedDims);
  if (!inputType || llvm::adjacent_find(sortedDims) != sortedDims.end() ||
      llvm::any_of(sortedDims, [&](int64_t dim) {
        return dim < 0 || dim >= inputType.getRank();
      }))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a reduction of one tensor over `dimensions`");
  SmallVector<int64_t> reduced, rest;
  for (int64_t dim : sortedDims)
    if (std::optional<int64_t> squeezed = getSqueezedDim(inputType, dim))
      reduced.push_back(*squeezed);
  for (auto [i, size] : llvm::enumerate(getSqueezedType(inputType).getShape()))
    if (!llvm::is_contained(reduced, int64_t(i)))
      rest.push_back(size);
  if (ArrayRef<int64_t>(rest) != getSqueezedType(resultType).getShape())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a reduction of one tensor over `dimensions`");
  if (reduced.empty() &&
      *start == (isMax ? -std::numeric_limits<double>::infinity() : 0.0))
    return *input;
  Location loc = op->getLoc();
  Value scalar =
      create<arith::ConstantOp>(loc, rewriter.getFloatAttr(element, *start));
  Value filled = create<linalg::FillOp>(
                     loc, scalar, emptyLike(loc, getSqueezedType(resultType)))
                     ->getResult(0);
  auto reduce = create<linalg::ReduceOp>(
      loc, ValueRange{*input}, ValueRange{filled}, reduced,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value combined =
            isMax ? arith::MaximumFOp::create(b, bodyLoc, args[0], args[1])
                        .getResult()
                  : arith::AddFOp::create(b, bodyLoc, args[0], args[1])
                        .getResult();
        linalg::YieldOp::create(b, bodyLoc, combined);
      });
  return reduce->getResult(0);
}

FailureOr<Value> Converter::convertBroadcast(Operation *op, Value input) {
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>("broadcast_dimensions");
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!dims || !type || !inputType ||
      int64_t(dims.size()) != inputType.getRank() || !type.hasStaticShape() ||
      inputType.getElementType() != type.getElementType())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a static broadcast of a ranked tensor");
  Location loc = op->getLoc();
  RankedTensorType squeezed = getSqueezedType(type);
  // A splat stays a splat.
  if (auto constant = input.getDefiningOp<arith::ConstantOp>())
    if (auto splat = dyn_cast<SplatElementsAttr>(constant.getValue()))
      return create<arith::ConstantOp>(
                 loc, SplatElementsAttr::get(squeezed,
                                             splat.getSplatValue<Attribute>()))
          .getResult();
  // The input's dims that are not 1 keep their size: where each lands.
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<AffineExpr> exprs;
  SmallVector<int64_t> sortedDims(dims.asArrayRef());
  llvm::sort(sortedDims);
  if (llvm::adjacent_find(sortedDims) != sortedDims.end() ||
      llvm::any_of(sortedDims, [&](int64_t dim) {
        return dim < 0 || dim >= type.getRank();
      }))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not a static broadcast of a ranked tensor");
  for (int64_t dim : getKeptDims(inputType)) {
    std::optional<int64_t> target = getSqueezedDim(type, dims[dim]);
    if (!target || type.getDimSize(dims[dim]) != inputType.getDimSize(dim))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "broadcasts a dim that is not 1");
    exprs.push_back(getAffineDimExpr(*target, ctx));
  }
  AffineMap read = AffineMap::get(squeezed.getRank(), 0, exprs, ctx);
  if (read.isIdentity())
    return input;
  SmallVector<utils::IteratorType> iterators(squeezed.getRank(),
                                             utils::IteratorType::parallel);
  auto copy = create<linalg::GenericOp>(
      loc, squeezed, ValueRange{input}, ValueRange{emptyLike(loc, squeezed)},
      ArrayRef<AffineMap>{
          read, AffineMap::getMultiDimIdentityMap(squeezed.getRank(), ctx)},
      iterators, [](OpBuilder &b, Location bodyLoc, ValueRange args) {
        linalg::YieldOp::create(b, bodyLoc, args[0]);
      });
  Value result = copy->getResult(0);
  // Elementwise consumers read the input through `read` instead.
  broadcastSources[result] = {input, read};
  return result;
}

/// The predicate of a stablehlo.compare, for float or integer operands.
using ComparePredicate =
    std::variant<arith::CmpFPredicate, arith::CmpIPredicate>;
static std::optional<ComparePredicate> getComparePredicate(Operation *op,
                                                           Type element) {
  auto word = [](StringRef text, StringRef key) {
    size_t at = text.find(key);
    if (at == StringRef::npos)
      return StringRef();
    return text.drop_front(at + key.size()).ltrim().take_while(llvm::isAlpha);
  };
  StringRef dir =
      word(getOpaqueText(op, "comparison_direction"), "comparison_direction");
  static const StringRef kDirections[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  const auto *it = llvm::find(kDirections, dir);
  if (it == std::end(kDirections))
    return std::nullopt;
  size_t index = it - std::begin(kDirections);
  if (isa<FloatType>(element)) {
    using P = arith::CmpFPredicate;
    const P predicates[] = {P::OEQ, P::UNE, P::OLT, P::OLE, P::OGT, P::OGE};
    return ComparePredicate(predicates[index]);
  }
  using P = arith::CmpIPredicate;
  bool isUnsigned = word(getOpaqueText(op, "compare_type"),
                         "comparison_type") == "UNSIGNED" ||
                    element.isInteger(1);
  const P predicates[] = {P::eq,
                          P::ne,
                          isUnsigned ? P::ult : P::slt,
                          isUnsigned ? P::ule : P::sle,
                          isUnsigned ? P::ugt : P::sgt,
                          isUnsigned ? P::uge : P::sge};
  return ComparePredicate(predicates[index]);
}

/// A cast of `value` from `from` to `to` in a body, or null.
static Value castScalar(OpBuilder &b, Location loc, Value value, Type from,
                        Type to) {
  if (from == to)
    return value;
  if (isa<FloatType>(from) && isa<FloatType>(to)) {
    unsigned fromWidth = from.getIntOrFloatBitWidth(),
             toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth == toWidth) // bf16 <-> f16: through f32, exactly widened
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    if (fromWidth < toWidth)
      return arith::ExtFOp::create(b, loc, to, value).getResult();
    return arith::TruncFOp::create(b, loc, to, value).getResult();
  }
  if (isa<IntegerType>(from) && isa<FloatType>(to))
    return from.isInteger(1)
               ? arith::UIToFPOp::create(b, loc, to, value).getResult()
               : arith::SIToFPOp::create(b, loc, to, value).getResult();
  if (isa<IntegerType>(from) && isa<IntegerType>(to))
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? (from.isInteger(1)
                      ? arith::ExtUIOp::create(b, loc, to, value).getResult()
                      : arith::ExtSIOp::create(b, loc, to, value).getResult())
               : arith::TruncIOp::create(b, loc, to, value).getResult();
  return {};
}

/// The number of operands of the elementwise StableHLO ops sage reads.
static std::optional<size_t> getElementwiseArity(StringRef name) {
  return llvm::StringSwitch<std::optional<size_t>>(name)
      .Cases({"add", "subtract", "multiply", "divide", "maximum", "minimum",
              "and", "or", "compare"},
             2)
      .Case("select", 3)
      .Cases({"exponential", "negate", "not", "convert"}, 1)
      .Default(std::nullopt);
}

FailureOr<Value> Converter::convertElementwise(Operation *op,
                                               ArrayRef<Value> inputs) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has no static tensor result");
  type = getSqueezedType(type);
  StringRef name =
      op->getName().getStringRef().drop_front(StringRef("stablehlo.").size());
  Type element = type.getElementType();
  Location loc = op->getLoc();
  std::optional<size_t> arity = getElementwiseArity(name);
  if (!arity || *arity != inputs.size())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not an elementwise op sage reads");
  // Every operand has the result's shape (unit dims gone; a broadcast copy
  // has it too); element types as the op needs them, integers signless.
  SmallVector<Type> elements;
  for (Value input : inputs) {
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!inputType || inputType.getShape() != type.getShape())
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "has operands of another shape than its result");
    elements.push_back(inputType.getElementType());
  }
  bool sameElements = llvm::all_equal(elements);
  if (name == "select")
    sameElements = elements[0].isInteger(1) && elements[1] == element &&
                   elements[2] == element;
  else if (name == "compare")
    sameElements &= element.isInteger(1);
  else if (name != "convert")
    sameElements &= elements[0] == element;
  auto readable = [](Type t) {
    return isa<FloatType>(t) || t.isSignlessInteger();
  };
  if (!sameElements || !readable(element) || !llvm::all_of(elements, readable))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has operands of another element type than it computes");

  // The identities JAX emits.
  auto splatIs = [](Value v, double x) {
    std::optional<double> splat = getSplat(v);
    return splat && *splat == x;
  };
  const double negInf = -std::numeric_limits<double>::infinity();
  if (name == "maximum") {
    if (splatIs(inputs[0], negInf))
      return inputs[1];
    if (splatIs(inputs[1], negInf))
      return inputs[0];
  }
  if ((name == "and" && element.isInteger(1)) || name == "add") {
    double identity = name == "and" ? 1.0 : 0.0;
    if (splatIs(inputs[0], identity))
      return inputs[1];
    if (splatIs(inputs[1], identity))
      return inputs[0];
  }
  if (name == "select" && element.isInteger(1) && splatIs(inputs[1], 1.0) &&
      splatIs(inputs[2], 0.0))
    return inputs[0];

  bool isFloat = isa<FloatType>(element);
  std::function<Value(OpBuilder &, Location, ValueRange)> body;
  auto binary = [&](auto floatOp, auto intOp) {
    return [=](OpBuilder &b, Location l, ValueRange args) -> Value {
      using F = decltype(floatOp);
      using I = decltype(intOp);
      if (isFloat)
        return F::create(b, l, args[0], args[1]).getResult();
      return I::create(b, l, args[0], args[1]).getResult();
    };
  };
  if (name == "add")
    body = binary(arith::AddFOp(), arith::AddIOp());
  else if (name == "subtract")
    body = binary(arith::SubFOp(), arith::SubIOp());
  else if (name == "multiply")
    body = binary(arith::MulFOp(), arith::MulIOp());
  else if (name == "divide" && isFloat)
    body = binary(arith::DivFOp(), arith::DivFOp());
  else if (name == "maximum" && isFloat)
    body = binary(arith::MaximumFOp(), arith::MaximumFOp());
  else if (name == "minimum" && isFloat)
    body = binary(arith::MinimumFOp(), arith::MinimumFOp());
  else if (name == "and" && !isFloat)
    body = binary(arith::AndIOp(), arith::AndIOp());
  else if (name == "or" && !isFloat)
    body = binary(arith::OrIOp(), arith::OrIOp());
  else if (name == "exponential" && isFloat)
    body = [](OpBuilder &b, Location l, ValueRange args) -> Value {
      return math::ExpOp::create(b, l, args[0]);
    };
  else if (name == "negate" && isFloat)
    body = [](OpBuilder &b, Location l, ValueRange args) -> Value {
      return arith::NegFOp::create(b, l, args[0]);
    };
  else if (name == "not" && element.isInteger(1))
    body = [](OpBuilder &b, Location l, ValueRange args) -> Value {
      Value one = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
      return arith::XOrIOp::create(b, l, args[0], one);
    };
  else if (name == "select")
    body = [](OpBuilder &b, Location l, ValueRange args) -> Value {
      return arith::SelectOp::create(b, l, args[0], args[1], args[2]);
    };
  else if (name == "convert") {
    Type from = elements[0];
    if (from == element)
      return inputs[0];
    // Float to float, integer or boolean to float or integer.
    if (!isa<FloatType, IntegerType>(from) ||
        !isa<FloatType, IntegerType>(element) ||
        (isa<FloatType>(from) && isa<IntegerType>(element)))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "converts between types sage does not read");
    body = [=](OpBuilder &b, Location l, ValueRange args) -> Value {
      return castScalar(b, l, args[0], from, element);
    };
  } else if (name == "compare") {
    auto predicate = getComparePredicate(op, elements[0]);
    if (!predicate)
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "has a comparison sage does not read");
    body = [=](OpBuilder &b, Location l, ValueRange args) -> Value {
      if (auto *f = std::get_if<arith::CmpFPredicate>(&*predicate))
        return arith::CmpFOp::create(b, l, *f, args[0], args[1]);
      return arith::CmpIOp::create(
          b, l, std::get<arith::CmpIPredicate>(*predicate), args[0], args[1]);
    };
  } else {
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not an elementwise op sage reads");
  }
  // A mask built from positions stays one generic over linalg.index (what
  // Masks.cpp reads as causal); anything else reads it as an input.
  bool maskLogic = llvm::is_contained({"compare", "and", "or", "not"}, name);
  Value result = buildElementwise(loc, type, inputs, body, maskLogic);
  if (maskLogic && llvm::all_of(inputs, [&](Value input) {
        return positional.contains(input) || getSplat(input);
      }))
    positional.insert(result);
  return result;
}

FailureOr<Value> Converter::convertOp(Operation *op, Mode mode, Scope &scope) {
  StringRef name =
      op->getName().getStringRef().drop_front(StringRef("stablehlo.").size());
  Location loc = op->getLoc();
  auto type = op->getNumResults() == 1
                  ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                  : RankedTensorType();
  if (!type || !type.hasStaticShape())
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "has no static tensor result");
  RankedTensorType squeezed = getSqueezedType(type);
  if (name == "constant") {
    auto value = op->getAttrOfType<DenseElementsAttr>("value");
    if (!value || value.getType() != type ||
        !(isa<FloatType>(type.getElementType()) ||
          type.getElementType().isSignlessInteger()))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "has no dense value of its type");
    return create<arith::ConstantOp>(loc, value.reshape(squeezed)).getResult();
  }
  if (name == "dot_general")
    return convertDotGeneral(op, scope);
  if (name == "reduce")
    return convertReduce(op, scope);
  if (name == "iota") {
    auto dim = op->getAttrOfType<IntegerAttr>("iota_dimension");
    Type element = type.getElementType();
    if (!dim || dim.getInt() < 0 || dim.getInt() >= type.getRank() ||
        !isa<IntegerType>(element))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "is not an integer iota along one of its dims");
    std::optional<int64_t> axis = getSqueezedDim(type, dim.getInt());
    if (!axis) // along a unit dim: zeros
      return create<arith::ConstantOp>(
                 loc, SplatElementsAttr::get(
                          squeezed, rewriter.getIntegerAttr(element, 0)))
          .getResult();
    if (!element.isSignlessInteger())
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "is not an integer iota along one of its dims");
    Value iota = buildElementwise(
        loc, squeezed, {}, [&](OpBuilder &b, Location l, ValueRange) -> Value {
          Value index = linalg::IndexOp::create(b, l, *axis);
          return arith::IndexCastOp::create(b, l, element, index);
        });
    positional.insert(iota);
    return iota;
  }
  // Unknown ops are refused before their operands are read.
  if (!llvm::is_contained({"broadcast_in_dim", "reshape", "transpose"}, name) &&
      !getElementwiseArity(name))
    return refuse("'" + op->getName().getStringRef() + "' " +
                  "is not an elementwise op sage reads");
  SmallVector<Value> inputs;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> converted = convert(operand, mode, scope);
    if (failed(converted))
      return failure();
    inputs.push_back(*converted);
  }
  if (name == "broadcast_in_dim" && inputs.size() == 1)
    return convertBroadcast(op, inputs[0]);
  if (name == "reshape" && inputs.size() == 1) {
    FailureOr<Value> reshaped =
        reshapeTo(rewriter, loc, inputs[0], squeezed, created);
    if (failed(reshaped))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "is not one expand_shape or collapse_shape");
    return reshaped;
  }
  if (name == "transpose" && inputs.size() == 1) {
    auto permutation = op->getAttrOfType<DenseI64ArrayAttr>("permutation");
    auto inputType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!permutation || !inputType ||
        int64_t(permutation.size()) != type.getRank() ||
        inputType.getRank() != type.getRank() ||
        !isPermutationVector(permutation.asArrayRef()) ||
        llvm::any_of(llvm::seq<int64_t>(0, type.getRank()), [&](int64_t d) {
          return type.getDimSize(d) != inputType.getDimSize(permutation[d]);
        }))
      return refuse("'" + op->getName().getStringRef() + "' " +
                    "has no permutation of its rank");
    // Moving unit dims moves no data.
    SmallVector<int64_t> perm;
    for (int64_t dim : getKeptDims(type))
      perm.push_back(*getSqueezedDim(inputType, permutation[dim]));
    if (isIdentityPermutation(perm))
      return inputs[0];
    return create<linalg::TransposeOp>(loc, inputs[0], emptyLike(loc, squeezed),
                                       perm)
        ->getResult(0);
  }
  return convertElementwise(op, inputs);
}

/// StableHLO ops a contraction operand is read through: layout and scales.
static bool isLayoutOrScale(StringRef name) {
  return llvm::is_contained({"stablehlo.reshape", "stablehlo.transpose",
                             "stablehlo.convert", "stablehlo.broadcast_in_dim",
                             "stablehlo.multiply", "stablehlo.divide",
                             "stablehlo.constant"},
                            name);
}

FailureOr<Value> Converter::convert(Value value, Mode mode, Scope &scope) {
  if (auto it = scope.values.find(value); it != scope.values.end())
    return it->second;
  if (auto it = scope.leaves.find(value); it != scope.leaves.end())
    return it->second;
  if (scope.failed.contains(value))
    return failure();
  Operation *def = value.getDefiningOp();
  // Where the slice stops, the value is read as it is (without its unit
  // dims); inside a callee there is no such value at the call.
  auto stop = [&]() -> FailureOr<Value> {
    if (scope.inCallee) {
      std::string op =
          def ? def->getName().getStringRef().str() : "an argument";
      scope.failed.insert(value);
      return refuse("a private function called on the way computes a value "
                    "sage does not read (" +
                    op + ")");
    }
    Value read = value;
    if (auto type = dyn_cast<RankedTensorType>(value.getType())) {
      FailureOr<Value> squeezed = reshapeTo(rewriter, value.getLoc(), value,
                                            getSqueezedType(type), created);
      if (succeeded(squeezed))
        read = *squeezed;
    }
    scope.leaves[value] = read;
    return read;
  };
  if (!def)
    return stop();
  StringRef name = def->getName().getStringRef();
  FailureOr<Value> result;
  if (auto call = dyn_cast<func::CallOp>(def)) {
    func::FuncOp callee = getInlinableCallee(call);
    if (!callee)
      return stop();
    if (!activeCallees.insert(callee).second) {
      (void)refuse("a private function called on the way calls itself");
      return stop();
    }
    Scope inner;
    inner.inCallee = true;
    Block &body = callee.getBody().front();
    bool argumentsRead = true;
    for (auto [argument, operand] :
         llvm::zip_equal(body.getArguments(), call.getOperands())) {
      FailureOr<Value> converted = convert(operand, mode, scope);
      if (failed(converted)) {
        argumentsRead = false;
        break;
      }
      inner.values[argument] = *converted;
    }
    result = argumentsRead ? convert(body.back().getOperand(0), mode, inner)
                           : FailureOr<Value>(failure());
    activeCallees.erase(callee);
  } else if (!name.starts_with("stablehlo.") ||
             (mode == Mode::Layout && !isLayoutOrScale(name))) {
    return stop();
  } else if (mode == Mode::Layout &&
             (name == "stablehlo.multiply" || name == "stablehlo.divide") &&
             !llvm::any_of(def->getOperands(), isStableHloConstant)) {
    return stop(); // a product of two tensors is not a scale
  } else {
    result = convertOp(def, mode, scope);
  }
  // What was built has the type of the value without its unit dims.
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (succeeded(result) &&
      (!type || result->getType() != getSqueezedType(type)))
    result =
        refuse("'" + name + "' " + "computes a type other than its result's");
  if (failed(result)) {
    if (!scope.inCallee)
      return stop();
    scope.failed.insert(value);
    return failure();
  }
  scope.values[value] = *result;
  if (!scope.inCallee)
    replaced.push_back(def);
  return result;
}

FailureOr<StableHloSlice>
sage::convertStableHloAttention(RewriterBase &rewriter, Operation *root,
                                std::string &why) {
  // The result's layout chain (JAX moves vmap's unit dim back and drops
  // it): single users that only transpose, reshape or convert.
  Value original = root->getResult(0);
  SmallVector<Value> chain = {original};
  while (original.hasOneUse()) {
    Operation *user = *original.getUsers().begin();
    StringRef name = user->getName().getStringRef();
    if (user->getNumResults() != 1 ||
        !llvm::is_contained(
            {"stablehlo.transpose", "stablehlo.reshape", "stablehlo.convert"},
            name))
      break;
    original = user->getResult(0);
    chain.push_back(original);
  }
  if (!isa<RankedTensorType>(original.getType())) {
    why = "its result is not a ranked tensor";
    return failure();
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(original.getDefiningOp());
  Converter converter(rewriter, why);
  converter.root = root;
  Scope scope;
  FailureOr<Value> converted = converter.convert(original, Mode::Full, scope);
  auto rootIt = scope.values.find(root->getResult(0));
  linalg::LinalgOp linalgRoot;
  // P*V and its layout chain must have been converted, not read as they
  // are.
  if (succeeded(converted) && rootIt != scope.values.end() &&
      llvm::all_of(chain, [&](Value v) { return scope.values.count(v); }))
    linalgRoot = rootIt->second.getDefiningOp<linalg::LinalgOp>();
  // The unit dims back.
  if (succeeded(converted) && linalgRoot)
    converted = reshapeTo(rewriter, root->getLoc(), *converted,
                          cast<RankedTensorType>(original.getType()),
                          converter.created);
  // Nothing reads an unused result: the slice would be dead on arrival.
  if (original.use_empty() && why.empty())
    why = "its result is not used";
  if (failed(converted) || !linalgRoot || *converted == original ||
      original.use_empty()) {
    if (why.empty())
      why = "its P*V product is not read";
    for (Operation *op : llvm::reverse(converter.created))
      rewriter.eraseOp(op);
    return failure();
  }
  rewriter.replaceAllUsesWith(original, *converted);
  // Broadcasting copies that every consumer read through its map, and
  // partial conversions of values the slice reads as they are: the
  // matchers count users, so the dead ones go now.
  SmallVector<Operation *> live;
  for (Operation *op : llvm::reverse(converter.created)) {
    if (op->use_empty())
      rewriter.eraseOp(op);
    else
      live.push_back(op);
  }
  std::reverse(live.begin(), live.end());
  return StableHloSlice{linalgRoot, original, *converted, std::move(live),
                        std::move(converter.replaced)};
}
