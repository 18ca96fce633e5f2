# Device call 1 (2026-12-06, fifth session of the day). build/gpu-levels/wg
# holds base-* (9881a79: sm_90a's defaults, kernels byte-identical to
# 06ef582's explicit options) and new-* (this tree: the scores' dS is
# their product's initial value and the dequantization `contract`s, so
# ptxas gets one fma.rn.f32 a score instead of mul + add(0) + add(dS)):
# {levels, pipelined, wgmma, wgmma-128} = sage-check-levels{,-pipelined,
# -wgmma,-wgmma-128}. Numerics of new-* (the RUN lines of
# test/Integration/GPU/levels-attention.test, run without lit), sanitizers,
# then speed side by side at N = 8192: base vs new, the hand-written
# kernels and SDPA (bench_attention.py) in the same call.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
grep "^# RUN: " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
  while read -r prog args; do
    n=new${prog#sage-check-levels}; [ "$n" = new ] && n=new-levels
    echo "-- $n $args"; timeout 60 $B/wg/$n $args | grep -E "kernel:|vs |lse|PASS|FAIL|rror"
  done
for p in new-levels new-wgmma-128; do
  for t in memcheck racecheck; do
    echo "== $t $p D=64"
    compute-sanitizer --tool $t --error-exitcode 1 $B/wg/$p --D 64 --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers | tail -2
  done
done
} > $OUT/check.log 2>&1
stamp check
{
for d in 64 128; do
  for p in base-levels new-levels base-wgmma-128 new-wgmma-128; do
    echo "== $p kernel D=$d N=8192"
    timeout 60 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 20 | grep bench:
  done
done
stamp bench-8k
echo "== hand-written kernels (mma.sync; sm_90a) and SDPA, same call"
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192)
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192 --plan-suffix _sm90a)
} > $OUT/bench.log 2>&1
stamp bench
grep -c PASS $OUT/check.log; grep -h "FAIL\|rror" $OUT/check.log | head
grep -h "vs model" $OUT/check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "SUMMARY" $OUT/check.log
grep -h "^==\|^##\|bench:\||" $OUT/bench.log
stamp end
