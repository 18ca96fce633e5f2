# Device call 1 of the twelfth session (2026-12-07): numerics of this
# tree (vector loads in the stage-order quantizers behind a run-time
# alignment check, K's mean and V's channel maxima in chunks of 256
# tokens). build/gpu-q/bin holds this tree's build/bin/sage-check-levels*.
# Every RUN line of test/Integration/GPU/levels-*.test
# (scripts/gpu/run-lines.sh), then compute-sanitizer memcheck on the
# K-smoothing program with aligned and misaligned (--input-offset 1)
# inputs, and racecheck.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
scripts/gpu/run-lines.sh build/gpu-q/bin 440 test/Integration/GPU/levels-*.test \
  > $OUT/runlines.log 2>&1
stamp runlines
{
for spec in "memcheck --D 128" "memcheck --D 128 --input-offset 1" "racecheck --D 64"; do
  if (( $(date +%s) - t0 > 540 )); then echo "== skipped (time): $spec"; continue; fi
  read -r tool args <<<"$spec"
  echo "== $tool sage-check-levels-wgmma-k-smoothing --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 600 --dist outliers"
  # shellcheck disable=SC2086
  timeout 40 compute-sanitizer --tool $tool build/gpu-q/bin/sage-check-levels-wgmma-k-smoothing \
    --quantizers levels $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 600 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
grep -E "RESULT BAD|run-lines|skipped|^ok|^bad" $OUT/runlines.log | tail -8; tail -3 $OUT/runlines.log; cat $OUT/sanitizers.log
