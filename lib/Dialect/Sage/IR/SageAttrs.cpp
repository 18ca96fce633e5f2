//===- SageAttrs.cpp - sage attributes: syntax and legality ---------------===//
//
// Every rule that ties formats, granularities and ranges together is checked
// here, once, so that passes can rely on any attribute they meet.
//
//===----------------------------------------------------------------------===//

#include "sage/Dialect/Sage/IR/SageAttrs.h"
#include "sage/Dialect/Sage/IR/SageDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::sage;

#include "sage/Dialect/Sage/IR/SageEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "sage/Dialect/Sage/IR/SageAttrs.cpp.inc"

void SageDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "sage/Dialect/Sage/IR/SageAttrs.cpp.inc"
      >();
}

/// Largest magnitude an accumulator of `accType` may reach without overflow,
/// divided by the number of products summed before a flush to f32: the bound
/// on P_r * V_r. One m16n8k32 MMA sums 32 products per output.
static double maxRangeProduct(bool f16Accumulator, unsigned every) {
  if (!f16Accumulator)
    return std::numeric_limits<double>::infinity();
  return 65504.0 / (32.0 * std::max(every, 1u));
}

/// Shortest decimal spelling of `value` ("448", "4.5"), for diagnostics.
static std::string str(double value) {
  SmallString<16> text;
  APFloat(value).toString(text);
  return std::string(text);
}

/// Prints a float so that it reads back as a float ("4.5", "448.0").
static void printRange(AsmPrinter &printer, const APFloat &value) {
  SmallString<16> text;
  value.toString(text);
  if (!StringRef(text).contains_insensitive('e') &&
      !StringRef(text).contains('.'))
    text += ".0";
  printer << text;
}

/// Parses `, key = value` entries until `>`; `parseValue` consumes the value
/// of one key and fails (after emitting an error) on unknown keys.
static ParseResult
parseKeyValueList(AsmParser &parser,
                  function_ref<ParseResult(StringRef, SMLoc)> parseValue) {
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc) << "duplicate key '" << key << "'";
    if (parseValue(key, keyLoc))
      return failure();
  }
  return parser.parseGreater();
}

//===----------------------------------------------------------------------===//
// QuantAttr
//===----------------------------------------------------------------------===//

double QuantAttr::getLargestFinite(Type elementType) {
  if (elementType.isSignlessInteger(8))
    return 127;
  if (elementType.isSignlessInteger(4))
    return 7;
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType, Float16Type>(
          elementType))
    return APFloat::getLargest(cast<FloatType>(elementType).getFloatSemantics())
        .convertToDouble();
  return 0;
}

int64_t QuantAttr::getMmaK() const {
  return 256 / getElementType().getIntOrFloatBitWidth();
}

static int64_t ceilDivOrDynamic(int64_t size, int64_t divisor) {
  if (ShapedType::isDynamic(size))
    return ShapedType::kDynamic;
  return llvm::divideCeil(size, divisor);
}

SmallVector<int64_t> QuantAttr::getScaleShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> result(shape.drop_back(2));
  int64_t tokens = shape[shape.size() - 2];
  int64_t features = shape.back();
  int64_t tokenGroups = 1, featureGroups = 1;
  switch (getGranularity()) {
  case Granularity::PerTensor:
    break;
  case Granularity::PerToken:
    tokenGroups = tokens;
    break;
  case Granularity::PerChannel:
    featureGroups = features;
    break;
  case Granularity::PerBlock:
    tokenGroups = ceilDivOrDynamic(tokens, getBlock());
    break;
  case Granularity::PerWarp:
    tokenGroups = ceilDivOrDynamic(tokens, getWarp());
    break;
  case Granularity::PerThread: {
    // Operand a: 8 row classes (r mod 8) per warp segment; operand b: 4
    // column pairs (tokens 8k+2t, 8k+2t+1) per block.
    int64_t perBlock =
        getOperand() == MmaOperand::A ? getBlock() / getWarp() * 8 : 4;
    tokenGroups = ceilDivOrDynamic(tokens, getBlock());
    if (!ShapedType::isDynamic(tokenGroups))
      tokenGroups *= perBlock;
    break;
  }
  case Granularity::Microscale:
    if (isAlongTokens()) {
      tokenGroups = ceilDivOrDynamic(tokens, getBlock());
      featureGroups = features;
    } else {
      tokenGroups = tokens;
      featureGroups = ceilDivOrDynamic(features, getBlock());
    }
    break;
  }
  result.push_back(tokenGroups);
  result.push_back(featureGroups);
  return result;
}

