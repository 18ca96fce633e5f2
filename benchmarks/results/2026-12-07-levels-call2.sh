# NOT RUN: on 2026-12-07 no device machine came (15 calls, 04:05 to
# 05:44 UTC, until the session's device time was spent on failed starts);
# the next session with a GPU runs it as it stands.
# Device call 2 (2026-12-07, ninth session): speed of the --sage-levels
# wgmma kernel (sm_90a, two warpgroups, two stages) at B = 4, H = 32,
# N = 16384, not causal, beside the hand-written sm_90a kernels and PyTorch
# SDPA (flash, cuDNN) in the same call: the kernel alone (the CPU model's
# quantized inputs, Q and K smoothed) and end to end from f16 (the levels'
# statistics and quantizers), and end to end with issue 11's recipe (K
# smoothed, Q not: sage-check-levels-wgmma-k-smoothing). --bench: median
# of 10 launches, no reference. build/gpu-levels holds this tree's
# build/bin programs (bin/) and the hand-written kernels' PTX and plans
# (kernels/).
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for spec in "sage-check-levels-wgmma-128 --D 128" \
            "sage-check-levels-wgmma-128 --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-k-smoothing --D 128 --quantizers levels" \
            "sage-check-levels-wgmma-128 --D 64"; do
  read -r prog args <<<"$spec"
  echo "== $prog $args N=16384"
  # shellcheck disable=SC2086
  timeout 150 $B/$prog $args --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --bench 10 | grep "bench:\|kernel:"
  stamp "$prog $args"
done
} > $OUT/levels-bench.log 2>&1
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-levels/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
cat $OUT/levels-bench.log $OUT/baselines.log
