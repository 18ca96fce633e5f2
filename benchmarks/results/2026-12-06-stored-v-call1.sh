# One device call (2026-12-06): the levels kernel with V stored for the
# P V MMA (v_layout; build/gpu-levels/stored, this session's tree) against
# the CPU model and FP64 (one stage at D = 64 and 128, two stages at
# D = 64), with sanitizers; its speed beside the previous default (new:
# 712fd84, V transposed in shared memory each block), builds capped at 128
# registers (ctas4: --sage-levels ctas-per-sm=4, ctas4s2: with stages=2;
# built by /tmp/variant.sh as described in the results file) and the
# hand-written kernel at N = 8192; then ncu of both levels kernels.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64 $OUT/d128 $OUT/pipe-d64
stamp "check D=64"
D=64 OUT=$OUT/d64 timeout 180 bash benchmarks/levels_gpu.sh $B/stored $B/kernels check; echo "rc=$?"
tail -4 $OUT/d64/levels-check.log
{
stamp "bench"
# D = 64: the previous default (new), V stored (stored, and its two-stage
# program), and both capped at 128 registers (ctas4, ctas4s2).
for round in 1 2; do
  for v in new/sage-check-levels stored/sage-check-levels stored/sage-check-levels-pipelined ctas4/sage-check-levels ctas4s2/sage-check-levels; do
    echo "== $v D=64 N=8192 round $round"; timeout 60 $B/$v --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 64 --bench 10 2>&1 | tail -1
  done
done
for v in new/sage-check-levels stored/sage-check-levels stored/sage-check-levels-pipelined; do
  echo "== $v D=128 N=8192"; timeout 60 $B/$v --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 128 --bench 10 2>&1 | tail -1
done
stamp "hand-written"
(cd benchmarks && timeout 90 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192) 2>&1 | tail -12
} > $OUT/bench.log 2>&1
cat $OUT/bench.log | grep -v "^$" | tail -40
stamp "check D=128"
D=128 OUT=$OUT/d128 timeout 150 bash benchmarks/levels_gpu.sh $B/stored $B/kernels check; echo "rc=$?"
stamp "pipelined check D=64"
PROGRAM=sage-check-levels-pipelined D=64 OUT=$OUT/pipe-d64 timeout 150 bash benchmarks/levels_gpu.sh $B/stored $B/kernels check; echo "rc=$?"
# Sanitizer logs: one file a directory (fewer files to fetch).
for d in d64 d128 pipe-d64; do
  for t in memcheck racecheck synccheck; do echo "== $t"; tail -3 $OUT/$d/levels-$t.log; done > $OUT/$d/sanitizers.log
  rm -f $OUT/$d/levels-{memcheck,racecheck,synccheck}.log
done
{
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section InstructionStats --section SchedulerStats"
for v in stored new; do
  stamp "ncu $v"
  timeout 90 ncu $S --kernel-name regex:attention --launch-count 1 $B/$v/sage-check-levels --B 4 --H 32 --Hkv 32 --Nq 4096 --Nk 4096 --D 64 --bench 1 2>&1 | grep -v "^==PROF=="
done
stamp end
} > $OUT/ncu.log 2>&1
grep -h "FAIL\|rc=\|ERROR SUMMARY" $OUT/*/*.log | sort | uniq -c
