//===- SizeExpr.cpp - Size expressions of a launch plan -------------------===//

#include "sage/Runtime/SizeExpr.h"

#include <cctype>
#include <cstdio>

using namespace sage::rt;

/// Symbol names in the order of SizeExpr::Node::value.
static const char *const kSymbolNames[] = {"B", "H", "Hkv", "Nq", "Nk"};

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

/// A recursive-descent parser over one expression's text.
class SizeExpr::Parser {
public:
  Parser(std::string_view text, SizeExpr &expr) : text(text), expr(expr) {}

  /// Parses the whole text; returns an empty string or a message.
  std::string parseAll(int &root) {
    if (!parseExpr(root))
      return error;
    skipSpaces();
    if (pos != text.size())
      return fail("expected '+', '-', '*' or the end");
    return std::string();
  }

private:
  void skipSpaces() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  int column() const { return static_cast<int>(pos) + 1; }

  /// Describes what is at the current position, for "got ..." messages.
  std::string current() const {
    if (pos >= text.size())
      return "the end";
    return "'" + std::string(1, text[pos]) + "'";
  }

  /// Records a parse error at the current position and returns it; \p got
  /// appends what was found there.
  std::string fail(const std::string &what, bool got = true) {
    error = "invalid size expression '" + std::string(text) + "': " + what +
            " at column " + std::to_string(column());
    if (got)
      error += ", got " + current();
    return error;
  }

  int addNode(NodeKind kind, int64_t value, int lhs, int rhs, int col) {
    Node node;
    node.kind = kind;
    node.value = value;
    node.lhs = lhs;
    node.rhs = rhs;
    node.column = col;
    expr.nodes.push_back(node);
    return static_cast<int>(expr.nodes.size()) - 1;
  }

  bool parseExpr(int &result) {
    if (!parseTerm(result))
      return false;
    while (true) {
      skipSpaces();
      if (pos >= text.size())
        return true;
      char c = text[pos];
      NodeKind kind;
      if (c == '+')
        kind = NodeKind::Add;
      else if (c == '-')
        kind = NodeKind::Sub;
      else if (c == '*')
        kind = NodeKind::Mul;
      else
        return true;
      int col = column();
      ++pos;
      int rhs;
      if (!parseTerm(rhs))
        return false;
      result = addNode(kind, 0, result, rhs, col);
    }
  }

  bool expect(char c) {
    skipSpaces();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    fail(std::string("expected '") + c + "'");
    return false;
  }

  bool parseTerm(int &result) {
    skipSpaces();
    if (pos >= text.size()) {
      fail("expected a term");
      return false;
    }
    int col = column();
    char c = text[pos];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t value = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos]))) {
        int digit = text[pos] - '0';
        if (value > (INT64_MAX - digit) / 10) {
          pos = static_cast<size_t>(col - 1);
          fail("integer literal overflows 64 bits", /*got=*/false);
          return false;
        }
        value = value * 10 + digit;
        ++pos;
      }
      result = addNode(NodeKind::Int, value, -1, -1, col);
      return true;
    }
    if (c == '(') {
      ++pos;
      if (!parseExpr(result))
        return false;
      return expect(')');
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos;
      while (pos < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[pos])) ||
              text[pos] == '_'))
        ++pos;
      std::string_view name = text.substr(start, pos - start);
      if (name == "cdiv") {
        int lhs, rhs;
        if (!expect('(') || !parseExpr(lhs) || !expect(',') ||
            !parseExpr(rhs) || !expect(')'))
          return false;
        result = addNode(NodeKind::CDiv, 0, lhs, rhs, col);
        return true;
      }
      for (int64_t i = 0; i < 5; ++i)
        if (name == kSymbolNames[i]) {
          result = addNode(NodeKind::Symbol, i, -1, -1, col);
          return true;
        }
      error = "invalid size expression '" + std::string(text) +
              "': unknown symbol '" + std::string(name) + "' at column " +
              std::to_string(col) + " (expected B, H, Hkv, Nq, Nk or cdiv)";
      return false;
    }
    fail("expected a term");
    return false;
  }

  std::string_view text;
  SizeExpr &expr;
  size_t pos = 0;
  std::string error;
};

