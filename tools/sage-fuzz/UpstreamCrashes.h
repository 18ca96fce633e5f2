//===- UpstreamCrashes.h - inputs that crash upstream MLIR 22 ---*- C++ -*-===//
//
// Crashes in upstream MLIR's own parser or verifiers, with no sage code on
// the stack, are listed in docs/Fuzzing.md with a reproducer; inputs that
// would hit them are skipped so that the fuzzer keeps finding sage's bugs.
//
//===----------------------------------------------------------------------===//

#ifndef SAGE_TOOLS_SAGE_FUZZ_UPSTREAMCRASHES_H
#define SAGE_TOOLS_SAGE_FUZZ_UPSTREAMCRASHES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::sage::fuzz {
/// Whether `text` may hit a known upstream MLIR 22 crash.
bool hitsKnownUpstreamCrash(llvm::StringRef text);
} // namespace mlir::sage::fuzz

#endif // SAGE_TOOLS_SAGE_FUZZ_UPSTREAMCRASHES_H
