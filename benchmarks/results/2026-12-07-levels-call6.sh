# Device call 6 (2026-12-07): the final tree's K-smoothing levels kernel
# (sage-check-levels-wgmma-k-smoothing: 64 x 128, the softmax scale as
# score_scale) alone under ncu (gpu__time_duration, --clock-control none,
# 3 launches) at B = 4, H = 32, N = 16384, D = 128 and 64, then in the
# same call the hand-written K-smoothing kernels and SDPA flash and cuDNN
# (bench_attention.py), so that the ratios come from one call.
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P=$B/sage-check-levels-wgmma-k-smoothing
{
for d in 128 64; do
  echo "== D=$d N=16384 kernel (ncu)"
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:'attention.*_kernel$' --launch-count 3 $P --D $d --quantizers levels \
    --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --bench 3 2>&1 |
    grep "gpu__time_duration"
done
stamp levels
} > $OUT/levels-bench.log 2>&1
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-levels/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
cat $OUT/levels-bench.log $OUT/baselines.log
