# Device call 2 of the thirteenth session (2026-12-07), trimmed to the
# device time left. build/gpu-q/bin: sage-check-levels-wgmma-k-smoothing
# (no cluster) and -cluster with the cluster barrier split (arrive at the
# end of an iteration, wait where the next block is issued, after block
# j's score wgmmas are committed; commit 1de37ae); build/gpu-q/full: call
# 1's -cluster (a whole cluster barrier before each block's copies), not
# run for lack of device time. (1) The RUN lines of levels-cluster.test,
# memcheck with a spare CTA. (2) At B = 4, H = 32, N = 16k: end to end
# (median of 5) at D = 128 and 64, and at D = 128 the attention kernel
# alone (ncu, --clock-control none, one launch, with its L2 bytes).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 60 test/Integration/GPU/levels-cluster.test > $OUT/runlines.log 2>&1
timeout 40 compute-sanitizer --tool memcheck build/gpu-q/bin/$K-cluster --quantizers levels --D 128 \
  --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 600 --dist outliers 2>&1 | tail -3 >> $OUT/runlines.log
stamp runlines
grep -E "RESULT BAD|run-lines|ERROR SUMMARY" $OUT/runlines.log
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
for d in 128 64; do
  for p in bin/$K bin/$K-cluster; do
    echo "== $p D=$d end to end"
    # shellcheck disable=SC2086
    timeout 40 build/gpu-q/$p --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
    [[ $d == 64 ]] && continue
    echo "== $p D=$d attention kernel (ncu)"
    # shellcheck disable=SC2086
    timeout 60 ncu --clock-control none --kernel-name regex:attention_f16 --launch-count 1 \
      --metrics gpu__time_duration.sum,lts__t_bytes.sum \
      build/gpu-q/$p --D $d --quantizers levels $shape --bench 1 2>&1 |
      grep -E "gpu__time|lts__t_bytes|==PROF==.*rror|==ERROR"
  done
  stamp "D=$d"
done
