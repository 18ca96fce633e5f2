# Device call 5 (2026-12-06, fifth session of the day): call 4 cut to the
# device time left after failed starts. final-* are the final tree's
# programs (stages chosen per loop, V stored by default from f16, the
# inputs made on every core); the RUN lines of
# test/Integration/GPU/levels-attention.test for final-levels (whose f16
# and masked paths now store V) and the wgmma-128 ones, then the
# N = 16384, D = 128 mma.sync default kernel (two stages) beside the
# hand-written kernel and SDPA in the same call.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
grep -E "^# RUN: sage-check-levels(-wgmma-128)? " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
  while read -r prog args; do
    n=final${prog#sage-check-levels}; [ "$n" = final ] && n=final-levels
    echo "-- $n $args"; timeout 60 $B/wg/$n $args | grep -E "kernel:|vs |lse|PASS|FAIL|rror"
  done
} > $OUT/check.log 2>&1
stamp check
{
echo "== hand-written mma.sync kernel and SDPA, same call"
(cd benchmarks && timeout 60 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384)
echo "== final-levels kernel D=128 N=16384"
timeout 60 $B/wg/final-levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10 | grep bench:
stamp 16k
} > $OUT/bench.log 2>&1
grep -c PASS $OUT/check.log; grep -h "FAIL\|rror" $OUT/check.log | head
grep -h "vs model" $OUT/check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "^==\|^##\|bench:\||" $OUT/bench.log
stamp end
