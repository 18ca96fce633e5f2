//===- SizeExpr.h - Size expressions of a launch plan -----------*- C++ -*-===//
//
// The shapes, grids and integer parameters of a launch plan are sizes over
// the run-time sizes B, H, Hkv, Nq and Nk, written in the plan's JSON as
// trees, not text (docs/LaunchPlan.md): a non-negative integer, a size
// name, {"cdiv": [a, b]} (ceil(a / b)) or {"mul": [a, b]} of two sizes. The
// compiler builds the same forms (lib/Conversion/SageToGPU/LaunchPlan.h),
// so nothing is parsed. Arithmetic is on non-negative 64-bit integers: a
// negative size, a division by zero or an overflow is an error naming the
// expression.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_SIZEEXPR_H
#define SAGE_RUNTIME_SIZEEXPR_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sage::rt {

/// The run-time sizes a size expression may name.
struct SizeBindings {
  int64_t batch = 1;   ///< B
  int64_t heads = 1;   ///< H
  int64_t headsKV = 1; ///< Hkv
  int64_t seqQ = 1;    ///< Nq
  int64_t seqK = 1;    ///< Nk

  /// Returns "B=.. H=.. Hkv=.. Nq=.. Nk=..", for diagnostics.
  std::string toString() const;
};

/// A size of a launch plan.
class SizeExpr {
public:
  /// The constant 0.
  SizeExpr() = default;
  /// The constant \p value (non-negative).
  static SizeExpr constant(int64_t value);
  /// The run-time size \p name (B, H, Hkv, Nq or Nk); none for another name.
  static std::optional<SizeExpr> symbol(std::string_view name);
  /// ceil(size / divisor).
  static SizeExpr ceilDiv(SizeExpr size, SizeExpr divisor);
  /// size * factor.
  static SizeExpr mul(SizeExpr size, SizeExpr factor);

  /// Evaluates the expression with \p sizes into \p value. Returns an empty
  /// string on success, otherwise a message naming the expression and the
  /// sizes.
  std::string evaluate(const SizeBindings &sizes, int64_t &value) const;

  /// The expression as docs/LaunchPlan.md writes it: "cdiv(Nq,64)*64".
  std::string text() const;

  /// Returns true if the expression names no symbol.
  bool isConstant() const;

  /// Returns the symbols the expression names, once each, in the order
  /// B, H, Hkv, Nq, Nk.
  std::vector<std::string> symbols() const;

  /// Returns true if the expression is the symbol \p name alone: how a
  /// reader checks a shape of a fixed form (the mask's).
  bool isSymbol(std::string_view name) const;

  /// Returns true if the expression is the integer \p value alone.
  bool isLiteral(int64_t value) const;

  /// The names a symbol may have, in the order of SizeBindings.
  static constexpr const char *kSymbolNames[] = {"B", "H", "Hkv", "Nq", "Nk"};

private:
  enum class Kind { Int, Symbol, CeilDiv, Mul };
  void markSymbols(bool (&used)[5]) const;

  Kind kind = Kind::Int;
  /// The integer, or the symbol's index in kSymbolNames.
  int64_t value = 0;
  /// The operands of cdiv and mul.
  std::shared_ptr<const SizeExpr> lhs, rhs;
};

} // namespace sage::rt

#endif // SAGE_RUNTIME_SIZEEXPR_H