LogicalResult QuantAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, Granularity granularity,
                                std::optional<MmaOperand> operand,
                                int64_t block, int64_t warp, Type scaleType,
                                APFloat range, std::optional<DimRole> along) {
  double largest = getLargestFinite(elementType);
  if (largest == 0)
    return emitError() << "unsupported element type " << elementType
                       << "; expected i8, i4, f8E4M3FN, f8E5M2, f4E2M1FN or "
                          "f16";
  if (!isa<Float32Type, Float8E4M3FNType, Float8E8M0FNUType>(scaleType))
    return emitError() << "unsupported scale type " << scaleType
                       << "; expected f32, f8E4M3FN or f8E8M0FNU";
  double rangeValue = range.convertToDouble();
  if (!(rangeValue > 0) || rangeValue > largest)
    return emitError() << "range " << str(rangeValue) << " must be in (0, "
                       << str(largest) << "], the finite range of "
                       << elementType;
  if (block < 0 || warp < 0)
    return emitError() << "'block' and 'warp' must be positive, got block = "
                       << block << ", warp = " << warp;

  StringRef name = stringifyGranularity(granularity);
  if (along && granularity != Granularity::Microscale)
    return emitError() << "'along' applies to microscale only, got " << name;
  if (along && *along != DimRole::Tokens && *along != DimRole::Features)
    return emitError() << "microscale blocks run along tokens or features, "
                          "got "
                       << stringifyDimRole(*along);
  // f16 is a rounding with one static scale (the int8-fp16 recipes' P, V),
  // or V scaled per channel (for an f16 accumulator).
  if (elementType.isF16() && granularity != Granularity::PerTensor &&
      granularity != Granularity::PerChannel)
    return emitError() << "f16 takes per_tensor or per_channel scales, got "
                       << name;
  bool isPerThread = granularity == Granularity::PerThread;
  bool takesBlock = isPerThread || granularity == Granularity::PerBlock ||
                    granularity == Granularity::Microscale;
  bool takesWarp = granularity == Granularity::PerWarp ||
                   (isPerThread && operand == MmaOperand::A);
  if (operand && !isPerThread)
    return emitError() << "'operand' applies to per_thread only, got " << name;
  // per_warp and per_token may name the block their tokens are tiled by
  // (the kernels' Q or K/V tile); the groups stay `warp` tokens or one.
  bool mayTakeBlock = granularity == Granularity::PerWarp ||
                      granularity == Granularity::PerToken;
  if (block && !takesBlock && !mayTakeBlock)
    return emitError() << "'block' does not apply to " << name;
  if (mayTakeBlock && block && warp && block % warp != 0)
    return emitError() << "per_warp 'block' (the tile its warps are in) must "
                          "be a multiple of 'warp', got block = "
                       << block << ", warp = " << warp;
  if (warp && !takesWarp)
    return emitError() << "'warp' does not apply to " << name
                       << (isPerThread ? " operand b" : "");
  if (takesBlock && !block)
    return emitError() << name << " needs 'block'";
  if (takesWarp && !warp)
    return emitError() << name << " needs 'warp'";

  if (granularity == Granularity::Microscale) {
    if (elementType.isInteger())
      return emitError() << "microscale needs a float element type, got "
                         << elementType;
    if (isa<Float8E4M3FNType>(scaleType)) {
      if (!isa<Float4E2M1FNType>(elementType))
        return emitError() << "f8E4M3FN block scales (NVFP4) need f4E2M1FN "
                              "values, got "
                           << elementType;
      if (block != 16)
        return emitError() << "NVFP4 microscaling needs blocks of 16, got "
                           << block;
    } else if (isa<Float8E8M0FNUType>(scaleType)) {
      if (block != 32)
        return emitError() << "MX microscaling (f8E8M0FNU scales) needs "
                              "blocks of 32, got "
                           << block;
    } else {
      return emitError() << "microscale needs f8E4M3FN or f8E8M0FNU scales, "
                            "got "
                         << scaleType;
    }
    return success();
  }

  if (!scaleType.isF32())
    return emitError() << name << " scales must be f32, got " << scaleType;
  if (!isPerThread)
    return success();
  if (!operand)
    return emitError()
           << "per_thread needs 'operand' (a for rows of Q, b for tokens of K)";
  if (isa<Float4E2M1FNType>(elementType))
    return emitError() << "per_thread needs an mma.sync operand format "
                          "(i8, i4, f8E4M3FN, f8E5M2), got "
                       << elementType;
  // The groups follow the m16n8kX accumulator layout: a warp's rows are a
  // whole number of 16-row tiles, a block a whole number of 8-column tiles.
  if (*operand == MmaOperand::A) {
    if (warp % 16 != 0)
      return emitError() << "per_thread operand a needs 'warp' to be a "
                            "multiple of the mma M (16), got "
                         << warp;
    if (block % warp != 0)
      return emitError() << "'block' (" << block
                         << ") must be a multiple of 'warp' (" << warp << ")";
  } else if (block % 8 != 0) {
    return emitError() << "per_thread operand b needs 'block' to be a "
                          "multiple of the mma N (8), got "
                       << block;
  }
  return success();
}

