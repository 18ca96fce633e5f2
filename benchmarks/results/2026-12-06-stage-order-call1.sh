# Device call 1 of the sixth session of 2026-12-06. so-* are the wgmma
# programs with the operands stored in stage order (sage-store-stage-order:
# Q, K and V^T relaid before the grid, each stage one bulk copy on an
# mbarrier: sage-lower-staging bulk-copies);
# final-* the programs of 2606f35 (before it). Checks: the RUN lines of
# test/Integration/GPU/levels-attention.test for the new wgmma programs
# and for final-levels (mma.sync, V stored by default from f16: not yet run
# on a GPU); then N = 8192 speed, old and new side by side, with the
# hand-written kernels and SDPA in the same call; then N = 16384, D = 128,
# the mma.sync default kernel beside the hand-written one.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
checks() {  # $1: program name in the test, $2: binary
  grep -E "^# RUN: $1 " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
    while read -r prog args; do
      echo "-- $2 $args"; timeout 60 $2 $args | grep -E "kernel:|vs |lse|PASS|FAIL|rror"
    done
}
{
checks sage-check-levels-wgmma $B/so/so-wgmma
checks sage-check-levels-wgmma-128 $B/so/so-wgmma-128
checks sage-check-levels $B/wg/final-levels
stamp check
args=$(grep -E "^# RUN: sage-check-levels-wgmma-128 " test/Integration/GPU/levels-attention.test | head -1 | sed 's/^# RUN: sage-check-levels-wgmma-128 //; s/ | FileCheck.*//')
for tool in memcheck racecheck synccheck; do
  echo "-- compute-sanitizer $tool so-wgmma-128 $args"
  timeout 120 compute-sanitizer --tool $tool $B/so/so-wgmma-128 $args 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" | head -5
done
stamp sanitizers
} > $OUT/check.log 2>&1
{
echo "== hand-written kernels and SDPA, same call"
(cd benchmarks && timeout 90 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192)
for d in 64 128; do
  for p in wg/final-wgmma-128 so/so-wgmma-128; do
    echo "== $p D=$d N=8192"
    timeout 60 $B/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 | grep bench:
  done
done
stamp 8k
echo "== hand-written mma.sync kernel and SDPA, N=16384"
(cd benchmarks && timeout 60 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384)
echo "== final-levels D=128 N=16384"
timeout 90 $B/wg/final-levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10 | grep bench:
stamp 16k
} > $OUT/bench.log 2>&1
grep -c PASS $OUT/check.log; grep -h "FAIL\|rror" $OUT/check.log | head
grep -h "vs model" $OUT/check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "^==\|^##\|bench:\||" $OUT/bench.log
stamp end
