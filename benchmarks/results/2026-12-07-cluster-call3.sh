# Device call 3 of the thirteenth session (2026-12-07): call 2's
# questions in the few device seconds left (failed machine starts took
# the rest). build/gpu-q/bin: sage-check-levels-wgmma-k-smoothing (no
# cluster) and -cluster at commit 1de37ae (cluster barrier split, block
# j + 1 issued after block j's score wgmmas are committed). The RUN lines
# of levels-cluster.test, then end to end at B = 4, H = 32, N = 16k,
# D = 128 and 64 (median of 5), both programs in this call.
set -u
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 40 test/Integration/GPU/levels-cluster.test 2>&1 |
  grep -E "RESULT|run-lines|^vs"
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
for d in 128 64; do
  for p in $K $K-cluster; do
    echo "== $p D=$d end to end"
    # shellcheck disable=SC2086
    timeout 30 build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E "^bench|FAIL|rror"
  done
done
