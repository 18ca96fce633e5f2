//===- SageOps.cpp - sage operations: verifiers ---------------------------===//

#include "sage/Dialect/Sage/IR/SageOps.h"
#include "sage/Dialect/Sage/IR/MmaInstructions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

#include <cmath>

using namespace mlir;
using namespace mlir::sage;

/// `, i32` after the scores' type of a sage.mask_scores whose positions
/// are i32; nothing for index.
static ParseResult parseOffsetType(OpAsmParser &parser, Type &queryOffset,
                                   Type &keyOffset, Type &queries, Type &keys) {
  Type type = parser.getBuilder().getIndexType();
  if (succeeded(parser.parseOptionalComma()) && parser.parseType(type))
    return failure();
  queryOffset = keyOffset = queries = keys = type;
  return success();
}
static void printOffsetType(OpAsmPrinter &printer, Operation *,
                            Type queryOffset, Type, Type, Type) {
  if (!queryOffset.isIndex())
    printer << ", " << queryOffset;
}

/// The online softmax's row-sum type, printed only where it is not the
/// max's (partial row sums).
static ParseResult parseSumType(OpAsmParser &parser, Type &sum, Type max) {
  sum = max;
  if (succeeded(parser.parseOptionalComma()) && parser.parseType(sum))
    return failure();
  return success();
}
static void printSumType(OpAsmPrinter &printer, Operation *, Type sum,
                         Type max) {
  if (sum != max)
    printer << ", " << sum;
}

#define GET_OP_CLASSES
#include "sage/Dialect/Sage/IR/SageOps.cpp.inc"

/// Two extents agree unless both are static and differ.
static bool compatible(int64_t lhs, int64_t rhs) {
  return ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs) || lhs == rhs;
}

/// ceil(size / block), dynamic when `size` is.
static int64_t ceilDivDynamic(int64_t size, int64_t block) {
  return ShapedType::isDynamic(size) ? ShapedType::kDynamic
                                     : int64_t(llvm::divideCeil(size, block));
}

/// Grouped-query attention: the query heads are a multiple of the K/V heads.
static LogicalResult verifyHeadRatio(Operation *op, int64_t queryHeads,
                                     int64_t kvHeads) {
  if (!ShapedType::isDynamic(queryHeads) && !ShapedType::isDynamic(kvHeads) &&
      (kvHeads == 0 || queryHeads % kvHeads != 0))
    return op->emitOpError()
           << "query heads (" << queryHeads
           << ") must be a multiple of key/value heads (" << kvHeads << ")";
  return success();
}

/// Prints an extent the way tensor types do ("?" when dynamic).
static std::string extent(int64_t size) {
  return ShapedType::isDynamic(size) ? "?" : std::to_string(size);
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::interleave(
      shape, [&](int64_t size) { text += extent(size); },
      [&] { text += ", "; });
  return text + "]";
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

namespace {
/// One operand of sage.attention with its name, for diagnostics.
struct NamedTensor {
  StringRef name;
  RankedTensorType type;
  int64_t dim(std::optional<unsigned> pos) const {
    return pos ? type.getDimSize(*pos) : 1;
  }
};
} // namespace

/// A causal alignment only means something on a causal op.
static LogicalResult
verifyCausalAlignment(Operation *op, bool causal,
                      std::optional<CausalAlignment> alignment) {
  if (alignment && !causal)
    return op->emitOpError("has causal_alignment = ")
           << stringifyCausalAlignment(*alignment) << " but is not causal";
  return success();
}

LogicalResult AttentionOp::verify() {
  if (failed(verifyCausalAlignment(*this, getCausal(), getCausalAlignment())))
    return failure();
  LayoutAttr layout = getLayout();
  unsigned rank = layout.getRank();
  if (rank != 3 && rank != 4)
    return emitOpError("expects a layout of rank 3 or 4, got ") << rank;
  NamedTensor query{"query", getQuery().getType()};
  NamedTensor key{"key", getKey().getType()};
  NamedTensor value{"value", getValue().getType()};
  NamedTensor result{"result", getResult().getType()};
  for (const NamedTensor &t : {query, key, value, result})
    if (t.type.getRank() != rank)
      return emitOpError() << "expected " << t.name << " of rank " << rank
                           << " to match the layout, got " << t.type;
  for (const NamedTensor &t : {key, value})
    if (t.type.getElementType() != query.type.getElementType())
      return emitOpError() << "expected " << t.name << " element type "
                           << query.type.getElementType()
                           << " (the query's), got " << t.type.getElementType();

  std::optional<unsigned> batch = layout.getPosition(DimRole::Batch);
  std::optional<unsigned> heads = layout.getPosition(DimRole::Heads);
  unsigned tokens = *layout.getPosition(DimRole::Tokens);
  unsigned features = *layout.getPosition(DimRole::Features);

  for (const NamedTensor &t : {query, key, value, result})
    if (t.type.isDynamicDim(features))
      return emitOpError() << "expected a static features dimension in "
                           << t.name << ", got " << t.type;
  auto mismatch = [&](StringRef what, const NamedTensor &lhs,
                      const NamedTensor &rhs, int64_t lhsSize,
                      int64_t rhsSize) -> LogicalResult {
    if (compatible(lhsSize, rhsSize))
      return success();
    return emitOpError() << what << " of " << lhs.name << " and " << rhs.name
                         << " differ: " << extent(lhsSize) << " vs "
                         << extent(rhsSize);
  };
  if (failed(mismatch("feature sizes", query, key, query.dim(features),
                      key.dim(features))) ||
      failed(mismatch("feature sizes", value, result, value.dim(features),
                      result.dim(features))) ||
      failed(mismatch("token counts", key, value, key.dim(tokens),
                      value.dim(tokens))) ||
      failed(mismatch("token counts", query, result, query.dim(tokens),
                      result.dim(tokens))) ||
      failed(mismatch("head counts", key, value, key.dim(heads),
                      value.dim(heads))) ||
      failed(mismatch("head counts", query, result, query.dim(heads),
                      result.dim(heads))))
    return failure();
  for (const NamedTensor &t : {key, value, result})
    if (failed(
            mismatch("batch sizes", query, t, query.dim(batch), t.dim(batch))))
      return failure();

  if (failed(verifyHeadRatio(*this, query.dim(heads), key.dim(heads))))
    return failure();

  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> expected(query.type.getShape());
    expected[features] = key.dim(tokens);
    if (maskType.getRank() != rank)
      return emitOpError() << "expected mask of rank " << rank << ", got "
                           << maskType;
    for (unsigned i = 0; i < rank; ++i) {
      int64_t size = maskType.getDimSize(i);
      bool broadcastable = i != tokens && i != features && size == 1;
      if (!broadcastable && !compatible(size, expected[i]))
        return emitOpError()
               << "mask dimension " << i << " has size " << extent(size)
               << ", expected " << extent(expected[i])
               << (i != tokens && i != features ? " or 1" : "")
               << " (scores are " << shapeString(expected) << ")";
    }
  }

  if (Value lse = getLse()) {
    auto lseType = cast<RankedTensorType>(lse.getType());
    SmallVector<int64_t> expected(result.type.getShape());
    expected.erase(expected.begin() + features);
    if (failed(verifyCompatibleShape(lseType.getShape(), expected)))
      return emitOpError() << "expected lse of shape " << shapeString(expected)
                           << " (the result without features), got " << lseType;
  }

  if (FloatAttr scale = getScaleAttr()) {
    const APFloat &value = scale.getValue();
    if (!value.isFinite() || value.isZero()) {
      SmallString<16> text;
      value.toString(text);
      return emitOpError() << "scale must be finite and non-zero, got " << text;
    }
  }
  return success();
}

