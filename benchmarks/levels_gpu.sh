#!/usr/bin/env bash
# The --sage-levels kernel on a machine with a GPU (docs/Levels.md): its
# numerics against FP64 and the CPU model over the sizes of
# benchmarks/results/*-promote.md, the bars of
# test/Integration/GPU/levels-*.test (run as their RUN lines, without
# lit), compute-sanitizer, and its speed beside the hand-written kernel and
# PyTorch SDPA in the same run.
#
# Usage: [D=64|128] [PROGRAM=sage-check-levels-pipelined] \
#          [QUANTIZERS=levels] \
#          benchmarks/levels_gpu.sh BIN_DIR KERNEL_DIR [check|bench|ncu|all]
#   BIN_DIR     holds sage-check-levels (built on a machine with LLVM), or
#               PROGRAM (the two-stage kernel's)
#   KERNEL_DIR  holds attention_d$D_f16{,_causal}.{json,ptx} (build/kernels)
# Logs go to $OUT (default: the current directory); D (default 64) picks
# the head dimension (the levels-attention.test bars are D = 64's);
# QUANTIZERS=levels runs the sizes and the bench from f16 Q, K, V through
# the levels' statistics and quantizers (sage-check-levels --quantizers).
set -uo pipefail
bin=$1
kernels=$2
what=${3:-all}
out=${OUT:-.}
dim=${D:-64}
root=$(cd "$(dirname "$0")/.." && pwd)
check=$bin/${PROGRAM:-sage-check-levels}
quantizers=(--quantizers "${QUANTIZERS:-cpu}")
status=0

if [[ $what == check || $what == all ]]; then
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    for size in "1 1 1 64 64" "1 2 1 333 1029" "2 4 2 1000 777" \
                "2 4 2 1029 1000" "1 2 2 1 17" "1 2 1 333 77" \
                "1 4 4 4096 4096" "2 2 1 1029 333"; do
      read -r B H Hkv Nq Nk <<<"$size"
      for dist in randn outliers; do
        echo "== B=$B H=$H Hkv=$Hkv Nq=$Nq Nk=$Nk $dist"
        "$check" --B "$B" --H "$H" --Hkv "$Hkv" --Nq "$Nq" --Nk "$Nk" \
          --D "$dim" --dist "$dist" "${quantizers[@]}" || status=1
      done
    done
    echo "== the bars of test/Integration/GPU/levels-*.test"
    # Each RUN line names its program (sage-check-levels, the two-stage
    # sage-check-levels-pipelined, a granularity's or smoothing's): the
    # bars of the program under test.
    grep -h "^# RUN: ${PROGRAM:-sage-check-levels} " \
      "$root"/test/Integration/GPU/levels-*.test |
      sed 's/^# RUN: [a-z0-9-]* //; s/ | FileCheck.*//' |
      while read -r args; do
        echo "-- $args"
        # shellcheck disable=SC2086
        "$check" $args | tail -1 || exit 1
      done || status=1
  } >"$out/levels-check.log" 2>&1
  for tool in memcheck racecheck synccheck; do
    compute-sanitizer --tool "$tool" --error-exitcode 1 "$check" --B 1 \
      --H 2 --Hkv 1 --Nq 333 --Nk 77 --D "$dim" --dist outliers \
      "${quantizers[@]}" >"$out/levels-$tool.log" 2>&1 || status=1
  done
fi

if [[ $what == bench || $what == all ]]; then
  {
    for n in 4096 8192 16384; do
      echo "== levels kernel B=4 H=32 D=$dim N=$n"
      "$check" --B 4 --H 32 --Hkv 32 --Nq "$n" --Nk "$n" --D "$dim" --bench 10 \
        "${quantizers[@]}" || status=1
    done
    echo "== hand-written kernel and SDPA, same run"
    (cd "$root/benchmarks" &&
      python3 bench_attention.py "$kernels" --dims "$dim" \
        --lengths 4096,8192,16384) || status=1
  } >"$out/levels-bench.log" 2>&1
fi
if [[ $what == ncu || $what == all ]]; then
  # One launch at N = 4096: where the time goes (--bench: no FP64
  # reference, which takes minutes on the CPU at this size).
  ncu --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    --launch-count 1 "$check" --B 4 --H 32 --Hkv 32 --Nq 4096 --Nk 4096 \
    --D "$dim" --bench 1 >"$out/levels-ncu.log" 2>&1 || status=1
fi
exit $status
