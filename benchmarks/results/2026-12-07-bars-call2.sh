# Device call 2 of the fourteenth session (2026-12-07): the quantizers'
# reductions with vector loads (sage-launch-loops: a shared row
# reduction's lanes take runs of up to 8 consecutive elements, one vector
# load each; a column reduction's thread takes 8 channels, one vector
# load a token). build/gpu-q/bin: this tree's programs; build/gpu-q/prev:
# HEAD's (56c35af) K-smoothing program. (1) The RUN lines of four
# levels-*.test files whose programs are in bin (every reduction shape:
# D = 32, 64, 96, 128, 256, the sm_89 and sm_90a kernels, granularities,
# V smoothing, misaligned inputs); memcheck with misaligned inputs.
# (2) D = 128 and 64, N = 16k, B = 4, H = 32: end to end (median of 5),
# prev and bin, and every kernel of one host call at D = 128 (ncu).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 200 test/Integration/GPU/levels-smoothing.test \
  test/Integration/GPU/levels-dims.test test/Integration/GPU/levels-granularities.test \
  test/Integration/GPU/levels-recipes.test > $OUT/runlines2.log 2>&1
for d in 128 96; do
  p=$K; [[ $d == 96 ]] && p=sage-check-levels-wgmma-dims
  timeout 40 compute-sanitizer --tool memcheck build/gpu-q/bin/$p --quantizers levels --D $d \
    --input-offset 1 --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers 2>&1 | tail -3 >> $OUT/runlines2.log
done
stamp runlines
grep -E "RESULT BAD|run-lines|ERROR SUMMARY|skipped" $OUT/runlines2.log
tail -2 $OUT/runlines2.log
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
{
for d in 128 64; do
  for which in prev bin; do
    echo "== $which $K D=$d end to end"
    # shellcheck disable=SC2086
    timeout 60 build/gpu-q/$which/$K --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
  done
done
stamp speed
for which in prev bin; do
  echo "== $which $K D=128: every kernel of one host call (ncu)"
  # shellcheck disable=SC2086
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    build/gpu-q/$which/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
    grep gpu__time_duration > $OUT/ncu-$which.csv
  awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-$which.csv | sort
done
stamp ncu
} > $OUT/speed2.log 2>&1
cat $OUT/speed2.log
