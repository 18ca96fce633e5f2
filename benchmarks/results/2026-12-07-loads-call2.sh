# Device call 2 of the twelfth session (2026-12-07), speed, B = 4, H = 32,
# N = 16k, issue 11's recipe (INT8 per-thread Q/K, K smoothed, E4M3 V).
# build/gpu-q/bin holds this tree's build/bin/sage-check-levels*,
# build/gpu-q/prev the eleventh session's last program (7014abd),
# build/gpu-q/kernels the hand-written kernels. End to end (the host
# function from f16, median of 5) before and after at D = 64 and 128; the
# attention kernel alone after (ncu, 3 launches); every kernel of one host
# call before and after at D = 128 (ncu); then bench_attention.py (SDPA
# flash / cuDNN, the hand-written kernel) in the same call.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
K=sage-check-levels-wgmma-k-smoothing
{
for d in 64 128; do
  for which in prev bin; do
    echo "== $which $K D=$d end to end"
    # shellcheck disable=SC2086
    timeout 100 build/gpu-q/$which/$K --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
  done
  echo "== bin $K D=$d attention kernel (ncu, 3 launches)"
  # shellcheck disable=SC2086
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:'attention.*_kernel$' --launch-count 3 build/gpu-q/bin/$K --D $d \
    --quantizers levels $shape --bench 3 2>&1 | grep "gpu__time_duration"
done
stamp speed
for which in prev bin; do
  echo "== $which $K D=128: every kernel of one host call (ncu)"
  # shellcheck disable=SC2086
  timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    build/gpu-q/$which/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
    grep gpu__time_duration > $OUT/ncu-$which.csv
  awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-$which.csv | sort
done
stamp ncu
} > $OUT/speed.log 2>&1
(
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-q/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
) > $OUT/baselines.log 2>&1
stamp baselines
cat $OUT/speed.log $OUT/baselines.log