Attribute QuantAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  MLIRContext *ctx = parser.getContext();
  Type elementType;
  if (parser.parseLess() || parser.parseType(elementType) ||
      parser.parseComma())
    return {};
  FailureOr<Granularity> granularity = FieldParser<Granularity>::parse(parser);
  if (failed(granularity))
    return {};
  std::optional<MmaOperand> operand;
  std::optional<DimRole> along;
  int64_t block = 0, warp = 0;
  Type scaleType = Float32Type::get(ctx);
  double range = getLargestFinite(elementType);
  auto parseValue = [&](StringRef key, SMLoc keyLoc) -> ParseResult {
    if (key == "operand") {
      FailureOr<MmaOperand> value = FieldParser<MmaOperand>::parse(parser);
      if (failed(value))
        return failure();
      operand = *value;
      return success();
    }
    if (key == "block")
      return parser.parseInteger(block);
    if (key == "warp")
      return parser.parseInteger(warp);
    if (key == "scale")
      return parser.parseType(scaleType);
    if (key == "range")
      return parser.parseFloat(range);
    if (key == "along") {
      FailureOr<DimRole> value = FieldParser<DimRole>::parse(parser);
      if (failed(value))
        return failure();
      // Features is the default: one spelling for one attribute.
      if (*value != DimRole::Features)
        along = *value;
      return success();
    }
    return parser.emitError(keyLoc)
           << "unknown key '" << key
           << "'; expected operand, block, warp, scale, range or along";
  };
  if (parseKeyValueList(parser, parseValue))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, ctx, elementType,
                    *granularity, operand, block, warp, scaleType,
                    APFloat(range), along);
}

void QuantAttr::print(AsmPrinter &printer) const {
  printer << "<" << getElementType() << ", "
          << stringifyGranularity(getGranularity());
  if (getOperand())
    printer << ", operand = " << stringifyMmaOperand(*getOperand());
  if (getBlock())
    printer << ", block = " << getBlock();
  if (getWarp())
    printer << ", warp = " << getWarp();
  if (!getScaleType().isF32())
    printer << ", scale = " << getScaleType();
  if (getRangeValue() != getLargestFinite(getElementType())) {
    printer << ", range = ";
    printRange(printer, getRange());
  }
  if (getAlong())
    printer << ", along = " << stringifyDimRole(*getAlong());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// AccumAttr
//===----------------------------------------------------------------------===//

LogicalResult AccumAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type accType, unsigned every) {
  if (!accType.isF32() && !accType.isF16())
    return emitError() << "PV accumulator must be f32 or f16, got " << accType;
  if (accType.isF16() && every == 0)
    return emitError() << "f16 accumulation needs 'every' >= 1 (MMAs summed "
                          "in f16 before each flush to f32)";
  if (accType.isF32() && every != 0)
    return emitError() << "'every' applies to f16 accumulation only; f32 "
                          "flushes once per K/V block, got every = "
                       << every;
  return success();
}

double AccumAttr::getMaxRangeProduct() const {
  return maxRangeProduct(getAccType().isF16(), getEvery());
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<DimRole> dims) {
  for (DimRole role :
       {DimRole::Batch, DimRole::Heads, DimRole::Tokens, DimRole::Features}) {
    int64_t count = llvm::count(dims, role);
    if (count > 1)
      return emitError() << "dimension role '" << stringifyDimRole(role)
                         << "' appears " << count << " times";
    if (count == 0 && (role == DimRole::Tokens || role == DimRole::Features))
      return emitError() << "layout needs a '" << stringifyDimRole(role)
                         << "' dimension";
  }
  return success();
}

