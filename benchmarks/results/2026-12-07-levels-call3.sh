# Device call 3 (2026-12-07): after the levels took the measured
# schedule's tiles by default (sage-check-levels-wgmma-k-smoothing is now
# 64 x 128: three CTAs an SM at D = 128, four at D = 64) and
# sage-bound-registers bounds one-warpgroup wgmma kernels. (1) The RUN
# lines of levels-smoothing.test and levels-attention.test, as lit runs
# them. (2) Issue 11's recipe through the levels at B = 4, H = 32, not
# causal: the attention kernel alone under ncu (gpu__time_duration,
# --clock-control none, 3 launches) and end to end (--bench 10, host
# clock) at N = 16384 (D = 128, 64) and 4096 (D = 128); every kernel of one
# end-to-end call at D = 128, N = 16384 under ncu (where its time goes).
# (3) The hand-written K-smoothing kernels (the tuned schedules) beside
# SDPA flash and cuDNN at N = 4096 and 16384 (bench_attention.py).
# build/gpu-levels holds this tree's build/bin programs (bin/) and the
# hand-written kernels' PTX and plans (kernels/).
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for f in test/Integration/GPU/levels-{smoothing,attention}.test; do
  grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' |
  while read -r line; do
    if (( $(date +%s) - t0 > 200 )); then echo "== skipped (time): $line"; continue; fi
    negate=0
    if [[ $line == not\ * ]]; then negate=1; line=${line#not }; fi
    prog=${line%% *}; args=${line#* }
    echo "== $(basename "$f"): $line"
    # shellcheck disable=SC2086
    out=$(timeout 60 "$B/$prog" $args 2>&1); rc=$?
    echo "$out" | grep -v "^  " | tail -6
    if (( negate )); then
      if (( rc != 0 )) && ! grep -q "^PASS" <<<"$out"; then echo "RESULT ok (refused, rc=$rc)"; else echo "RESULT BAD (not refused)"; fi
    else
      if (( rc == 0 )) && grep -q "^PASS" <<<"$out"; then echo "RESULT ok"; else echo "RESULT BAD rc=$rc"; fi
    fi
  done
done
} > $OUT/runlines.log 2>&1
stamp runlines
P=$B/sage-check-levels-wgmma-k-smoothing
{
for spec in "128 16384" "64 16384" "128 4096"; do
  read -r d n <<<"$spec"
  shape="--D $d --quantizers levels --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n"
  echo "== D=$d N=$n end to end"
  # shellcheck disable=SC2086
  timeout 100 $P $shape --bench 10 | grep "bench:\|kernel:"
  echo "== D=$d N=$n kernel (ncu)"
  # shellcheck disable=SC2086
  timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum \
    -k regex:'attention.*_kernel$' --launch-count 3 $P $shape --bench 3 2>&1 |
    grep "gpu__time_duration"
  stamp "D=$d N=$n"
done
echo "== every kernel of one end-to-end call, D=128 N=16384 (the second)"
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum \
  --launch-skip 0 --launch-count 200 $P --D 128 --quantizers levels --B 4 \
  --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --bench 1 2>&1 |
  grep -v "^==PROF==" | grep "(\|gpu__time_duration" | paste - - |
  awk '{print $1, $(NF-1), $NF}'
stamp breakdown
} > $OUT/levels-bench.log 2>&1
{
  cd benchmarks && timeout 200 python3 bench_attention.py ../build/gpu-levels/kernels \
    --dims 64,128 --lengths 4096,16384 --plan-suffix _k_smoothing_sm90a
} > $OUT/baselines.log 2>&1
stamp baselines
grep -c "RESULT ok" $OUT/runlines.log
grep -B8 "RESULT BAD" $OUT/runlines.log | head -40
cat $OUT/levels-bench.log $OUT/baselines.log
