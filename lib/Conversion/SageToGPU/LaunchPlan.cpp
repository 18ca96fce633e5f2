//===- LaunchPlan.cpp - the launch plan as an attribute -------------------===//

#include "LaunchPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::sage;

SizeExpr SizeExpr::symbol(StringRef name) {
  return SizeExpr(Kind::Symbol, 0, name.str(), nullptr);
}

SizeExpr SizeExpr::ceilDiv(SizeExpr size, int64_t divisor) {
  return SizeExpr(Kind::CeilDiv, divisor, "",
                  std::make_shared<const SizeExpr>(std::move(size)));
}

SizeExpr SizeExpr::operator*(int64_t factor) const {
  return SizeExpr(Kind::Mul, factor, "",
                  std::make_shared<const SizeExpr>(*this));
}

std::string SizeExpr::str() const {
  switch (kind) {
  case Kind::Constant:
    return std::to_string(value);
  case Kind::Symbol:
    return name;
  case Kind::CeilDiv:
    return "cdiv(" + operand->str() + "," + std::to_string(value) + ")";
  case Kind::Mul:
    return operand->str() + "*" + std::to_string(value);
  }
  llvm_unreachable("unknown size expression");
}

Value SizeExpr::build(OpBuilder &b, Location loc,
                      function_ref<Value(StringRef)> symbol) const {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, v, 64);
  };
  switch (kind) {
  case Kind::Constant:
    return constant(value);
  case Kind::Symbol:
    return symbol(name);
  case Kind::CeilDiv:
    return arith::CeilDivUIOp::create(b, loc, operand->build(b, loc, symbol),
                                      constant(value));
  case Kind::Mul:
    return arith::MulIOp::create(b, loc, operand->build(b, loc, symbol),
                                 constant(value));
  }
  llvm_unreachable("unknown size expression");
}

SizeExpr mlir::sage::getBlockCount(StringRef symbol, int64_t block) {
  return SizeExpr::ceilDiv(SizeExpr::symbol(symbol), block);
}

Attribute SizeExpr::toAttribute(Builder &b) const {
  switch (kind) {
  case Kind::Constant:
    return b.getI64IntegerAttr(value);
  case Kind::Symbol:
    return b.getStringAttr(name);
  case Kind::CeilDiv:
  case Kind::Mul:
    return b.getDictionaryAttr(b.getNamedAttr(
        kind == Kind::CeilDiv ? "cdiv" : "mul",
        b.getArrayAttr({operand->toAttribute(b), b.getI64IntegerAttr(value)})));
  }
  llvm_unreachable("unknown size expression");
}

static ArrayAttr getSizes(Builder &b, ArrayRef<SizeExpr> values) {
  SmallVector<Attribute> attrs;
  for (const SizeExpr &value : values)
    attrs.push_back(value.toAttribute(b));
  return b.getArrayAttr(attrs);
}

static ArrayAttr getStrings(Builder &b, ArrayRef<std::string> values) {
  SmallVector<Attribute> attrs;
  for (const std::string &value : values)
    attrs.push_back(b.getStringAttr(value));
  return b.getArrayAttr(attrs);
}

DictionaryAttr LaunchPlan::toAttribute(MLIRContext *ctx) const {
  Builder b(ctx);
  SmallVector<Attribute> bufferAttrs;
  for (const PlanBuffer &buffer : buffers) {
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("name", b.getStringAttr(buffer.name)),
        b.getNamedAttr("kind", b.getStringAttr(buffer.kind)),
        b.getNamedAttr("type", b.getStringAttr(buffer.type)),
        b.getNamedAttr("shape", getSizes(b, buffer.shape))};
    if (buffer.zeroInit)
      fields.push_back(b.getNamedAttr("init", b.getStringAttr("zero")));
    bufferAttrs.push_back(b.getDictionaryAttr(fields));
  }
  SmallVector<Attribute> launchAttrs;
  for (const PlanLaunch &launch : launches) {
    SmallVector<Attribute> params;
    for (const PlanParam &param : launch.params)
      params.push_back(b.getDictionaryAttr(b.getNamedAttr(
          param.isBuffer ? "buffer" : "i32", b.getStringAttr(param.value))));
    launchAttrs.push_back(b.getDictionaryAttr({
        b.getNamedAttr("name", b.getStringAttr(launch.kernel)),
        b.getNamedAttr("grid", getSizes(b, launch.grid)),
        b.getNamedAttr("block", b.getI64ArrayAttr({launch.blockSize, 1, 1})),
        b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(launch.sharedBytes)),
        b.getNamedAttr("params", b.getArrayAttr(params)),
    }));
  }
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("format", b.getStringAttr("sage-launch-plan")),
      b.getNamedAttr("version", b.getI64IntegerAttr(2)),
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("ptx", b.getStringAttr(name + ".ptx")),
      b.getNamedAttr("chip", b.getStringAttr(chip)),
      b.getNamedAttr("variant", b.getStringAttr(variant)),
      b.getNamedAttr("layout", getStrings(b, layout)),
      b.getNamedAttr("head_dim", b.getI64IntegerAttr(headDim)),
      b.getNamedAttr("value_dim", b.getI64IntegerAttr(valueDim)),
      b.getNamedAttr("input_type", b.getStringAttr(inputType)),
      b.getNamedAttr("output_type", b.getStringAttr(outputType)),
      b.getNamedAttr("causal", b.getBoolAttr(causal)),
      b.getNamedAttr("scale", b.getF64FloatAttr(scale)),
      b.getNamedAttr("qk_granularity", b.getStringAttr(queryKeyGranularity)),
      b.getNamedAttr("ranges",
                     b.getDictionaryAttr({
                         b.getNamedAttr("p", b.getF64FloatAttr(probRange)),
                         b.getNamedAttr("v", b.getF64FloatAttr(valueRange)),
                     })),
      b.getNamedAttr("smooth", b.getDictionaryAttr({
                                   b.getNamedAttr("q", b.getBoolAttr(smoothQ)),
                                   b.getNamedAttr("k", b.getBoolAttr(smoothK)),
                                   b.getNamedAttr("v", b.getBoolAttr(smoothV)),
                               })),
      b.getNamedAttr("tiles",
                     b.getDictionaryAttr({
                         b.getNamedAttr("block_q", b.getI64IntegerAttr(blockQ)),
                         b.getNamedAttr("warp_q", b.getI64IntegerAttr(warpQ)),
                         b.getNamedAttr("block_k", b.getI64IntegerAttr(blockK)),
                         b.getNamedAttr("warps", b.getI64IntegerAttr(warps)),
                     })),
      b.getNamedAttr("buffers", b.getArrayAttr(bufferAttrs)),
      b.getNamedAttr("kernels", b.getArrayAttr(launchAttrs)),
  };
  if (f16FlushEvery)
    attrs.push_back(
        b.getNamedAttr("f16_flush_every", b.getI64IntegerAttr(f16FlushEvery)));
  if (causal)
    attrs.push_back(b.getNamedAttr(
        "causal_alignment",
        b.getStringAttr(causalTopLeft ? "top_left" : "bottom_right")));
  return b.getDictionaryAttr(attrs);
}
