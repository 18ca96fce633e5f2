# Device call 4 (2026-12-06, fifth session of the day): the final tree's
# programs (final-*: stages chosen per loop, V stored by default from f16)
# against the RUN lines of test/Integration/GPU/levels-attention.test; end
# to end from f16 through the levels' quantizers with V stored (final) and
# row-major (new-*, 17d257b, store-values off by default then); and the
# N = 16384, D = 128 mma.sync default kernel (two stages) beside the
# hand-written kernel and SDPA in the same call. final-* also make their
# inputs on every core (sage-check-levels' host loops through Parallel.h),
# so the N = 16384 runs no longer spend about 80 s on one core first.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
grep "^# RUN: " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
  while read -r prog args; do
    n=final${prog#sage-check-levels}; [ "$n" = final ] && n=final-levels
    echo "-- $n $args"; timeout 60 $B/wg/$n $args | grep -E "kernel:|vs |lse|PASS|FAIL|rror"
  done
echo "== memcheck final-levels masked, D=64"
compute-sanitizer --tool memcheck --error-exitcode 1 $B/wg/final-levels --variant masked --quantizers levels --B 1 --H 2 --Hkv 1 --Nq 200 --Nk 333 --dist outliers | tail -2
} > $OUT/check.log 2>&1
stamp check
{
for p in new-levels final-levels; do
  echo "== $p end to end from f16 (levels' quantizers) D=64 N=8192"
  timeout 60 $B/wg/$p --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 64 --bench 10 | grep bench:
done
stamp e2e
echo "== hand-written mma.sync kernel and SDPA, same call"
(cd benchmarks && timeout 60 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384)
for p in final-levels final-wgmma-128; do
  echo "== $p kernel D=128 N=16384"
  timeout 120 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10 | grep bench:
  stamp "$p 16k"
done
} > $OUT/bench.log 2>&1
grep -c PASS $OUT/check.log; grep -h "FAIL\|rror" $OUT/check.log | head
grep -h "vs model" $OUT/check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "SUMMARY" $OUT/check.log
grep -h "^==\|^##\|bench:\||" $OUT/bench.log
stamp end
