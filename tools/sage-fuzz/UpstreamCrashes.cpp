//===- UpstreamCrashes.cpp - inputs that crash upstream MLIR 22 -----------===//

#include "UpstreamCrashes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cctype>

using namespace llvm;

/// Whether every element of each `keyword [a, b, ...]` list in `text` is an
/// integer that fits in 64 bits.
static bool hasOnlySmallIntegers(StringRef text, StringRef keyword) {
  for (size_t at = text.find(keyword); at != StringRef::npos;
       at = text.find(keyword, at + 1)) {
    StringRef list = text.drop_front(at + keyword.size());
    list = list.take_until([](char c) { return c == ']'; });
    SmallVector<StringRef> items;
    list.split(items, ',');
    for (StringRef item : items) {
      item = item.trim();
      item.consume_front("-");
      if (item.empty() || item.size() > 18 ||
          !llvm::all_of(item, [](char c) { return std::isdigit(c); }))
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
  // Upstream 2: a linalg op's custom `permutation = [...]` or
  // `dimensions = [...]` holding a float or an integer beyond 64 bits
  // segfaults its parser.
  return !hasOnlySmallIntegers(text, "permutation = [") ||
         !hasOnlySmallIntegers(text, "dimensions = [");
}
