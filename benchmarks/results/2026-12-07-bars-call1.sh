# Device call 1 of the fourteenth session (2026-12-07): the split cluster
# barrier (commits 1de37ae, 2cb99d4), never run before, and issue 11's
# bars on the chip this call gets. build/gpu-q/bin holds this tree's
# sage-check-levels-wgmma-k-smoothing (no cluster) and -cluster.
# (1) The RUN lines of levels-cluster.test; memcheck of the cluster
# program with a spare CTA. (2) At B = 4, H = 32: end to end (host
# function from f16, median of 5) and the attention kernel alone (ncu,
# --clock-control none, the first launch), D = 128 and 64 at N = 16k and
# D = 128 at N = 4k, both programs. (3) SDPA flash and cuDNN in the same
# call (bench_sdpa.py). (4) ncu sections of the D = 64 and 128 kernels
# (with the transcendental (XU) and tensor pipes' shares).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 90 test/Integration/GPU/levels-cluster.test > $OUT/runlines.log 2>&1
timeout 40 compute-sanitizer --tool memcheck build/gpu-q/bin/$K-cluster --quantizers levels --D 128 \
  --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers 2>&1 | tail -3 >> $OUT/runlines.log
stamp runlines
grep -E "RESULT BAD|run-lines|ERROR SUMMARY" $OUT/runlines.log
{
for dn in "128 16384" "64 16384" "128 4096"; do
  read -r d n <<<"$dn"
  shape="--B 4 --H 32 --Hkv 32 --Nq $n --Nk $n"
  for p in $K $K-cluster; do
    echo "== $p D=$d N=$n end to end"
    # shellcheck disable=SC2086
    timeout 60 build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
    echo "== $p D=$d N=$n attention kernel (ncu)"
    # shellcheck disable=SC2086
    timeout 90 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 \
      --metrics gpu__time_duration.sum build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 1 2>&1 |
      grep -E "gpu__time_duration|==PROF==.*rror|==ERROR"
  done
  stamp "D=$d N=$n"
done
} > $OUT/speed.log 2>&1
cat $OUT/speed.log
(cd benchmarks && timeout 120 python3 bench_sdpa.py --dims 64,128 --lengths 4096,16384 --causal 0) > $OUT/sdpa.log 2>&1
cat $OUT/sdpa.log
stamp sdpa
for d in 64 128; do
  timeout 100 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy \
    build/gpu-q/bin/$K --D $d --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --bench 1 \
    > $OUT/ncu-d$d.txt 2>&1
  # Separately: an unknown metric name fails the whole command.
  m=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
  m=$m,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
  timeout 60 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 --metrics $m \
    build/gpu-q/bin/$K --D $d --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --bench 1 2>&1 |
    grep -E "pct|rror" >> $OUT/ncu-d$d.txt
  stamp "ncu D=$d"
done
