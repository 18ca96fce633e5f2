# Device call 3 of the fourteenth session (2026-12-07): calls 1 and 2 in
# one, trimmed to one call's time (machines were scarce). build/gpu-q/bin:
# this tree's programs (d79d2f4: the split cluster barrier, the
# quantizers' reductions with vector loads); build/gpu-q/prev: 56c35af's
# K-smoothing programs; build/gpu-q/magic: bin's K-smoothing program with
# the scores converted to f32 without cvt.rn.f32.s32 (c81649d: an integer add and a
# float subtract). Steps past LIMIT seconds are skipped.
# (1) Numerics: the RUN lines of levels-cluster.test, levels-smoothing.test
#     and levels-dims.test; memcheck with misaligned inputs.
# (2) B = 4, H = 32, N = 16k, D = 128 and 64: end to end (median of 5),
#     prev, bin, magic and bin's cluster program; the attention kernel
#     alone (ncu, --clock-control none, first launch) of all but prev.
# (3) SDPA flash and cuDNN (bench_sdpa.py), same call.
# Call 4 (2026-12-07-bars-call4.sh) profiles, on the same machine.
set -u
LIMIT=${LIMIT:-540}
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
left() { (( $(date +%s) - t0 < LIMIT - ${1:-0} )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 90 test/Integration/GPU/levels-cluster.test \
  test/Integration/GPU/levels-smoothing.test test/Integration/GPU/levels-dims.test > $OUT/runlines.log 2>&1
scripts/gpu/run-lines.sh build/gpu-q/magic 30 test/Integration/GPU/levels-smoothing.test > $OUT/runlines-magic.log 2>&1
for pd in "$K-cluster 128" "sage-check-levels-wgmma-dims 96"; do
  read -r p d <<<"$pd"
  echo "== memcheck $p --D $d --input-offset 1" >> $OUT/runlines.log
  timeout 30 compute-sanitizer --tool memcheck build/gpu-q/bin/$p --quantizers levels --D $d \
    --input-offset 1 --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers 2>&1 | tail -3 >> $OUT/runlines.log
done
stamp numerics
grep -E "RESULT BAD|run-lines|ERROR SUMMARY|skipped" $OUT/runlines.log $OUT/runlines-magic.log
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
kernel() {  # program, D: the attention kernel's time (ncu, first launch)
  timeout 60 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 \
    --metrics gpu__time_duration.sum build/gpu-q/$1 --D $2 --quantizers levels $shape --bench 1 2>&1 |
    grep -E "gpu__time_duration|==ERROR"
}
speed() {  # D
  for p in prev/$K bin/$K magic/$K bin/$K-cluster; do
    left 45 || continue
    echo "== $p D=$1 end to end: $(timeout 60 build/gpu-q/$p --D $1 --quantizers levels $shape --bench 5 2>&1 | grep -E '^bench|FAIL|rror')"
    [[ $p == prev/* ]] && continue
    echo "== $p D=$1 kernel: $(kernel $p $1)"
  done
  stamp "D=$1"
}
speed 128
left 60 && (cd benchmarks && timeout 60 python3 bench_sdpa.py --dims 64,128 --lengths 16384 --causal 0)
stamp sdpa
speed 64
