//===- SizeExpr.h - Size expressions of a launch plan -----------*- C++ -*-===//
//
// The shapes, grids and integer parameters of a launch plan are expressions
// over the run-time sizes (docs/LaunchPlan.md):
//
//   expr := term (('+' | '-' | '*') term)*      left to right, no precedence
//   term := INT | SYMBOL | 'cdiv(' expr ',' expr ')' | '(' expr ')'
//
// with the symbols B, H, Hkv, Nq and Nk. Arithmetic is on non-negative
// 64-bit integers: a negative intermediate value, an overflow or a division
// by zero is an error that names the expression and the column.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_RUNTIME_SIZEEXPR_H
#define SAGE_RUNTIME_SIZEEXPR_H

#include <cstdint>
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

/// A parsed size expression.
class SizeExpr {
public:
  /// Parses \p text into \p result. Returns an empty string on success,
  /// otherwise a one-line message naming the expression and the column
  /// (1-based) where parsing failed.
  static std::string parse(std::string_view text, SizeExpr &result);

  /// Returns the expression of the constant \p value (non-negative).
  static SizeExpr constant(int64_t value);

  /// Evaluates the expression with \p sizes into \p value. Returns an empty
  /// string on success, otherwise a message naming the expression, the
  /// column of the failing operation and the sizes.
  std::string evaluate(const SizeBindings &sizes, int64_t &value) const;

  /// Returns the source text (for a constant, its decimal spelling).
  const std::string &text() const { return source; }

  /// Returns true if the expression names no symbol.
  bool isConstant() const;

  /// Returns the symbols the expression names, once each, in the order
  /// B, H, Hkv, Nq, Nk.
  std::vector<std::string> symbols() const;

  /// Returns true if the expression is the symbol \p name alone ("B",
  /// "(B)"): how a reader checks a shape of a fixed form (the mask's).
  bool isSymbol(std::string_view name) const;

  /// Returns true if the expression is the integer literal \p value alone.
  bool isLiteral(int64_t value) const;

private:
  enum class NodeKind { Int, Symbol, CDiv, Add, Sub, Mul };
  struct Node {
    NodeKind kind = NodeKind::Int;
    /// The literal of an Int; the symbol index (see SizeBindings) of a
    /// Symbol.
    int64_t value = 0;
    /// Operands of CDiv and the binary operators (node indices).
    int lhs = -1;
    int rhs = -1;
    /// 1-based column of the literal, symbol, 'cdiv' or operator.
    int column = 0;
  };
  class Parser;

  std::string evaluateNode(int index, const SizeBindings &sizes,
                           int64_t &value) const;

  std::vector<Node> nodes;
  int root = -1;
  std::string source;
};

} // namespace sage::rt

#endif // SAGE_RUNTIME_SIZEEXPR_H
