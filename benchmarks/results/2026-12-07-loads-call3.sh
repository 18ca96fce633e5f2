# Device call 3 of the twelfth session (2026-12-07): V^T's quantizer with
# column runs (sage-launch-loops: a thread takes 8 channels of its 16
# tokens, loading 8 contiguous f16 of a token at once). build/gpu-q/bin
# holds this tree's build/bin/sage-check-levels*, build/gpu-q/mid call
# 2's program, build/gpu-q/prev the eleventh session's (2811739).
# (1) Every RUN line of test/Integration/GPU/levels-*.test; memcheck with
# aligned and misaligned inputs. (2) Speed at B = 4, H = 32, N = 16k,
# issue 11's recipe: end to end (median of 5), every kernel of one host
# call at D = 128 (ncu), bench_attention.py in the same call.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 240 test/Integration/GPU/levels-*.test \
  > $OUT/runlines.log 2>&1
stamp runlines
{
for args in "--D 128" "--D 128 --input-offset 1" "--D 64 --input-offset 1"; do
  echo "== memcheck $K --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 600 --dist outliers"
  # shellcheck disable=SC2086
  timeout 40 compute-sanitizer --tool memcheck build/gpu-q/bin/$K \
    --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 600 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
{
for d in 64 128; do
  for which in prev mid bin; do
    echo "== $which $K D=$d end to end"
    # shellcheck disable=SC2086
    timeout 100 build/gpu-q/$which/$K --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
  done
done
echo "== bin $K D=128: every kernel of one host call (ncu)"
# shellcheck disable=SC2086
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
  build/gpu-q/bin/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
  grep gpu__time_duration > $OUT/ncu-bin.csv
awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-bin.csv | sort
} > $OUT/speed.log 2>&1
stamp speed
(
  cd benchmarks && timeout 150 python3 bench_attention.py ../build/gpu-q/kernels \
    --dims 64,128 --lengths 16384 --plan-suffix _k_smoothing_sm90a
) > $OUT/baselines.log 2>&1
stamp baselines
grep -E "RESULT BAD|run-lines|skipped" $OUT/runlines.log | tail -5
cat $OUT/sanitizers.log $OUT/speed.log $OUT/baselines.log
