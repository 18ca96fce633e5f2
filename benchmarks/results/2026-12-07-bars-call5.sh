# Device call 5 of the fourteenth session (2026-12-07): call 3's
# questions in the little device time the failed machine starts left.
# Programs (build/gpu-q/prev: 56c35af;
# bin: d79d2f4; magic: c81649d). (1) The RUN lines of levels-cluster.test
# (bin) and levels-smoothing.test (magic, which holds bin's quantizers).
# (2) B = 4, H = 32, N = 16k: end to end (median of 5) of prev, bin, magic
# and bin's cluster program at D = 128 and 64; magic's and bin's kernel
# alone at D = 128 (ncu). (3) SDPA flash and cuDNN (bench_sdpa.py).
set -u
LIMIT=${LIMIT:-250}
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
left() { (( $(date +%s) - t0 < LIMIT - ${1:-0} )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
scripts/gpu/run-lines.sh build/gpu-q/bin 40 test/Integration/GPU/levels-cluster.test 2>&1 | grep -E "RESULT|run-lines|^vs|skipped"
scripts/gpu/run-lines.sh build/gpu-q/magic 40 test/Integration/GPU/levels-smoothing.test 2>&1 | grep -E "RESULT|run-lines|^vs|skipped"
stamp numerics
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
for d in 128 64; do
  for p in prev/$K bin/$K magic/$K bin/$K-cluster; do
    left 15 || continue
    echo "== $p D=$d end to end: $(timeout 30 build/gpu-q/$p --D $d --quantizers levels $shape --bench 5 2>&1 | grep -E '^bench|FAIL|rror')"
  done
done
stamp speed
left 40 && (cd benchmarks && timeout 40 python3 bench_sdpa.py --dims 64,128 --lengths 16384 --causal 0)
stamp sdpa
for p in magic/$K bin/$K; do
  left 20 || continue
  echo "== $p D=128 kernel: $(timeout 30 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 \
    --metrics gpu__time_duration.sum build/gpu-q/$p --D 128 --quantizers levels $shape --bench 1 2>&1 |
    grep -E 'gpu__time_duration|==ERROR')"
done
stamp kernels