std::optional<unsigned> LayoutAttr::getPosition(DimRole role) const {
  auto it = llvm::find(getDims(), role);
  if (it == getDims().end())
    return std::nullopt;
  return it - getDims().begin();
}

//===----------------------------------------------------------------------===//
// RecipeAttr
//===----------------------------------------------------------------------===//

static bool isF16Acc(Variant variant) {
  return variant == Variant::Int8Fp8F16Acc ||
         variant == Variant::Int4Fp8F16Acc ||
         variant == Variant::Int8Fp16F16Acc;
}

static bool hasF16Values(Variant variant) {
  return variant == Variant::Int8Fp16 || variant == Variant::Int8Fp16F16Acc;
}

Granularity RecipeAttr::getDefaultQKGranularity(Variant variant) {
  return variant == Variant::NvFp4 ? Granularity::Microscale
                                   : Granularity::PerThread;
}

double RecipeAttr::getDefaultPRange(Variant variant) {
  if (variant == Variant::NvFp4)
    return 6.0;
  if (hasF16Values(variant))
    return 1.0;
  return isF16Acc(variant) ? 224.0 : 448.0;
}

double RecipeAttr::getDefaultVRange(Variant variant) {
  if (variant == Variant::NvFp4)
    return 6.0;
  // f16's largest finite value: V is rounded to f16 unscaled; with an f16
  // accumulator, V is scaled so that 32 products (two m16n8k16 MMAs) of
  // at most 1023 fit its 65504.
  if (variant == Variant::Int8Fp16)
    return 65504.0;
  if (variant == Variant::Int8Fp16F16Acc)
    return 1023.0;
  return isF16Acc(variant) ? 4.5 : 448.0;
}

RecipeAttr RecipeAttr::get(MLIRContext *ctx, Variant variant) {
  return get(ctx, variant, getDefaultQKGranularity(variant),
             /*smoothQ=*/true, /*smoothK=*/true, /*smoothV=*/false,
             APFloat(getDefaultPRange(variant)),
             APFloat(getDefaultVRange(variant)));
}

LogicalResult RecipeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Variant variant, Granularity qkGranularity,
                                 bool smoothQ, bool smoothK, bool smoothV,
                                 APFloat pRange, APFloat vRange) {
  StringRef variantName = stringifyVariant(variant);
  StringRef qkName = stringifyGranularity(qkGranularity);
  if (variant == Variant::NvFp4) {
    if (qkGranularity != Granularity::Microscale)
      return emitError() << "nvfp4 quantizes Q and K with microscale, got "
                         << qkName;
    if (pRange.convertToDouble() != getDefaultPRange(variant) ||
        vRange.convertToDouble() != getDefaultVRange(variant))
      return emitError() << "p_range and v_range apply to the FP8 variants, "
                            "not nvfp4";
    return success();
  }
  if (qkGranularity == Granularity::Microscale)
    return emitError() << "microscale Q/K needs the nvfp4 variant, got "
                       << variantName;
  if (qkGranularity == Granularity::PerChannel)
    return emitError() << "per_channel is not a Q/K granularity: its scales "
                          "would run along the contraction";
  // sage.quantized_attention reads Q's means per Q block, the block its
  // Q scales name; per_tensor scales name none.
  if (qkGranularity == Granularity::PerTensor && smoothQ)
    return emitError() << "Q smoothing subtracts a mean per block of Q "
                          "tokens, which per_tensor Q/K scales do not name: "
                          "use smooth = [k] (or [k, v]) or a blocked qk "
                          "granularity";
  double pValue = pRange.convertToDouble(), vValue = vRange.convertToDouble();
  if (hasF16Values(variant)) {
    if (pValue != getDefaultPRange(variant) ||
        vValue != getDefaultVRange(variant))
      return emitError() << "p_range and v_range apply to the FP8 variants; "
                         << variantName << " fixes them to "
                         << str(getDefaultPRange(variant)) << " and "
                         << str(getDefaultVRange(variant));
    return success();
  }
  double e4m3Max = 448.0;
  if (!(pValue > 0) || pValue > e4m3Max || !(vValue > 0) || vValue > e4m3Max)
    return emitError() << "p_range and v_range must be in (0, 448] for "
                          "f8E4M3FN, got "
                       << str(pValue) << " and " << str(vValue);
  // The f16 variants flush to f32 every two MMAs (delayed buffering).
  double limit = maxRangeProduct(isF16Acc(variant), /*every=*/2);
  if (pValue * vValue > limit)
    return emitError() << "f16 PV accumulation needs p_range * v_range <= "
                       << str(limit) << ", got " << str(pValue) << " * "
                       << str(vValue) << " = " << str(pValue * vValue);
  return success();
}

