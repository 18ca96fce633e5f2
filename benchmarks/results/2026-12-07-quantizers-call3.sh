# Device call 3 of the eleventh session (2026-12-07), after call 1's
# tree: row maxima shared by 16 lanes a row (sage-launch-loops: Q's and
# K's row magnitudes) and four CTAs an SM for the D = 64 wgmma kernel
# (sage-bound-registers narrow-wgmma-ctas-per-sm). build/gpu-q/bin holds
# this tree's build/bin/sage-check-levels*, build/gpu-q/before c2cc19a's
# sage-check-levels-wgmma-k-smoothing, build/gpu-q/kernels the
# hand-written kernels. (1) Speed, B = 4, H = 32, N = 16k, issue 11's
# recipe: the attention kernel alone (ncu) before and after at D = 64 and
# 128, end to end after, every kernel of one host call after (D = 128),
# then bench_attention.py (SDPA flash / cuDNN, the hand-written kernel).
# (2) The RUN lines of levels-{smoothing,attention,dims}.test and
# compute-sanitizer on the new reductions, while the call's time lasts.
# This is the script as it ran: the `cd benchmarks` of the baselines is
# in a { } group, not a subshell, so (2) ran from benchmarks/ and found
# neither scripts/gpu/run-lines.sh nor the programs (its logs say so);
# call 4 ran (2) on the same warm machine. A rerun should make that group
# a ( ) subshell.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
K=sage-check-levels-wgmma-k-smoothing
{
for d in 64 128; do
  for which in before bin; do
    echo "== $which $K D=$d attention kernel (ncu, 3 launches)"
    # shellcheck disable=SC2086
    timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
      -k regex:'attention.*_kernel$' --launch-count 3 build/gpu-q/$which/$K --D $d \
      --quantizers levels $shape --bench 3 2>&1 | grep "gpu__time_duration"
  done
  echo "== bin $K D=$d end to end"
  # shellcheck disable=SC2086
  timeout 100 build/gpu-q/bin/$K --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
done
stamp speed
echo "== bin $K D=128: every kernel of the second host call (ncu)"
# shellcheck disable=SC2086
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  build/gpu-q/bin/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
  grep gpu__time_duration > $OUT/ncu-bin.csv
awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-bin.csv | sort
stamp ncu
} > $OUT/speed.log 2>&1
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-q/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
scripts/gpu/run-lines.sh build/gpu-q/bin $(( 360 - ($(date +%s) - t0) )) \
  test/Integration/GPU/levels-{smoothing,attention,dims}.test > $OUT/runlines.log 2>&1
stamp runlines
{
for spec in "memcheck sage-check-levels-wgmma-k-smoothing --quantizers levels --D 128" \
            "racecheck sage-check-levels-wgmma-k-smoothing --quantizers levels"; do
  if (( $(date +%s) - t0 > 400 )); then echo "== skipped (time): $spec"; continue; fi
  read -r tool prog args <<<"$spec"
  echo "== $tool $prog $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers"
  # shellcheck disable=SC2086
  timeout 40 compute-sanitizer --tool $tool build/gpu-q/bin/$prog $args \
    --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
cat $OUT/speed.log $OUT/baselines.log; grep -E "RESULT BAD|run-lines|skipped" $OUT/runlines.log; cat $OUT/sanitizers.log
