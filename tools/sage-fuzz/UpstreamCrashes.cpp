//===- UpstreamCrashes.cpp - inputs that crash upstream MLIR 22 -----------===//

#include "UpstreamCrashes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

#include <cctype>

using namespace llvm;

/// The characters MLIR's lexer skips between tokens, but NUL, which
/// getLexedText has already turned into a space. StringRef::trim's default
/// set also holds '\v' and '\f', which the lexer rejects: a list
/// separated by them must not pass.
static constexpr StringLiteral kLexerWhitespace = " \t\n\r";

/// Whether every `keyword = [a, b, ...]` in `text` is a well-formed list of
/// integers that fit in 64 bits.
static bool hasOnlySmallIntegers(StringRef text, StringRef keyword) {
  for (size_t at = text.find(keyword); at != StringRef::npos;
       at = text.find(keyword, at + 1)) {
    StringRef rest =
        text.drop_front(at + keyword.size()).ltrim(kLexerWhitespace);
    if (!rest.consume_front("="))
      continue; // another use of the word
    rest = rest.ltrim(kLexerWhitespace);
    // Either form: `[1, 0]`, or the generic form's `array<i64: 1, 0>` (or
    // `array<i64>`, empty, as JAX's broadcast_dimensions of a scalar).
    if (rest.starts_with("array<i64>"))
      continue;
    char closing = ']';
    if (rest.consume_front("array<i64:"))
      closing = '>';
    else if (!rest.consume_front("["))
      return false;
    size_t close = rest.find(closing);
    if (close == StringRef::npos)
      return false;
    SmallVector<StringRef> items;
    rest.take_front(close).split(items, ',');
    for (StringRef item : items) {
      item = item.trim(kLexerWhitespace);
      item.consume_front("-");
      if (item.empty() || item.size() > 18 || !llvm::all_of(item, [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        return false;
    }
  }
  return true;
}

/// `text` as the MLIR lexer sees its tokens: NUL bytes are whitespace to
/// it and `//` comments vanish, so neither may hide a list from the checks.
static std::string getLexedText(StringRef text) {
  std::string result;
  result.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      result += '\n';
      continue;
    }
    result += text[i] == '\0' ? ' ' : text[i];
  }
  return result;
}

bool mlir::sage::fuzz::hitsKnownUpstreamCrash(StringRef raw) {
  std::string lexed = getLexedText(raw);
  StringRef text(lexed);
  // docs/Fuzzing.md, upstream 1: a dense array of `index` elements
  // segfaults the attribute parser.
  if (text.contains("array<index"))
    return true;
  // Upstream 2: a linalg op's custom `permutation = ...` or
  // `dimensions = ...` that is not a list of 64-bit integers (a float, a
  // larger integer, a missing bracket) segfaults its parser.
  return !hasOnlySmallIntegers(text, "permutation") ||
         !hasOnlySmallIntegers(text, "dimensions");
}
