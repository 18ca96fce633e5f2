# Device call 2 (2026-12-07): speed of the --sage-levels wgmma kernels at
# B = 4, H = 32, N = 16384, not causal, beside PyTorch SDPA (flash, cuDNN)
# and the hand-written sm_90a kernels in the same call. Issue 11's recipe
# (K smoothed, Q not) on 64 x 128 tiles with three CTAs an SM
# (sage-check-levels-wgmma-64x128, the hand-written kernel's fastest
# schedule) and on the default 128 x 64 (sage-check-levels-wgmma-k-
# smoothing), end to end from f16 (--quantizers levels: the levels'
# statistics and quantizers, then the attention); and the Q and K smoothed
# kernel alone on the CPU model's quantized inputs (wgmma-128). --bench:
# median of 10 launches of the host function, host clock. Then the
# attention kernel alone under ncu (gpu__time_duration, --clock-control
# none), 3 launches. build/gpu-levels holds this tree's build/bin programs
# (bin/) and the hand-written kernels' PTX and plans (kernels/).
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
{
for spec in "sage-check-levels-wgmma-64x128 --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-k-smoothing --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-64x128 --D 64 --quantizers levels" \
            "sage-check-levels-wgmma-128 --D 128" \
            "sage-check-levels-wgmma-128 --D 64"; do
  read -r prog args <<<"$spec"
  echo "== $prog $args N=16384"
  # shellcheck disable=SC2086
  timeout 120 $B/$prog $args $shape --bench 10 | grep "bench:\|kernel:"
  stamp "$prog $args"
done
} > $OUT/levels-bench.log 2>&1
{
for spec in "sage-check-levels-wgmma-64x128 --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-k-smoothing --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-64x128 --D 64 --quantizers levels"; do
  (( $(date +%s) - t0 > 330 )) && { echo "== skipped (time): $spec"; continue; }
  read -r prog args <<<"$spec"
  echo "== ncu $prog $args N=16384"
  # shellcheck disable=SC2086
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:'attention.*_kernel$' --launch-count 3 $B/$prog $args $shape \
    --bench 3 2>&1 | grep "attention\|gpu__time_duration"
done
} > $OUT/levels-ncu.log 2>&1
stamp ncu
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-levels/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
cat $OUT/levels-bench.log $OUT/levels-ncu.log $OUT/baselines.log
