#!/usr/bin/env bash
# Builds sage with clang-22 under AddressSanitizer + UBSan in build-san
# (assertions on), runs the whole test suite there, then the libFuzzer
# target for SAGE_FUZZ_SECONDS (default 60) from a seed corpus made of the
# repo's tests. docs/Fuzzing.md says how to run a longer campaign.
set -euo pipefail
source "$(dirname "$0")/common.sh"

sage_install_deps
sage_install_packages clang-22 libfuzzer-22-dev libclang-rt-22-dev

build="$SAGE_ROOT/build-san"
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons fresh slabs in
# code inlined into sage's instrumented objects, and the uninstrumented
# libMLIR.so hands out memory from them without unpoisoning it: false
# use-after-poison reports. ASan's own redzones stay on.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:allow_user_poisoning=0
export LSAN_OPTIONS="suppressions=$SAGE_ROOT/tools/sage-fuzz/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [ ! -f "$build/build.ninja" ]; then
  CC=$SAGE_LLVM/bin/clang CXX=$SAGE_LLVM/bin/clang++ cmake -G Ninja \
    -S "$SAGE_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" \
    -DCMAKE_C_FLAGS_RELEASE="-O1 -gline-tables-only" \
    -DSAGE_SANITIZE=ON -DSAGE_BUILD_FUZZER=ON \
    -DMLIR_DIR="$SAGE_LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$SAGE_LLVM/bin/lit"
fi
cmake --build "$build"
cmake --build "$build" --target check-sage

# A fixed seed and run count, so that CI replays the same inputs; the time
# bounds it on slow machines. SAGE_FUZZ_SECONDS=0 skips fuzzing.
seconds=${SAGE_FUZZ_SECONDS:-60}
[ "$seconds" -gt 0 ] || exit 0
fuzz="$build/fuzz"
# Every input that once crashed the target (tools/sage-fuzz/regressions),
# each run once, before the campaign.
"$build/bin/sage-fuzz" "$SAGE_ROOT"/tools/sage-fuzz/regressions/* \
  >"$build/fuzz-regressions.log" 2>&1 || {
  cat "$build/fuzz-regressions.log"
  echo "sanitize: a fuzz regression input failed"
  exit 1
}
python3 "$SAGE_ROOT/scripts/fuzz-corpus.py" "$SAGE_ROOT/test" "$fuzz/seed"
mkdir -p "$fuzz/corpus" "$fuzz/crashes"
status=0
"$build/bin/sage-fuzz" "$fuzz/corpus" "$fuzz/seed" -seed=1 \
  -runs="${SAGE_FUZZ_RUNS:-30000}" -max_total_time="$seconds" \
  -dict="$SAGE_ROOT/tools/sage-fuzz/sage.dict" -max_len=16384 -timeout=60 \
  -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$fuzz/crashes/" >"$fuzz/log" 2>&1 || status=$?
tail -n 40 "$fuzz/log"
for artifact in "$fuzz"/crashes/*; do
  [ -f "$artifact" ] || continue
  echo "sanitize: the fuzz target failed on $artifact:"
  cat "$artifact"
done
exit $status