Attribute RecipeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string variantName;
  if (parser.parseLess())
    return {};
  SMLoc variantLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&variantName))
    return {};
  std::optional<Variant> variant = symbolizeVariant(variantName);
  if (!variant) {
    parser.emitError(variantLoc)
        << "unknown variant '" << variantName
        << "'; expected \"int8-fp8\", \"int4-fp8\", \"int8-fp8-f16acc\", "
           "\"int4-fp8-f16acc\", \"nvfp4\", \"int8-fp16\" or "
           "\"int8-fp16-f16acc\"";
    return {};
  }
  Granularity qk = getDefaultQKGranularity(*variant);
  bool smoothQ = true, smoothK = true, smoothV = false;
  double pRange = getDefaultPRange(*variant);
  double vRange = getDefaultVRange(*variant);
  auto parseSmoothList = [&]() -> ParseResult {
    smoothQ = smoothK = smoothV = false;
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          SMLoc nameLoc = parser.getCurrentLocation();
          StringRef name;
          if (parser.parseKeyword(&name))
            return failure();
          bool *flag = llvm::StringSwitch<bool *>(name)
                           .Case("q", &smoothQ)
                           .Case("k", &smoothK)
                           .Case("v", &smoothV)
                           .Default(nullptr);
          if (!flag)
            return parser.emitError(nameLoc)
                   << "cannot smooth '" << name << "'; expected q, k or v";
          *flag = true;
          return success();
        });
  };
  auto parseValue = [&](StringRef key, SMLoc keyLoc) -> ParseResult {
    if (key == "qk") {
      FailureOr<Granularity> value = FieldParser<Granularity>::parse(parser);
      if (failed(value))
        return failure();
      qk = *value;
      return success();
    }
    if (key == "smooth")
      return parseSmoothList();
    if (key == "p_range")
      return parser.parseFloat(pRange);
    if (key == "v_range")
      return parser.parseFloat(vRange);
    return parser.emitError(keyLoc)
           << "unknown key '" << key
           << "'; expected qk, smooth, p_range or v_range";
  };
  if (parseKeyValueList(parser, parseValue))
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *variant, qk, smoothQ, smoothK, smoothV, APFloat(pRange),
                    APFloat(vRange));
}

void RecipeAttr::print(AsmPrinter &printer) const {
  Variant variant = getVariant();
  printer << "<";
  printer.printKeywordOrString(stringifyVariant(variant));
  if (getQkGranularity() != getDefaultQKGranularity(variant))
    printer << ", qk = " << stringifyGranularity(getQkGranularity());
  if (!getSmoothQ() || !getSmoothK() || getSmoothV()) {
    SmallVector<StringRef, 3> smoothed;
    if (getSmoothQ())
      smoothed.push_back("q");
    if (getSmoothK())
      smoothed.push_back("k");
    if (getSmoothV())
      smoothed.push_back("v");
    printer << ", smooth = [";
    llvm::interleaveComma(smoothed, printer);
    printer << "]";
  }
  if (getPRange().convertToDouble() != getDefaultPRange(variant)) {
    printer << ", p_range = ";
    printRange(printer, getPRange());
  }
  if (getVRange().convertToDouble() != getDefaultVRange(variant)) {
    printer << ", v_range = ";
    printRange(printer, getVRange());
  }
  printer << ">";
}

Type RecipeAttr::getQKElementType() const {
  MLIRContext *ctx = getContext();
  switch (getVariant()) {
  case Variant::Int8Fp8:
  case Variant::Int8Fp8F16Acc:
  case Variant::Int8Fp16:
  case Variant::Int8Fp16F16Acc:
    return IntegerType::get(ctx, 8);
  case Variant::Int4Fp8:
  case Variant::Int4Fp8F16Acc:
    return IntegerType::get(ctx, 4);
  case Variant::NvFp4:
    return Float4E2M1FNType::get(ctx);
  }
  llvm_unreachable("unknown variant");
}

