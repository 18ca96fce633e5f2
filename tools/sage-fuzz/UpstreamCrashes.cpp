//===- UpstreamCrashes.cpp - inputs that crash upstream MLIR 22 -----------===//

#include "UpstreamCrashes.h"

using namespace llvm;

bool mlir::sage::fuzz::hitsKnownUpstreamCrash(StringRef text) {
  // docs/Fuzzing.md, upstream 1: a dense array of `index` elements
  // segfaults the attribute parser.
  return text.contains("array<index");
}