double AttentionOp::getScaleValue() {
  if (FloatAttr scale = getScaleAttr())
    return scale.getValueAsDouble();
  unsigned features = *getLayout().getPosition(DimRole::Features);
  return 1.0 / std::sqrt(double(getQuery().getType().getDimSize(features)));
}

//===----------------------------------------------------------------------===//
// SmoothOp
//===----------------------------------------------------------------------===//

/// Building blocks work on [..., tokens, features].
static LogicalResult verifyTokensFeatures(Operation *op, StringRef name,
                                          RankedTensorType type) {
  if (type.getRank() < 2)
    return op->emitOpError()
           << "expected " << name
           << " of rank >= 2 ([..., tokens, features]), got " << type;
  return success();
}

SmallVector<int64_t> SmoothOp::getMeanShape(ArrayRef<int64_t> inputShape,
                                            std::optional<uint64_t> block) {
  SmallVector<int64_t> shape(inputShape);
  int64_t &tokens = shape[shape.size() - 2];
  tokens = block ? ceilDivDynamic(tokens, *block) : 1;
  return shape;
}

LogicalResult SmoothOp::verify() {
  RankedTensorType inputType = getInput().getType();
  RankedTensorType meanType = getMean().getType();
  if (failed(verifyTokensFeatures(*this, "input", inputType)))
    return failure();
  SmallVector<int64_t> expected =
      getMeanShape(inputType.getShape(), getBlock());
  if (failed(verifyCompatibleShape(meanType.getShape(), expected)))
    return emitOpError() << "expected mean of shape " << shapeString(expected)
                         << ", got " << meanType;
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

/// Checks quantized values and scales against `quant` for a tensor of
/// `shape`.
static LogicalResult verifyQuantized(Operation *op, ArrayRef<int64_t> shape,
                                     RankedTensorType valuesType,
                                     RankedTensorType scalesType,
                                     QuantAttr quant) {
  if (shape.size() < 2)
    return op->emitOpError()
           << "expected a tensor of rank >= 2 ([..., tokens, features]), got "
              "rank "
           << shape.size();
  if (failed(verifyCompatibleShape(valuesType.getShape(), shape)))
    return op->emitOpError() << "expected values of shape "
                             << shapeString(shape) << ", got " << valuesType;
  if (valuesType.getElementType() != quant.getElementType())
    return op->emitOpError()
           << "values element type " << valuesType.getElementType()
           << " does not match the quantization format "
           << quant.getElementType();
  if (scalesType.getElementType() != quant.getScaleType())
    return op->emitOpError()
           << "scales element type " << scalesType.getElementType()
           << " does not match the scale type " << quant.getScaleType();
  // Microscale blocks tile their axis; a tokens axis may end in a partial
  // block (its padding is zeros).
  int64_t features = shape.back();
  if (quant.getGranularity() == Granularity::Microscale &&
      !quant.isAlongTokens() && !ShapedType::isDynamic(features) &&
      features % quant.getBlock() != 0)
    return op->emitOpError()
           << "microscale blocks of " << quant.getBlock()
           << " must divide the features dimension, got " << features;
  SmallVector<int64_t> expected = quant.getScaleShape(shape);
  if (failed(verifyCompatibleShape(scalesType.getShape(), expected)))
    return op->emitOpError()
           << "expected scales of shape " << shapeString(expected) << " for "
           << stringifyGranularity(quant.getGranularity()) << ", got "
           << scalesType;
  return success();
}

static LogicalResult verifyAccumulatorFragment(Operation *op,
                                               std::optional<MmaAttr> fragment,
                                               StringRef valuesName,
                                               VectorType values);

static LogicalResult verifyFragmentRows(Operation *op, MmaAttr fragment,
                                        StringRef rowsName, Type rows);

/// P's two-level NVFP4 quantization on an m16n8 accumulator fragment: 64-key
/// chunks (eight 8-key tiles), a scale byte a 16-key block, and the lane's
/// row scales.
static LogicalResult verifyMicroscaledFragment(QuantizeOp op,
                                               VectorType input) {
  QuantAttr quant = op.getQuant();
  if (!isa<Float8E4M3FNType>(quant.getScaleType()))
    return op.emitOpError()
           << "on fragments microscales as NVFP4 only (f8E4M3FN scales), got "
           << quant.getScaleType() << " scales";
  if (quant.getAlong())
    return op.emitOpError() << "on fragments microscales along the keys "
                               "(the accumulator's columns), not along "
                            << stringifyDimRole(*quant.getAlong());
  std::optional<APFloat> rowRange = op.getRowRange();
  if (!rowRange)
    return op.emitOpError()
           << "microscales on fragments in two levels: it needs `row_range`, "
              "the range each row is first scaled into";
  // The lowering divides by it in f32.
  float rowRangeF32 = float(rowRange->convertToDouble());
  if (!std::isfinite(rowRangeF32) || rowRangeF32 <= 0)
    return op.emitOpError() << "row_range must be a finite positive f32, got "
                            << rowRange->convertToDouble();
  if (op.getBound())
    return op.emitOpError()
           << "microscales on fragments with measured scales: no `bound`";
  // Every warp row of the MMA table is m16n8 (docs/Mma.md): a lane holds
  // rows g and g + 8 and two keys of each 8-key tile.
  MmaAttr mma = *op.getFragment();
  int64_t elements = input.getNumElements();
  if (elements % 32 != 0)
    return op.emitOpError()
           << "microscales whole 64-key chunks (32 values a lane), got "
           << input;
  auto values = VectorType::get({elements}, quant.getElementType());
  auto scales = VectorType::get({elements / 8}, quant.getScaleType());
  if (op.getValues().getType() != values || op.getScales().getType() != scales)
    return op.emitOpError()
           << "expected values of type " << values << " and scales of type "
           << scales << " (four a 64-key chunk) for an input " << input
           << ", got " << op.getValues().getType() << " and "
           << op.getScales().getType();
  if (!op.getRowScales())
    return op.emitOpError() << "expected a third result, the row scales";
  return verifyFragmentRows(op, mma, "row scales", op.getRowScales().getType());
}

/// The fragment form: element-wise on an accumulator fragment, with the
/// static scale of `bound`; or NVFP4's two levels.
static LogicalResult verifyQuantizeFragment(QuantizeOp op, VectorType input) {
  if (failed(verifyAccumulatorFragment(op, op.getFragment(), "input", input)))
    return failure();
  if (op.getLayoutAttr())
    return op.emitOpError() << "on fragments has no memory `layout`";
  if (op.getQuant().getGranularity() == Granularity::Microscale)
    return verifyMicroscaledFragment(op, input);
  if (op.getRowRange() || op.getRowScales())
    return op.emitOpError() << "takes `row_range` and returns row scales "
                               "with NVFP4 microscaling only";
  if (!op.getBound())
    return op.emitOpError() << "on fragments needs a static `bound`: a lane "
                               "cannot measure a group's maximum alone";
  Type format = op.getQuant().getElementType();
  if (!isa<Float8E4M3FNType, Float16Type>(format))
    return op.emitOpError()
           << "on fragments lowers E4M3 and f16 only yet, not " << format;
  auto values = VectorType::get(input.getShape(), format);
  auto scales = VectorType::get({1}, Float32Type::get(op.getContext()));
  if (op.getValues().getType() != values || op.getScales().getType() != scales)
    return op.emitOpError()
           << "expected values of type " << values << " and scales of type "
           << scales << " for an input " << input << ", got "
           << op.getValues().getType() << " and " << op.getScales().getType();
  return success();
}

LogicalResult QuantizeOp::verify() {
  if (auto input = dyn_cast<VectorType>(getInput().getType()))
    return verifyQuantizeFragment(*this, input);
  // f16 per_tensor is the rounding with the unit scale, which a bound
  // equal to the range states (a measured scale would rescale values f16
  // holds anyway); per_channel scales V for an f16 accumulator.
  QuantAttr quant = getQuant();
  if (quant.getElementType().isF16() &&
      quant.getGranularity() == Granularity::PerTensor &&
      (!getBound() || getBound()->convertToDouble() != quant.getRangeValue())) {
    SmallString<16> range;
    quant.getRange().toString(range);
    return emitOpError() << "rounds to f16 with the unit scale: expected "
                            "bound = "
                         << range << " (the range)";
  }
  if (getFragmentAttr())
    return emitOpError() << "has a `fragment` layout but operates on tiles";
  if (getRowRange() || getRowScales())
    return emitOpError() << "quantizes in two levels (`row_range`, row "
                            "scales) on fragments only";
  if (std::optional<APFloat> bound = getBound()) {
    if (!bound->isFiniteNonZero() || bound->isNegative())
      return emitOpError() << "bound must be finite and positive, got "
                           << bound->convertToDouble();
    // bound / range is the one scale of every group: an f32 it must be.
    if (!getQuant().getScaleType().isF32())
      return emitOpError() << "a static bound needs f32 scales, got "
                           << getQuant().getScaleType();
  }
  if (OperandLayoutAttrInterface layout = getLayoutAttr()) {
    // One MMA chunk of a row is 32 bytes, whatever the element width.
    Type format = getQuant().getElementType();
    int64_t bits = format.getIntOrFloatBitWidth();
    if (layout.getMmaK() * bits != 256)
      return emitOpError() << "layout " << layout << " holds "
                           << 256 / layout.getMmaK() << "-bit elements, not "
                           << format;
  }
  auto values = dyn_cast<RankedTensorType>(getValues().getType());
  auto scales = dyn_cast<RankedTensorType>(getScales().getType());
  if (!values || !scales)
    return emitOpError() << "expected tensors of values and scales for a "
                            "tensor input, got "
                         << getValues().getType() << " and "
                         << getScales().getType();
  return verifyQuantized(
      *this, cast<RankedTensorType>(getInput().getType()).getShape(), values,
      scales, getQuant());
}

LogicalResult DequantizeOp::verify() {
  return verifyQuantized(*this, getResult().getType().getShape(),
                         getValues().getType(), getScales().getType(),
                         getQuant());
}

//===----------------------------------------------------------------------===//
// QMmaOp
//===----------------------------------------------------------------------===//

namespace {
/// The families of mma.sync operand formats.
enum class MmaFormat { Integer, Fp16, Fp8, Fp4 };
} // namespace

static MmaFormat getMmaFormat(Type type) {
  if (type.isInteger())
    return MmaFormat::Integer;
  if (type.isF16())
    return MmaFormat::Fp16;
  return isa<Float4E2M1FNType>(type) ? MmaFormat::Fp4 : MmaFormat::Fp8;
}

/// Checks that `scales` is [..., rows or 1, 1] (one scale per row) or
/// [..., rows, K / block] (block scales along the contraction).
static LogicalResult verifyMmaScales(Operation *op, StringRef name,
                                     RankedTensorType scales, int64_t rows,
                                     int64_t k, Type format) {
  int64_t rank = scales.getRank();
  int64_t scaleRows = scales.getDimSize(rank - 2);
  int64_t scaleCols = scales.getDimSize(rank - 1);
  if (scaleRows != 1 && !compatible(scaleRows, rows))
    return op->emitOpError() << "expected " << name << " rows to be 1 or "
                             << extent(rows) << ", got " << extent(scaleRows);
  if (scaleCols == 1) {
    if (!scales.getElementType().isF32())
      return op->emitOpError() << "row-wise " << name << " must be f32, got "
                               << scales.getElementType();
    return success();
  }
  if (getMmaFormat(format) == MmaFormat::Integer)
    return op->emitOpError()
           << "block " << name << " need a float format, got " << format;
  if (ShapedType::isDynamic(scaleCols) || ShapedType::isDynamic(k))
    return success();
  if (k % scaleCols != 0 || (k / scaleCols != 16 && k / scaleCols != 32))
    return op->emitOpError()
           << "block " << name << " must cover 16 or 32 elements of K = " << k
           << ", got " << scaleCols << " scales";
  return success();
}

/// The instruction `mma` multiplies these formats into this accumulator,
/// applies the block scales the operands carry, and the [m, n, k] tile is a
/// whole number of its shapes.
static LogicalResult verifyInstruction(QMmaOp op, MmaAttr mma, Type aFormat,
                                       Type bFormat, Type accumulator,
                                       int64_t m, int64_t n, int64_t k) {
  if (mma.getA() != aFormat || mma.getB() != bFormat ||
      mma.getAcc() != accumulator)
    return op.emitOpError()
           << "mma multiplies " << mma.getA() << " x " << mma.getB() << " -> "
           << mma.getAcc() << ", but the operands are " << aFormat << " x "
           << bFormat << " -> " << accumulator;
  for (Value scales : {op.getAScales(), op.getBScales()})
    if (getMmaScaleKind(scales.getType()) != mma.getScales())
      return op.emitOpError()
             << "mma applies " << stringifyMmaScaleKind(mma.getScales())
             << " scales, but the operand scales are " << scales.getType();
  for (auto [name, tile, shape] :
       {std::tuple<StringRef, int64_t, int64_t>{"M", m, mma.getM()},
        {"N", n, mma.getN()},
        {"K", k, mma.getK()}})
    if (!ShapedType::isDynamic(tile) && tile % shape != 0)
      return op.emitOpError()
             << "tile " << name << " = " << tile
             << " is not a multiple of the mma's " << name << " = " << shape;
  return success();
}

LogicalResult QMmaOp::verify() {
  RankedTensorType aType = getA().getType(), bType = getB().getType();
  RankedTensorType resultType = getResult().getType();
  int64_t rank = aType.getRank();
  if (rank < 2)
    return emitOpError() << "expected operands of rank >= 2, got " << aType;
  for (RankedTensorType type :
       {bType, resultType, getAScales().getType(), getBScales().getType()})
    if (type.getRank() != rank)
      return emitOpError() << "expected every operand of rank " << rank
                           << " (a's), got " << type;
  if (failed(verifyCompatibleShape(aType.getShape().drop_back(2),
                                   bType.getShape().drop_back(2))) ||
      failed(verifyCompatibleShape(aType.getShape().drop_back(2),
                                   resultType.getShape().drop_back(2))))
    return emitOpError() << "batch dimensions of a " << aType << ", b " << bType
                         << " and result " << resultType << " differ";
  int64_t m = aType.getDimSize(rank - 2), k = aType.getDimSize(rank - 1);
  int64_t n = bType.getDimSize(rank - 2), bk = bType.getDimSize(rank - 1);
  if (!compatible(k, bk))
    return emitOpError() << "contraction sizes differ: a has K = " << extent(k)
                         << ", b has K = " << extent(bk);
  if (!compatible(resultType.getDimSize(rank - 2), m) ||
      !compatible(resultType.getDimSize(rank - 1), n))
    return emitOpError() << "expected result of " << extent(m) << "x"
                         << extent(n) << " (M x N), got " << resultType;

  Type aFormat = aType.getElementType(), bFormat = bType.getElementType();
  MmaFormat family = getMmaFormat(aFormat);
  if (family != getMmaFormat(bFormat) ||
      (family == MmaFormat::Integer && aFormat != bFormat))
    return emitOpError() << "no mma combines " << aFormat << " and " << bFormat;
  Type accumulator = getAccumulator();
  bool legalAccumulator =
      family == MmaFormat::Integer ? accumulator.isSignlessInteger(32)
      : family == MmaFormat::Fp4   ? accumulator.isF32()
                                   : accumulator.isF32() || accumulator.isF16();
  if (!legalAccumulator)
    return emitOpError() << aFormat << " operands cannot accumulate in "
                         << accumulator << "; expected "
                         << (family == MmaFormat::Integer ? "i32"
                             : family == MmaFormat::Fp4   ? "f32"
                                                          : "f32 or f16");
  Type expectedResult = accumulator.isF16()
                            ? Type(Float16Type::get(getContext()))
                            : Type(Float32Type::get(getContext()));
  if (resultType.getElementType() != expectedResult)
    return emitOpError() << "expected a " << expectedResult << " result for a "
                         << accumulator << " accumulator, got "
                         << resultType.getElementType();
  // Scales grouped by a quantization attribute are checked as the
  // sage.quantize that made them; otherwise they broadcast.
  auto verifyScales =
      [&](StringRef name, RankedTensorType operand, RankedTensorType scales,
          std::optional<QuantAttr> quant, int64_t rows) -> LogicalResult {
    if (quant) {
      std::optional<MmaOperand> role = quant->getOperand();
      MmaOperand expected = name == "a_scales" ? MmaOperand::A : MmaOperand::B;
      if (role && *role != expected)
        return emitOpError() << name << " are grouped for mma operand "
                             << stringifyMmaOperand(*role) << ", expected "
                             << stringifyMmaOperand(expected);
      return verifyQuantized(*this, operand.getShape(), operand, scales,
                             *quant);
    }
    return verifyMmaScales(*this, name, scales, rows, k,
                           operand.getElementType());
  };
  if (failed(verifyScales("a_scales", aType, getAScales().getType(),
                          getAQuant(), m)) ||
      failed(verifyScales("b_scales", bType, getBScales().getType(),
                          getBQuant(), n)))
    return failure();
  if (std::optional<MmaAttr> mma = getMma())
    return verifyInstruction(*this, *mma, aFormat, bFormat, accumulator, m, n,
                             k);
  return success();
}

//===----------------------------------------------------------------------===//
// WarpMmaOp
//===----------------------------------------------------------------------===//

/// Checks that `actual` is one thread's share, `rows * columns / threads`
/// elements, of a `rows` x `columns` operand of `instruction`; `holder`
/// names the thread ("lane", "thread") in the error.
static LogicalResult verifyShare(Operation *op, StringRef name, Type actual,
                                 int64_t rows, int64_t columns, Type element,
                                 int64_t threads, StringRef holder,
                                 StringRef instruction) {
  auto expected = VectorType::get({rows * columns / threads}, element);
  if (actual == expected)
    return success();
  return op->emitOpError() << "expected " << name << " of type " << expected
                           << " (a " << holder << "'s share of " << rows << "x"
                           << columns << ") for " << instruction << ", got "
                           << actual;
}

LogicalResult WarpMmaOp::verify() {
  MmaAttr mma = getMma();
  if (mma.getScope() != MmaScope::Warp)
    return emitOpError() << "is one instruction of a warp, but its mma is of "
                            "scope "
                         << stringifyMmaScope(mma.getScope());
  bool blockScaled = mma.getScales() != MmaScaleKind::None;
  std::string instruction = mma.getInstruction()->getPtx(mma.getN());
  if (blockScaled != bool(getAScales()) ||
      bool(getAScales()) != bool(getBScales()))
    return emitOpError() << instruction
                         << (blockScaled ? " needs a_scales and b_scales"
                                         : " takes no scale registers");
  if (std::optional<ArrayRef<int32_t>> selectors = getScaleSelectors()) {
    if (!blockScaled || selectors->size() != 4 ||
        llvm::any_of(*selectors, [](int32_t s) { return s < 0 || s > 3; }))
      return emitOpError() << "expected scale_selectors of a block-scaled "
                              "row: four values in [0, 3] (a byte, a "
                              "thread, b byte, b thread)";
  }
  // Each lane holds 1/32 of every operand (docs/Levels.md, L4).
  auto expectFragment = [&](StringRef name, VectorType actual, int64_t rows,
                            int64_t columns, Type element) {
    return verifyShare(*this, name, actual, rows, columns, element,
                       /*threads=*/32, "lane", instruction);
  };
  return success(succeeded(expectFragment("a", getA().getType(), mma.getM(),
                                          mma.getK(), mma.getA())) &&
                 succeeded(expectFragment("b", getB().getType(), mma.getN(),
                                          mma.getK(), mma.getB())) &&
                 succeeded(expectFragment("acc", getAcc().getType(), mma.getM(),
                                          mma.getN(), mma.getAcc())));
}

LogicalResult WarpgroupMmaOp::verify() {
  MmaAttr mma = getMma();
  if (mma.getScope() != MmaScope::Warpgroup)
    return emitOpError() << "is one instruction of a warpgroup, but its mma "
                            "is of scope "
                         << stringifyMmaScope(mma.getScope());
  std::string instruction = mma.getInstruction()->getPtx(mma.getN());
  // Each thread of the warpgroup holds 1/128 of a register operand.
  auto expectFragment = [&](StringRef name, Type actual, int64_t rows,
                            int64_t columns, Type element) {
    return verifyShare(*this, name, actual, rows, columns, element,
                       /*threads=*/128, "thread", instruction);
  };
  Type aType = getA().getType();
  if (mma.getASource() == OperandSource::Shared) {
    if (!aType.isInteger(64))
      return emitOpError() << "expected a as the i64 shared-memory descriptor "
                              "the row reads A through, got "
                           << aType;
  } else if (failed(expectFragment("a", aType, mma.getM(), mma.getK(),
                                   mma.getA()))) {
    return failure();
  }
  return expectFragment(getAcc() ? "acc" : "result", getResult().getType(),
                        mma.getM(), mma.getN(), mma.getAcc());
}

LogicalResult MatrixDescriptorOp::verify() {
  if (getMma().getScope() == MmaScope::Warp)
    return emitOpError() << "describes shared memory for wgmma or tcgen05, "
                            "but its mma is an mma.sync, which reads "
                            "registers";
  // Each offset is a 14-bit field of 16-byte units.
  for (auto [name, bytes] :
       {std::pair<StringRef, int64_t>{"leading", getLeading()},
        {"stride", getStride()}})
    if (bytes < 0 || bytes % 16 != 0 || bytes >= (1 << 18))
      return emitOpError() << name
                           << " must be a multiple of 16 below 2^18 bytes, got "
                           << bytes;
  return success();
}

LogicalResult Tcgen05MmaOp::verify() {
  MmaAttr mma = getMma();
  if (mma.getScope() != MmaScope::Tcgen05)
    return emitOpError() << "is one tcgen05.mma, but its mma is of scope "
                         << stringifyMmaScope(mma.getScope());
  Type aType = getA().getType();
  if (mma.getASource() == OperandSource::Shared && !aType.isInteger(64))
    return emitOpError() << "expected a as the i64 shared-memory descriptor "
                            "the row reads A through, got "
                         << aType;
  if (mma.getASource() == OperandSource::TensorMemory && !aType.isInteger(32))
    return emitOpError() << "expected a as the i32 tensor-memory address the "
                            "row reads A from, got "
                         << aType;
  if (bool(getAScales()) != bool(getBScales()))
    return emitOpError() << "expected the block scales of both A and B, or "
                            "neither";
  bool blockScaled = mma.getScales() != MmaScaleKind::None;
  if (blockScaled != bool(getAScales()))
    return emitOpError() << (blockScaled
                                 ? "expected the tensor-memory addresses of "
                                   "A's and B's block scales: the row is "
                                   "block-scaled"
                                 : "takes block scales only for a "
                                   "block-scaled row");
  return success();
}

/// Checks that each fragment fills whole 32-bit registers of integer or
/// float elements, as the fence and the wait pass them on.
static LogicalResult verifyRegisterFragments(Operation *op,
                                             ValueRange fragments) {
  for (auto [i, fragment] : llvm::enumerate(fragments)) {
    auto type = cast<VectorType>(fragment.getType());
    Type element = type.getElementType();
    if (!element.isIntOrFloat() || element.isInteger(1) ||
        type.getNumElements() * element.getIntOrFloatBitWidth() % 32 != 0)
      return op->emitOpError()
             << "expected fragment #" << i
             << " to fill whole 32-bit registers with integer or float "
                "elements, got "
             << type;
  }
  return success();
}

LogicalResult WarpgroupFenceOp::verify() {
  return verifyRegisterFragments(*this, getFragments());
}

LogicalResult StageRingOp::verify() {
  // mbarriers are 8-byte aligned.
  APInt offset;
  if (matchPattern(getOffset(), m_ConstantInt(&offset)) &&
      offset.getSExtValue() % 8 != 0)
    return emitOpError() << "mbarriers are 8-byte words; offset "
                         << offset.getSExtValue() << " is not a multiple of 8";
  return success();
}

/// The ring of an op on a stage ring comes from a sage.stage_ring, whose
/// offsets its lowering reads; `released`: the ring has "empty" barriers.
static LogicalResult verifyRingUse(Operation *op, Value ring,
                                   bool released = false) {
  if (!ring.getDefiningOp<StageRingOp>())
    return op->emitOpError()
           << "expected the ring of a sage.stage_ring, not one passed "
              "through a block argument";
  auto type = cast<StageRingType>(ring.getType());
  if (released && type.getConsumers() == 0)
    return op->emitOpError() << "needs the stages' empty barriers; " << type
                             << " has no consumers";
  return success();
}

LogicalResult StageRingInitOp::verify() {
  return verifyRingUse(*this, getRing());
}
LogicalResult StageRingArmOp::verify() {
  return verifyRingUse(*this, getRing());
}
LogicalResult StageRingWaitOp::verify() {
  return verifyRingUse(*this, getRing());
}
LogicalResult StageRingReleaseOp::verify() {
  return verifyRingUse(*this, getRing(), /*released=*/true);
}
LogicalResult StageRingAcquireOp::verify() {
  return verifyRingUse(*this, getRing(), /*released=*/true);
}

LogicalResult WarpgroupCommitOp::verify() {
  // The token only orders waits after the commit: it lowers to nothing, so
  // it may not flow anywhere else (a loop's iter_args, a region's results).
  for (Operation *user : getGroup().getUsers())
    if (!isa<WarpgroupWaitOp>(user))
      return emitOpError() << "token is used by '" << user->getName()
                           << "'; only sage.warpgroup_wait takes it";
  return success();
}

/// Whether `commit` comes no later than `group` in its block: groups
/// complete in commit order, so a wait for `group` covers it too.
static bool isCommittedBy(WarpgroupCommitOp commit, WarpgroupCommitOp group) {
  return commit == group || (commit->getBlock() == group->getBlock() &&
                             commit->isBeforeInBlock(group));
}

LogicalResult WarpgroupWaitOp::verify() {
  if (failed(verifyRegisterFragments(*this, getFragments())))
    return failure();
  auto commit = getGroup().getDefiningOp<WarpgroupCommitOp>();
  if (!commit)
    return emitOpError() << "expected the token of a sage.warpgroup_commit";
  // In one block, at most the groups committed after `group` may still
  // run once the wait returns.
  if (commit->getBlock() == (*this)->getBlock()) {
    uint64_t later = 0;
    for (Operation *op = commit->getNextNode(); op && op != *this;
         op = op->getNextNode())
      later += isa<WarpgroupCommitOp>(op);
    if (getPending() > later)
      return emitOpError() << "leaves " << getPending()
                           << " groups pending, but only " << later
                           << " were committed after its group";
  }
  // A wgmma result is readable once its group, or a later one, is waited
  // for.
  for (auto [i, fragment] : llvm::enumerate(getFragments())) {
    if (!fragment.getDefiningOp<WarpgroupMmaOp>())
      continue;
    bool covered = llvm::any_of(fragment.getUsers(), [&](Operation *user) {
      auto named = dyn_cast<WarpgroupCommitOp>(user);
      return named && isCommittedBy(named, commit);
    });
    if (!covered)
      return emitOpError() << "waits on a group that does not cover fragment #"
                           << i << ", a wgmma result no earlier commit names";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OnlineSoftmaxOp / AccumulateOp
//===----------------------------------------------------------------------===//

/// Checks that `rows` is `matrix` without its last dimension.
static LogicalResult verifyRowVector(Operation *op, StringRef name,
                                     RankedTensorType rows,
                                     RankedTensorType matrix) {
  if (matrix.getRank() < 1 ||
      failed(verifyCompatibleShape(rows.getShape(),
                                   matrix.getShape().drop_back())))
    return op->emitOpError()
           << "expected " << name << " of shape "
           << shapeString(matrix.getShape().drop_back()) << " (one per row of "
           << matrix << "), got " << rows;
  return success();
}

/// Checks the fragment form of an op on an MMA's accumulators
/// (docs/Levels.md, L4): a warp MMA named by `fragment` and `values` whole
/// accumulator tiles of it.
static LogicalResult verifyAccumulatorFragment(Operation *op,
                                               std::optional<MmaAttr> fragment,
                                               StringRef valuesName,
                                               VectorType values) {
  if (!fragment)
    return op->emitOpError()
           << "on fragments needs `fragment`, the MMA whose accumulator "
              "layout they have";
  if (fragment->getScope() != MmaScope::Warp)
    return op->emitOpError()
           << "expected the fragments of a warp MMA, got one of scope "
           << stringifyMmaScope(fragment->getScope());
  int64_t m = fragment->getM(), n = fragment->getN(), perTile = m * n / 32;
  if (values.getNumElements() % perTile != 0)
    return op->emitOpError() << "expected " << valuesName << " of whole " << m
                             << "x" << n << " accumulator tiles (" << perTile
                             << " values a lane), got " << values;
  return success();
}

/// `rows` holds one value per accumulator row of the lane: m / 8.
static LogicalResult verifyFragmentRows(Operation *op, MmaAttr fragment,
                                        StringRef rowsName, Type rows) {
  auto expected = VectorType::get({fragment.getM() / 8},
                                  Float32Type::get(op->getContext()));
  if (rows != expected)
    return op->emitOpError()
           << "expected " << rowsName << " of type " << expected
           << " (the lane's rows of the accumulator), got " << rows;
  return success();
}

/// Tiles and fragments do not mix, and only fragments have a layout.
static LogicalResult verifyOneForm(Operation *op,
                                   std::optional<MmaAttr> fragment,
                                   ArrayRef<Value> values) {
  bool fragments = isa<VectorType>(values.front().getType());
  for (Value value : values.drop_front())
    if (isa<VectorType>(value.getType()) != fragments)
      return op->emitOpError()
             << "expected all operands tiles (tensors) or all fragments "
                "(vectors), got "
             << values.front().getType() << " and " << value.getType();
  if (!fragments && fragment)
    return op->emitOpError() << "has a `fragment` layout but operates on tiles";
  return success();
}

//===----------------------------------------------------------------------===//
// FromLanesOp
//===----------------------------------------------------------------------===//

LogicalResult FromLanesOp::verify() {
  RankedTensorType tile = getTile().getType();
  if (tile.getEncoding())
    return emitOpError() << "makes a tile the CTA shares, without an "
                            "encoding; got "
                         << tile;
  if (auto rows = dyn_cast<RowFragmentAttr>(getLayout());
      rows && rows.getPartialSums())
    return emitOpError() << "cannot make a tile of partial row sums ("
                         << getLayout() << "); reduce them over the quad first";
  VectorType expected =
      getLayout().getLaneType(tile.getShape(), tile.getElementType());
  if (!expected)
    return emitOpError() << "cannot hold a tile of " << tile << " as "
                         << getLayout();
  if (expected != getFragment().getType())
    return emitOpError() << "expected each lane's fragment of " << tile
                         << " as " << getLayout() << " to be " << expected
                         << ", got " << getFragment().getType();
  return success();
}

LogicalResult MaskScoresOp::verify() {
  if (failed(verifyCausalAlignment(*this, getCausal(), getCausalAlignment())))
    return failure();
  if (failed(verifyOneForm(*this, getFragment(), {getScores()})))
    return failure();
  if (auto scores = dyn_cast<VectorType>(getScores().getType()))
    return verifyAccumulatorFragment(*this, getFragment(), "scores", scores);
  return success();
}

LogicalResult OnlineSoftmaxOp::verify() {
  if (failed(verifyOneForm(*this, getFragment(), {getScores(), getMax()})))
    return failure();
  // The sums are the rows of max, or the lanes' parts of them.
  Type maxType = getMax().getType(), sumType = getSum().getType();
  auto maxTile = dyn_cast<RankedTensorType>(maxType);
  auto sumTile = dyn_cast<RankedTensorType>(sumType);
  auto maxRows = maxTile
                     ? dyn_cast_or_null<RowFragmentAttr>(maxTile.getEncoding())
                     : RowFragmentAttr();
  auto sumRows = sumTile
                     ? dyn_cast_or_null<RowFragmentAttr>(sumTile.getEncoding())
                     : RowFragmentAttr();
  bool partsOfMax = maxRows && sumRows && !maxRows.getPartialSums() &&
                    sumRows == maxRows.withPartialSums(true) &&
                    sumTile.getShape() == maxTile.getShape();
  if (maxRows && maxRows.getPartialSums())
    return emitOpError() << "expected max as the rows' values, got partial "
                            "row sums "
                         << maxType;
  if (sumType != maxType && !partsOfMax)
    return emitOpError() << "expected sum of type " << maxType
                         << " (max's) or its rows' partial sums, got "
                         << sumType;
  if (FloatAttr probScale = getProbScaleAttr();
      probScale && !(probScale.getValueAsDouble() > 0 &&
                     std::isfinite(probScale.getValueAsDouble())))
    return emitOpError() << "expected a positive finite prob_scale, got "
                         << probScale.getValueAsDouble();
  if (auto scores = dyn_cast<VectorType>(getScores().getType()))
    return failure(failed(verifyAccumulatorFragment(*this, getFragment(),
                                                    "scores", scores)) ||
                   failed(verifyFragmentRows(*this, *getFragment(), "max",
                                             getMax().getType())));
  return verifyRowVector(*this, "max",
                         cast<RankedTensorType>(getMax().getType()),
                         cast<RankedTensorType>(getScores().getType()));
}

LogicalResult AccumulateOp::verify() {
  if (failed(verifyOneForm(*this, getFragment(),
                           {getPartial(), getBuffer(), getRescale()})))
    return failure();
  auto partialType = cast<ShapedType>(getPartial().getType());
  auto bufferType = cast<ShapedType>(getBuffer().getType());
  if (failed(
          verifyCompatibleShape(partialType.getShape(), bufferType.getShape())))
    return emitOpError() << "expected partial of shape "
                         << shapeString(bufferType.getShape())
                         << " (the buffer's), got " << partialType;
  Type accType = getScheme().getAccType();
  if (partialType.getElementType() != accType)
    return emitOpError() << "expected a " << accType << " partial for "
                         << getScheme() << ", got "
                         << partialType.getElementType();
  if (auto buffer = dyn_cast<VectorType>(bufferType)) {
    if (failed(
            verifyAccumulatorFragment(*this, getFragment(), "buffer", buffer)))
      return failure();
    // On fragments, one op is one flush: `partial` is the accumulator of
    // the MMAs since the last one.
    if (getFragment()->getAcc() != accType)
      return emitOpError() << "expected the fragment of an MMA accumulating "
                              "in "
                           << accType << " for " << getScheme() << ", got "
                           << *getFragment();
    return verifyFragmentRows(*this, *getFragment(), "rescale",
                              getRescale().getType());
  }
  return verifyRowVector(*this, "rescale",
                         cast<RankedTensorType>(getRescale().getType()),
                         cast<RankedTensorType>(bufferType));
}

//===----------------------------------------------------------------------===//
// QuantizedAttentionOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizedAttentionOp::verify() {
  if (failed(verifyCausalAlignment(*this, getCausal(), getCausalAlignment())))
    return failure();
  auto check = [&](StringRef name, Value value,
                   ArrayRef<int64_t> expected) -> LogicalResult {
    auto type = cast<RankedTensorType>(value.getType());
    if (succeeded(verifyCompatibleShape(type.getShape(), expected)))
      return success();
    return emitOpError() << "expected " << name << " of shape "
                         << shapeString(expected) << ", got " << type;
  };
  RankedTensorType queryType = getQValues().getType();
  RankedTensorType keyType = getKValues().getType();
  RankedTensorType valueType = getVValues().getType();
  for (RankedTensorType type : {queryType, keyType})
    if (type.getRank() != 4)
      return emitOpError() << "expected operands laid out [batch, heads, "
                              "tokens, features], got "
                           << type;
  MmaOrderedAttr valueLayout = getVLayoutAttr();
  if (valueType.getRank() != (valueLayout ? 5 : 4))
    return emitOpError()
           << "expected v_values laid out "
           << (valueLayout ? "[batch, heads, features, groups, k] (stored "
                             "in v_layout)"
                           : "[batch, heads, tokens, features]")
           << ", got " << valueType;
  ArrayRef<int64_t> q = queryType.getShape(), k = keyType.getShape();
  int64_t batch = q[0], heads = q[1], queries = q[2], features = q[3];
  int64_t kvHeads = k[1], keys = k[2], valueDim = getValueDim();
  SmallVector<int64_t> keyShape = {batch, kvHeads, keys, features};
  // V's logical shape, whichever way it is stored.
  SmallVector<int64_t> valueShape = {batch, kvHeads, keys, valueDim};
  SmallVector<int64_t> storedValueShape = valueShape;
  if (valueLayout) {
    int64_t groupKeys = valueLayout.getK();
    unsigned bits = valueType.getElementTypeBitWidth();
    if (valueLayout.getAlong() != DimRole::Tokens || groupKeys * bits != 256)
      return emitOpError() << "expected v_layout along tokens with k = "
                           << 256 / bits << " (a 32-byte MMA chunk of "
                           << valueType.getElementType() << "), got "
                           << valueLayout;
    if (valueLayout.getTiling() != OperandTiling::Rows)
      return emitOpError() << "expected v_layout's rows one after another "
                              "(the shape is [batch, heads, features, "
                              "groups, k]), got "
                           << valueLayout;
    storedValueShape = {batch, kvHeads, valueDim,
                        ceilDivDynamic(keys, groupKeys), groupKeys};
  }
  SmallVector<int64_t> resultShape = {batch, heads, queries, valueDim};
  if (failed(check("k_values", getKValues(), keyShape)) ||
      failed(check("v_values", getVValues(), storedValueShape)) ||
      failed(check("result", getResult(), resultShape)))
    return failure();
  if (failed(verifyHeadRatio(*this, heads, kvHeads)))
    return failure();
  if (failed(verifyQuantized(*this, q, queryType, getQScales().getType(),
                             getQQuant())) ||
      failed(verifyQuantized(*this, k, keyType, getKScales().getType(),
                             getKQuant())) ||
      failed(verifyQuantized(
          *this, valueShape,
          RankedTensorType::get(valueShape, valueType.getElementType()),
          getVScales().getType(), getVQuant())))
    return failure();

  if (bool(getQMean()) != bool(getKey()))
    return emitOpError("q_smooth needs both the Q block means and the "
                       "unquantized key");
  // Microscale blocks are not tiles: block_q and block_k name those.
  bool microscaledQuery =
      getQQuant().getGranularity() == Granularity::Microscale;
  if (microscaledQuery != bool(getBlockQAttr()) ||
      microscaledQuery != bool(getBlockKAttr()))
    return emitOpError() << "expected block_q and block_k with microscaled "
                            "Q and K (whose blocks are not the tiles), and "
                            "only then";
  if (getQMean()) {
    int64_t block =
        microscaledQuery ? int64_t(*getBlockQ()) : getQQuant().getBlock();
    if (block == 0)
      return emitOpError("Q smoothing needs Q blocks: q_quant has no 'block'");
    int64_t blocks = ceilDivDynamic(queries, block);
    if (failed(check("q_mean", getQMean(), {batch, heads, blocks, features})) ||
        failed(check("key", getKey(), keyShape)))
      return failure();
  }
  if (getKMean() &&
      failed(check("k_mean", getKMean(), {batch, kvHeads, 1, features})))
    return failure();
  if (getVMean() &&
      failed(check("v_mean", getVMean(), {batch, kvHeads, 1, valueDim})))
    return failure();
  if (getLse() && failed(check("lse", getLse(), {batch, heads, queries})))
    return failure();
  if (getQuery()) {
    if (!getLse())
      return emitOpError("lse_query is read only for the lse result, which "
                         "the op does not have");
    if (failed(
            check("lse_query", getQuery(), {batch, heads, queries, features})))
      return failure();
  } else if (getLse() && getKMean()) {
    return emitOpError("the lse of K-smoothed scores needs the unquantized "
                       "query (lse_query) to add back scale * (q - q_mean) . "
                       "k_mean");
  }

  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> scores = {batch, heads, queries, keys};
    if (maskType.getRank() != 4)
      return emitOpError() << "expected a mask of rank 4 ([batch | 1, heads "
                              "| 1, queries, keys]), got "
                           << maskType;
    for (unsigned i = 0; i < 4; ++i) {
      int64_t size = maskType.getDimSize(i);
      if ((i < 2 && size == 1) || compatible(size, scores[i]))
        continue;
      return emitOpError() << "mask dimension " << i << " has size "
                           << extent(size) << ", expected " << extent(scores[i])
                           << (i < 2 ? " or 1" : "") << " (scores are "
                           << shapeString(scores) << ")";
    }
  }

  const APFloat &scale = getScaleAttr().getValue();
  if (!scale.isFinite() || scale.isZero())
    return emitOpError() << "scale must be finite and non-zero, got "
                         << scale.convertToDouble();
  QuantAttr probs = getPQuant(), values = getVQuant();
  // NVFP4 (docs/Algorithm.md section 5): all four operands microscaled,
  // Q and K along features, P along its keys, V along its tokens, summed
  // in f32.
  bool microscaled = values.getGranularity() == Granularity::Microscale;
  if (microscaled || probs.getGranularity() == Granularity::Microscale ||
      getQQuant().getGranularity() == Granularity::Microscale ||
      getKQuant().getGranularity() == Granularity::Microscale) {
    for (QuantAttr quant : {getQQuant(), getKQuant(), probs, values})
      if (quant.getGranularity() != Granularity::Microscale)
        return emitOpError() << "microscales Q, K, P and V together "
                                "(NVFP4), got "
                             << quant;
    if (!values.isAlongTokens() || probs.isAlongTokens() ||
        getQQuant().isAlongTokens() || getKQuant().isAlongTokens())
      return emitOpError() << "expected microscale blocks along the "
                              "contractions: Q, K and P along features, V "
                              "along tokens; got "
                           << values;
    if (!getPvAccum().getAccType().isF32())
      return emitOpError() << "sums NVFP4 P V in f32, got " << getPvAccum();
    return success();
  }
  // int8-fp16: P and V in f16, P unscaled, V unscaled (per_tensor) or,
  // for an f16 accumulator, scaled per channel.
  bool f16Values = values.getElementType().isF16();
  if (probs.getElementType().isF16() != f16Values)
    return emitOpError() << "expected P and V both in f16 or both quantized, "
                            "got "
                         << probs.getElementType() << " and "
                         << values.getElementType();
  bool unscaledValues =
      f16Values && values.getGranularity() == Granularity::PerTensor;
  if (probs.getGranularity() != Granularity::PerTensor ||
      (values.getGranularity() != Granularity::PerChannel && !unscaledValues))
    return emitOpError() << "expected per_tensor P and per_channel V scales "
                            "(or per_tensor f16 V), got "
                         << stringifyGranularity(probs.getGranularity())
                         << " and "
                         << stringifyGranularity(values.getGranularity());
  if (f16Values && probs.getRangeValue() != 1.0)
    return emitOpError() << "expected f16 P unscaled (range 1), got " << probs;
  if (unscaledValues && getPvAccum().getEvery())
    return emitOpError() << "sums unscaled f16 V in " << getPvAccum()
                         << ", which it can overflow: scale V per_channel";
  double product = probs.getRangeValue() * values.getRangeValue();
  if (product > getPvAccum().getMaxRangeProduct())
    return emitOpError() << getPvAccum()
                         << " overflows: P_r * V_r = " << product << " exceeds "
                         << getPvAccum().getMaxRangeProduct();
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

int64_t WarpSpecializeOp::getThreadCount() {
  int64_t warps = 0;
  for (int32_t roleWarps : getWarps())
    warps += roleWarps;
  return 32 * warps;
}

int64_t WarpSpecializeOp::getRegisterCount() {
  int64_t registers = 0;
  for (auto [warps, budget] : llvm::zip_equal(getWarps(), getRegisters()))
    registers += int64_t(warps) * 32 * budget;
  return registers;
}

int64_t WarpSpecializeOp::getCtasPerSm() {
  // An SM holds at most 2048 threads and 32 CTAs.
  int64_t byRegisters = 65536 / std::max<int64_t>(1, getRegisterCount());
  int64_t byThreads = 2048 / std::max<int64_t>(1, getThreadCount());
  return std::max<int64_t>(1, std::min({byRegisters, byThreads, int64_t(32)}));
}

int64_t WarpSpecializeOp::getEntryRegisters(int64_t threads, int64_t ctas) {
  return std::min<int64_t>(256, 65536 / (threads * ctas) / 8 * 8);
}

int64_t WarpSpecializeOp::getLargestBudget(int64_t threads, int64_t ctas,
                                           int64_t roleThreads,
                                           int64_t otherRegisters) {
  int64_t pool = threads * getEntryRegisters(threads, ctas);
  return std::min<int64_t>(256, (pool - otherRegisters) / roleThreads / 8 * 8);
}

LogicalResult WarpSpecializeOp::verify() {
  ArrayRef<int32_t> warps = getWarps(), registers = getRegisters();
  if (getRoles().empty())
    return emitOpError() << "expected at least one role";
  if (warps.size() != getRoles().size() ||
      registers.size() != getRoles().size())
    return emitOpError() << "expected one warp count and one register budget "
                            "a role, got "
                         << warps.size() << " and " << registers.size()
                         << " for " << getRoles().size() << " roles";
  for (auto [index, role] : llvm::enumerate(getRoles())) {
    Block &body = role.front();
    if (body.getNumArguments() != 1 ||
        !body.getArgument(0).getType().isInteger(32))
      return emitOpError() << "expected role " << index
                           << "'s region to take the thread's index in its "
                              "role, one i32";
    if (warps[index] <= 0 || warps[index] % 4 != 0)
      return emitOpError() << "expected role " << index
                           << " on whole warpgroups (setmaxnreg sets a "
                              "warpgroup's budget), got "
                           << warps[index] << " warps";
    if (registers[index] < 24 || registers[index] > 256 ||
        registers[index] % 8 != 0)
      return emitOpError() << "expected role " << index
                           << "'s register budget a multiple of 8 in [24, "
                              "256], got "
                           << registers[index];
  }
  if (getThreadCount() > 1024)
    return emitOpError() << "expected at most 1024 threads a CTA, got "
                         << getThreadCount();
  int64_t total = getRegisterCount();
  if (total > 65536)
    return emitOpError() << "expected the roles' registers to fit an SM's "
                            "65536, got "
                         << total;
  int64_t ctas = getCtasPerSm(), threads = getThreadCount();
  int64_t entry = getEntryRegisters(threads, ctas);
  if (total > threads * entry)
    return emitOpError() << "expected the roles' registers (" << total
                         << ") within the " << threads * entry
                         << " the CTA starts with (" << threads << " threads x "
                         << entry << " at " << ctas
                         << " CTAs an SM): setmaxnreg only moves registers "
                            "between its warpgroups";
  // The enclosing kernel's block (gpu.func's known_block_size) is the roles'.
  // Looked up by name: the dialect does not depend on the GPU dialect.
  for (Operation *parent = (*this)->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto block =
            parent->getAttrOfType<DenseI32ArrayAttr>("known_block_size")) {
      ArrayRef<int32_t> size = block.asArrayRef();
      if (size.size() != 3 || size[0] != getThreadCount() || size[1] != 1 ||
          size[2] != 1)
        return emitOpError() << "expected the kernel's block to be the roles' "
                             << getThreadCount() << " threads, got " << block;
      break;
    }
  return success();
}
