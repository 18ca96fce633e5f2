# Device call 2 of the eleventh session (2026-12-07): numerics of this
# session's tree (the quantizers fused into the stage-order copies, rows
# stored as vectors, the per-lane dequantization in the softmax's
# score_scale). Every RUN line of test/Integration/GPU/levels-*.test with
# build/gpu-q/bin (this tree's build/bin/sage-check-levels*), as lit runs
# them (scripts/gpu/run-lines.sh), then compute-sanitizer on the wgmma
# quantizers and kernels.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
scripts/gpu/run-lines.sh build/gpu-q/bin 420 \
  test/Integration/GPU/levels-{smoothing,attention,recipes,dims,granularities}.test \
  > $OUT/runlines.log 2>&1
stamp runlines
{
for spec in "memcheck sage-check-levels-wgmma-k-smoothing --quantizers levels --D 128" \
            "racecheck sage-check-levels-wgmma-k-smoothing --quantizers levels --D 128" \
            "memcheck sage-check-levels-wgmma-natural --variant masked --quantizers levels" \
            "memcheck sage-check-levels-wgmma-per-warp --quantizers levels --D 128"; do
  if (( $(date +%s) - t0 > 540 )); then echo "== skipped (time): $spec"; continue; fi
  read -r tool prog args <<<"$spec"
  echo "== $tool $prog $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers"
  # shellcheck disable=SC2086
  timeout 60 compute-sanitizer --tool $tool build/gpu-q/bin/$prog $args \
    --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
grep -E "RESULT BAD|run-lines|skipped" $OUT/runlines.log; cat $OUT/sanitizers.log
