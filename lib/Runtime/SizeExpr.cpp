//===- SizeExpr.cpp - Size expressions of a launch plan -------------------===//

#include "sage/Runtime/SizeExpr.h"

#include <cstdio>

using namespace sage::rt;

std::string SizeBindings::toString() const {
  char buffer[160];
  std::snprintf(buffer, sizeof(buffer),
                "B=%lld H=%lld Hkv=%lld Nq=%lld Nk=%lld",
                static_cast<long long>(batch), static_cast<long long>(heads),
                static_cast<long long>(headsKV), static_cast<long long>(seqQ),
                static_cast<long long>(seqK));
  return buffer;
}

/// Returns the value of symbol \p index of \p sizes.
static int64_t symbolValue(const SizeBindings &sizes, int64_t index) {
  switch (index) {
  case 0:
    return sizes.batch;
  case 1:
    return sizes.heads;
  case 2:
    return sizes.headsKV;
  case 3:
    return sizes.seqQ;
  default:
    return sizes.seqK;
  }
}

SizeExpr SizeExpr::constant(int64_t value) {
  SizeExpr expr;
  expr.value = value;
  return expr;
}

std::optional<SizeExpr> SizeExpr::symbol(std::string_view name) {
  for (int64_t i = 0; i < 5; ++i) {
    if (name != kSymbolNames[i])
      continue;
    SizeExpr expr;
    expr.kind = Kind::Symbol;
    expr.value = i;
    return expr;
  }
  return std::nullopt;
}

SizeExpr SizeExpr::ceilDiv(SizeExpr size, SizeExpr divisor) {
  SizeExpr expr;
  expr.kind = Kind::CeilDiv;
  expr.lhs = std::make_shared<const SizeExpr>(std::move(size));
  expr.rhs = std::make_shared<const SizeExpr>(std::move(divisor));
  return expr;
}

SizeExpr SizeExpr::mul(SizeExpr size, SizeExpr factor) {
  SizeExpr expr;
  expr.kind = Kind::Mul;
  expr.lhs = std::make_shared<const SizeExpr>(std::move(size));
  expr.rhs = std::make_shared<const SizeExpr>(std::move(factor));
  return expr;
}

std::string SizeExpr::text() const {
  switch (kind) {
  case Kind::Int:
    return std::to_string(value);
  case Kind::Symbol:
    return kSymbolNames[value];
  case Kind::CeilDiv:
    return "cdiv(" + lhs->text() + "," + rhs->text() + ")";
  case Kind::Mul:
    return lhs->text() + "*" +
           (rhs->kind == Kind::Mul ? "(" + rhs->text() + ")" : rhs->text());
  }
  return std::string();
}

bool SizeExpr::isConstant() const { return symbols().empty(); }

/// Marks the symbols of \p expr in \p used.
void SizeExpr::markSymbols(bool (&used)[5]) const {
  if (kind == Kind::Symbol)
    used[value] = true;
  if (lhs)
    lhs->markSymbols(used);
  if (rhs)
    rhs->markSymbols(used);
}

std::vector<std::string> SizeExpr::symbols() const {
  bool used[5] = {};
  markSymbols(used);
  std::vector<std::string> names;
  for (int i = 0; i < 5; ++i)
    if (used[i])
      names.push_back(kSymbolNames[i]);
  return names;
}

bool SizeExpr::isSymbol(std::string_view name) const {
  return kind == Kind::Symbol && name == kSymbolNames[value];
}

bool SizeExpr::isLiteral(int64_t literal) const {
  return kind == Kind::Int && value == literal;
}

std::string SizeExpr::evaluate(const SizeBindings &sizes,
                               int64_t &result) const {
  auto failure = [&](const std::string &what) {
    return "size expression '" + text() + "' " + what + " with " +
           sizes.toString();
  };
  switch (kind) {
  case Kind::Int:
    result = value;
    if (result < 0)
      return failure("is negative");
    return std::string();
  case Kind::Symbol:
    result = symbolValue(sizes, value);
    if (result < 0)
      return failure("reads the negative size " +
                     std::string(kSymbolNames[value]) + "=" +
                     std::to_string(result));
    return std::string();
  case Kind::CeilDiv:
  case Kind::Mul:
    break;
  }
  int64_t a = 0, b = 0;
  std::string error = lhs->evaluate(sizes, a);
  if (error.empty())
    error = rhs->evaluate(sizes, b);
  if (!error.empty())
    return error;
  if (kind == Kind::CeilDiv) {
    if (b == 0)
      return failure("divides by zero");
    result = a / b + (a % b != 0 ? 1 : 0);
    return std::string();
  }
  if (__builtin_mul_overflow(a, b, &result))
    return failure("overflows 64 bits");
  return std::string();
}
