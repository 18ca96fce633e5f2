# Device call 1 of the seventh session of 2026-12-06. new/ holds the
# programs of 97fe6b6: dS's row dots split over lane pairs (vector fma,
# shuffles), P V's fma into O after each MMA chain, no addition of a zero
# accumulator; old/ the same programs built from 22ba338 (a row a thread,
# sums in order); new/sage-check-levels-ctas3 is new/sage-check-levels
# with --sage-levels ctas-per-sm=3 (nvvm.minctasm = 3: 168 registers at
# D = 128 instead of 255). Checks: the RUN lines of
# test/Integration/GPU/levels-attention.test on the new programs; then
# speed, B = 4, H = 32, not causal, beside the hand-written mma.sync kernel
# and SDPA (bench_attention.py) in the same call; last, ncu's view of the
# three D = 128 mma.sync kernels (duration, registers, occupancy, issue).
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
checks() {  # $1: program name in the test, $2: binary
  grep -E "^# RUN: $1 " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
    while read -r prog args; do
      echo "-- $2 $args"; timeout 60 $2 $args | grep -E "vs |lse|PASS|FAIL|rror"
    done
}
{
checks sage-check-levels $B/new/sage-check-levels
checks sage-check-levels-wgmma-128 $B/new/sage-check-levels-wgmma-128
checks sage-check-levels $B/new/sage-check-levels-ctas3
stamp check
} > $OUT/check.log 2>&1
cat $OUT/check.log | grep -cE "PASS"; grep -E "FAIL|rror" $OUT/check.log | head
{
for n in 16384 8192; do
  for d in 128 64; do
    for p in old/sage-check-levels new/sage-check-levels new/sage-check-levels-ctas3 old/sage-check-levels-wgmma-128 new/sage-check-levels-wgmma-128; do
      echo "== $p D=$d N=$n"
      timeout 90 $B/$p --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n --D $d --bench 10 | grep bench:
    done
  done
  stamp "bench $n"
done
echo "== hand-written kernels and SDPA, same call"
(cd benchmarks && timeout 150 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192,16384)
stamp hand-written
} > $OUT/bench.log 2>&1
cat $OUT/bench.log
{
for p in old/sage-check-levels new/sage-check-levels new/sage-check-levels-ctas3; do
  echo "== ncu $p D=128 N=8192"
  timeout 120 ncu --clock-control none -c 1 -k regex:attention_d128_kernel --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
    $B/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 128 --bench 1 2>&1 |
    grep -E "Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|Issued Warp|No Eligible|Compute \(SM\) Throughput|Memory Throughput"
done
stamp ncu
} > $OUT/ncu.log 2>&1
cat $OUT/ncu.log
