# Device call 4 of the eleventh session (2026-12-07), on call 3's warm
# machine with the same build/gpu-q: call 3's numerics part, which found
# no programs there. The RUN lines of levels-{smoothing,attention,dims}
# .test with this tree's programs (scripts/gpu/run-lines.sh), then
# compute-sanitizer on the K-smoothing program with the levels'
# quantizers (the shared row reductions' shuffles included).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
scripts/gpu/run-lines.sh build/gpu-q/bin 230 \
  test/Integration/GPU/levels-{smoothing,attention,dims}.test > $OUT/runlines.log 2>&1
stamp runlines
{
for spec in "memcheck sage-check-levels-wgmma-k-smoothing --quantizers levels --D 128" \
            "racecheck sage-check-levels-wgmma-k-smoothing --quantizers levels"; do
  read -r tool prog args <<<"$spec"
  echo "== $tool $prog $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers"
  # shellcheck disable=SC2086
  timeout 40 compute-sanitizer --tool $tool build/gpu-q/bin/$prog $args \
    --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers 2>&1 | tail -3
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
grep -E "RESULT BAD|run-lines|skipped" $OUT/runlines.log; cat $OUT/sanitizers.log
