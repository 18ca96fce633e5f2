# Device call 2 of the seventh session of 2026-12-06. final/ holds the
# programs of the commit that adds sage-bound-registers: sage-check-levels-sm90
# (--sage-levels chip=sm_90: the mma.sync kernel for Hopper, at D = 128
# nvvm.minctasm = 3) and sage-check-levels (chip=sm_89, whose D = 128
# kernel stays unbounded: 100 KiB of shared memory an SM on sm_89). The RUN
# lines of levels-attention.test for sage-check-levels-sm90, then speed,
# B = 4, H = 32, D = 128, N = 16384, not causal, beside the hand-written
# mma.sync kernel and SDPA (bench_attention.py) in the same call (cut to
# what the device time left allows).
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
grep -E "^# RUN: sage-check-levels-sm90 " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
  while read -r prog args; do
    echo "-- $prog $args"; timeout 60 $B/final/$prog $args | grep -E "kernel:|vs |lse|PASS|FAIL|rror:"
  done
stamp check
} > $OUT/check.log 2>&1
cat $OUT/check.log
{
for n in 16384; do
  for d in 128; do
    for p in final/sage-check-levels-sm90 final/sage-check-levels; do
      echo "== $p D=$d N=$n"
      timeout 90 $B/$p --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n --D $d --bench 10 | grep bench:
    done
  done
  stamp "bench $n"
done
echo "== hand-written kernels and SDPA, same call"
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384)
stamp hand-written
} > $OUT/bench.log 2>&1
cat $OUT/bench.log
