# Device call 5 (2026-12-07): after sage-tile-attention gives the softmax
# scale to sage.online_softmax as its score_scale (one fma a score with
# the max's subtraction, instead of a multiply and a subtraction), which
# changes every --sage-levels kernel without an additive mask. (1) Every
# RUN line of test/Integration/GPU/levels-*.test, as lit runs them. (2)
# The K-smoothing kernel alone (sage-check-levels-wgmma-k-smoothing, the
# default 64 x 128 tiles) under ncu at B = 4, H = 32, N = 16384, D = 128
# and 64 (gpu__time_duration, --clock-control none, 3 launches).
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
stamp bench
} > $OUT/levels-bench.log 2>&1
{
for f in test/Integration/GPU/levels-{smoothing,attention,recipes,dims,granularities}.test; do
  grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' |
  while read -r line; do
    if (( $(date +%s) - t0 > 420 )); then echo "== skipped (time): $line"; continue; fi
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
grep -c "RESULT ok" $OUT/runlines.log
grep -c "RESULT" $OUT/runlines.log
grep -B8 "RESULT BAD" $OUT/runlines.log | head -40
cat $OUT/levels-bench.log
