//===- UpstreamCrashes.cpp - inputs that crash upstream MLIR 22 -----------===//

#include "UpstreamCrashes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cctype>

using namespace llvm;

/// Whether every `keyword = [a, b, ...]` in `text` is a well-formed list of
/// integers that fit in 64 bits.
static bool hasOnlySmallIntegers(StringRef text, StringRef keyword) {
  for (size_t at = text.find(keyword); at != StringRef::npos;
       at = text.find(keyword, at + 1)) {
    StringRef rest = text.drop_front(at + keyword.size()).ltrim();
    if (!rest.consume_front("="))
      continue; // another use of the word
    rest = rest.ltrim();
    if (rest.starts_with("array<i64:"))
      continue; // the generic form's dense array parses safely
    if (!rest.consume_front("["))
      return false;
    size_t close = rest.find(']');
    if (close == StringRef::npos)
      return false;
    SmallVector<StringRef> items;
    rest.take_front(close).split(items, ',');
    for (StringRef item : items) {
      item = item.trim();
      item.consume_front("-");
      if (item.empty() || item.size() > 18 || !llvm::all_of(item, [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          }))
        return false;
    }
  }
  return true;
}

bool mlir::sage::fuzz::hitsKnownUpstreamCrash(StringRef text) {
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
