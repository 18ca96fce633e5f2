# Second device call (2026-12-06): the levels kernel with the tile level's
# softmax in base 2 and P_r folded into it (fma: this tree after
# 6d1ab4c), against the CPU model and FP64 (one stage at D = 64 and 128,
# two stages at D = 64, with sanitizers), and its speed beside the
# first call's kernels (stored: 6d1ab4c; ctas4s2: stored with stages=2
# ctas-per-sm=4) and fmactas4s2 (fma with stages=2 ctas-per-sm=4, built
# like ctas4s2), N = 8192, with the hand-written kernel in the same run.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64 $OUT/d128 $OUT/pipe-d64
stamp "check D=64"
D=64 OUT=$OUT/d64 timeout 150 bash benchmarks/levels_gpu.sh $B/fma $B/kernels check; echo "rc=$?"
{
stamp "bench"
for round in 1 2; do
  for v in stored/sage-check-levels fma/sage-check-levels stored/sage-check-levels-pipelined fma/sage-check-levels-pipelined ctas4s2/sage-check-levels fmactas4s2/sage-check-levels; do
    echo "== $v D=64 N=8192 round $round"; timeout 60 $B/$v --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 64 --bench 10 2>&1 | tail -1
  done
done
for v in stored/sage-check-levels fma/sage-check-levels stored/sage-check-levels-pipelined fma/sage-check-levels-pipelined; do
  echo "== $v D=128 N=8192"; timeout 60 $B/$v --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 128 --bench 10 2>&1 | tail -1
done
stamp "hand-written"
(cd benchmarks && timeout 90 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192) 2>&1 | tail -8
stamp "end bench"
} > $OUT/bench.log 2>&1
grep -v "^$" $OUT/bench.log | tail -36
stamp "check D=128"
D=128 OUT=$OUT/d128 timeout 130 bash benchmarks/levels_gpu.sh $B/fma $B/kernels check; echo "rc=$?"
stamp "pipelined check D=64"
PROGRAM=sage-check-levels-pipelined D=64 OUT=$OUT/pipe-d64 timeout 120 bash benchmarks/levels_gpu.sh $B/fma $B/kernels check; echo "rc=$?"
for d in d64 d128 pipe-d64; do
  for t in memcheck racecheck synccheck; do echo "== $t"; tail -3 $OUT/$d/levels-$t.log 2>/dev/null; done > $OUT/$d/sanitizers.log
  rm -f $OUT/$d/levels-{memcheck,racecheck,synccheck}.log
done
grep -h "FAIL\|ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/*/*.log | sort | uniq -c
stamp end
