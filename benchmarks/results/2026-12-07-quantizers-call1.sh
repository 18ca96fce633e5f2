# Device call 1 of the eleventh session (2026-12-07): speed of this
# session's tree against commit c2cc19a in one call. New: the quantizers
# fused into the stage-order copies (sage-fuse-gathered-producers), their
# rows stored as 16-byte vectors (sage-launch-loops), and the scores'
# per-lane dequantization folded into the softmax's score_scale
# (sage-distribute-tiles). build/gpu-q/bin holds this tree's
# build/bin/sage-check-levels*, build/gpu-q/before c2cc19a's
# sage-check-levels-wgmma-k-smoothing, build/gpu-q/kernels the
# hand-written kernels (unchanged) for bench_attention.py.
# B = 4, H = 32, N = 16k, issue 11's recipe (K smoothing, per-thread
# INT8 Q/K, E4M3 V): (1) end to end (the host function from f16, --bench,
# median) before and after; (2) every kernel of one host call under ncu
# (gpu__time_duration, --clock-control none), before and after, D = 128;
# (3) the attention kernel alone under ncu, D = 128 and 64, after; (4)
# SDPA flash / cuDNN and the hand-written kernel (bench_attention.py).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
K=sage-check-levels-wgmma-k-smoothing
{
for which in before bin; do
  for d in 128 64; do
    echo "== $which $K D=$d end to end"
    # shellcheck disable=SC2086
    timeout 100 build/gpu-q/$which/$K --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
  done
done
stamp e2e
for which in before bin; do
  echo "== $which $K D=128: every kernel of the second host call (ncu)"
  # shellcheck disable=SC2086
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    build/gpu-q/$which/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
    grep gpu__time_duration > $OUT/ncu-$which.csv
  awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-$which.csv | sort
  stamp "ncu $which"
done
for d in 128 64; do
  echo "== bin $K D=$d attention kernel (ncu, 3 launches)"
  # shellcheck disable=SC2086
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:'attention.*_kernel$' --launch-count 3 build/gpu-q/bin/$K --D $d --quantizers levels \
    $shape --bench 3 2>&1 | grep "gpu__time_duration"
done
stamp kernel
} > $OUT/speed.log 2>&1
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-q/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
cat $OUT/speed.log $OUT/baselines.log