std::string SizeExpr::parse(std::string_view text, SizeExpr &result) {
  SizeExpr expr;
  expr.source = std::string(text);
  Parser parser(text, expr);
  std::string error = parser.parseAll(expr.root);
  if (!error.empty())
    return error;
  result = std::move(expr);
  return std::string();
}

SizeExpr SizeExpr::constant(int64_t value) {
  SizeExpr expr;
  expr.source = std::to_string(value);
  Node node;
  node.kind = NodeKind::Int;
  node.value = value;
  node.column = 1;
  expr.nodes.push_back(node);
  expr.root = 0;
  return expr;
}

bool SizeExpr::isConstant() const {
  for (const Node &node : nodes)
    if (node.kind == NodeKind::Symbol)
      return false;
  return true;
}

std::vector<std::string> SizeExpr::symbols() const {
  bool used[5] = {};
  for (const Node &node : nodes)
    if (node.kind == NodeKind::Symbol)
      used[node.value] = true;
  std::vector<std::string> names;
  for (int i = 0; i < 5; ++i)
    if (used[i])
      names.push_back(kSymbolNames[i]);
  return names;
}

bool SizeExpr::isSymbol(std::string_view name) const {
  if (root < 0)
    return false;
  const Node &node = nodes[static_cast<size_t>(root)];
  return node.kind == NodeKind::Symbol && name == kSymbolNames[node.value];
}

bool SizeExpr::isLiteral(int64_t value) const {
  if (root < 0)
    return false;
  const Node &node = nodes[static_cast<size_t>(root)];
  return node.kind == NodeKind::Int && node.value == value;
}

std::string SizeExpr::evaluate(const SizeBindings &sizes,
                               int64_t &value) const {
  if (root < 0)
    return "empty size expression";
  return evaluateNode(root, sizes, value);
}

std::string SizeExpr::evaluateNode(int index, const SizeBindings &sizes,
                                   int64_t &value) const {
  const Node &node = nodes[static_cast<size_t>(index)];
  auto failure = [&](const std::string &what) {
    return "size expression '" + source + "' " + what + " at column " +
           std::to_string(node.column) + " with " + sizes.toString();
  };
  if (node.kind == NodeKind::Int) {
    value = node.value;
    return std::string();
  }
  if (node.kind == NodeKind::Symbol) {
    value = symbolValue(sizes, node.value);
    if (value < 0)
      return failure("reads the negative size " +
                     std::string(kSymbolNames[node.value]) + "=" +
                     std::to_string(value));
    return std::string();
  }
  int64_t lhs = 0, rhs = 0;
  std::string error = evaluateNode(node.lhs, sizes, lhs);
  if (error.empty())
    error = evaluateNode(node.rhs, sizes, rhs);
  if (!error.empty())
    return error;
  int64_t result = 0;
  switch (node.kind) {
  case NodeKind::Add:
    if (__builtin_add_overflow(lhs, rhs, &result))
      return failure("overflows 64 bits");
    break;
  case NodeKind::Sub:
    result = lhs - rhs; // Both operands are non-negative: no overflow.
    break;
  case NodeKind::Mul:
    if (__builtin_mul_overflow(lhs, rhs, &result))
      return failure("overflows 64 bits");
    break;
  case NodeKind::CDiv:
    if (rhs == 0)
      return failure("divides by zero");
    result = lhs / rhs + (lhs % rhs != 0 ? 1 : 0);
    break;
  default:
    break;
  }
  if (result < 0)
    return failure("is negative (" + std::to_string(result) + ")");
  value = result;
  return std::string();
}