AccumAttr RecipeAttr::getPVAccum() const {
  MLIRContext *ctx = getContext();
  if (isF16Acc(getVariant()))
    return AccumAttr::get(ctx, Float16Type::get(ctx), /*every=*/2);
  return AccumAttr::get(ctx, Float32Type::get(ctx), /*every=*/0);
}

/// NVFP4 quantization: E2M1 values, one E4M3 scale per 16 elements.
static QuantAttr getNvFp4Quant(MLIRContext *ctx,
                               DimRole along = DimRole::Features) {
  Type fp4 = Float4E2M1FNType::get(ctx);
  return QuantAttr::get(ctx, fp4, Granularity::Microscale, std::nullopt,
                        /*block=*/16, /*warp=*/0, Float8E4M3FNType::get(ctx),
                        APFloat(QuantAttr::getLargestFinite(fp4)),
                        along == DimRole::Features ? std::nullopt
                                                   : std::optional(along));
}

QuantAttr RecipeAttr::getQueryQuant(int64_t block, int64_t warp) const {
  Type elementType = getQKElementType();
  switch (getQkGranularity()) {
  case Granularity::PerThread:
    return QuantAttr::get(elementType, Granularity::PerThread, block, warp,
                          MmaOperand::A);
  case Granularity::PerBlock:
    return QuantAttr::get(elementType, Granularity::PerBlock, block);
  case Granularity::PerWarp:
    return QuantAttr::get(elementType, Granularity::PerWarp, block, warp);
  case Granularity::PerToken:
    return QuantAttr::get(elementType, Granularity::PerToken, block);
  case Granularity::Microscale:
    return getNvFp4Quant(getContext());
  default:
    return QuantAttr::get(elementType, getQkGranularity());
  }
}

QuantAttr RecipeAttr::getKeyQuant(int64_t block) const {
  Type elementType = getQKElementType();
  switch (getQkGranularity()) {
  case Granularity::PerThread:
    return QuantAttr::get(elementType, Granularity::PerThread, block, 0,
                          MmaOperand::B);
  // A K block is read by every warp of the CTA, so per_warp K scales are
  // per block.
  case Granularity::PerBlock:
  case Granularity::PerWarp:
    return QuantAttr::get(elementType, Granularity::PerBlock, block);
  case Granularity::PerToken:
    return QuantAttr::get(elementType, Granularity::PerToken, block);
  case Granularity::Microscale:
    return getNvFp4Quant(getContext());
  default:
    return QuantAttr::get(elementType, getQkGranularity());
  }
}

QuantAttr RecipeAttr::getProbQuant() const {
  MLIRContext *ctx = getContext();
  if (getVariant() == Variant::NvFp4)
    return getNvFp4Quant(ctx);
  // int8-fp16: P_hat = P~ rounded to f16 (P_r = 1).
  if (hasF16ProbsAndValues())
    return QuantAttr::get(ctx, Float16Type::get(ctx), Granularity::PerTensor,
                          std::nullopt, 0, 0, Float32Type::get(ctx),
                          APFloat(1.0), std::nullopt);
  // P~ <= 1 with a row maximum of exactly 1, so per-tensor scaling with range
  // P_r is the static scale 1 / P_r of the papers.
  return QuantAttr::get(ctx, Float8E4M3FNType::get(ctx), Granularity::PerTensor,
                        std::nullopt, 0, 0, Float32Type::get(ctx), getPRange(),
                        std::nullopt);
}

QuantAttr RecipeAttr::getValueQuant() const {
  MLIRContext *ctx = getContext();
  if (getVariant() == Variant::NvFp4)
    return getNvFp4Quant(ctx, DimRole::Tokens);
  // int8-fp16: V rounded to f16 with the unit scale (a static bound equal
  // to the range, which sage-decompose-attention sets); with the f16
  // accumulator, scaled per channel into V_r.
  if (getVariant() == Variant::Int8Fp16)
    return QuantAttr::get(Float16Type::get(ctx), Granularity::PerTensor);
  if (getVariant() == Variant::Int8Fp16F16Acc)
    return QuantAttr::get(ctx, Float16Type::get(ctx), Granularity::PerChannel,
                          std::nullopt, 0, 0, Float32Type::get(ctx),
                          getVRange(), std::nullopt);
  return QuantAttr::get(ctx, Float8E4M3FNType::get(ctx),
                        Granularity::PerChannel, std::nullopt, 0, 0,
                        Float32Type::get(ctx), getVRange(), std::nullopt);
}
