# Device call 1 of the thirteenth session (2026-12-07): the wgmma kernel
# in clusters of two CTAs that share each K/V block by multicast bulk
# copies (cluster-ctas=2, docs/Levels.md "Clusters"). build/gpu-q/bin
# holds this tree's sage-check-levels-wgmma-k-smoothing{,-cluster}.
# (1) The RUN lines of levels-cluster.test and levels-smoothing.test;
# memcheck of the cluster program. (2) Speed at B = 4, H = 32, N = 16k,
# issue 11's recipe: end to end (median of 5) and the attention kernel
# alone (ncu, --clock-control none), without and with clusters;
# bench_attention.py (cuDNN) in the same call.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 150 test/Integration/GPU/levels-cluster.test \
  test/Integration/GPU/levels-smoothing.test > $OUT/runlines.log 2>&1
stamp runlines
{
for args in "--D 128" "--D 64 --input-offset 1"; do
  echo "== memcheck $K-cluster --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers"
  # shellcheck disable=SC2086
  timeout 40 compute-sanitizer --tool memcheck build/gpu-q/bin/$K-cluster \
    --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
{
for d in 64 128; do
  for p in $K $K-cluster; do
    echo "== $p D=$d end to end"
    # shellcheck disable=SC2086
    timeout 100 build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
    echo "== $p D=$d attention kernel (ncu, 3 launches)"
    # shellcheck disable=SC2086
    timeout 150 ncu --clock-control none --kernel-name regex:attention --metrics gpu__time_duration.sum,lts__t_sectors.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
      --csv --print-units base build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 2 2>/dev/null |
      grep -E "gpu__time|lts__t_sectors|gmma" | awk -F'","' '{v=$NF; gsub(/[",]/,"",v); print $(NF-2), v}'
  done
done
} > $OUT/speed.log 2>&1
stamp speed
(
  cd benchmarks && timeout 150 python3 bench_attention.py ../build/gpu-q/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
) > $OUT/baselines.log 2>&1
stamp baselines
grep -E "RESULT BAD|run-lines|skipped" $OUT/runlines.log | tail -5
tail -4 $OUT/runlines.log
cat $OUT/sanitizers.log $OUT/speed.log $OUT/baselines.log
