# Device call 5 of the twelfth session (2026-12-07): where the time goes,
# for the next steps. ncu sections of this tree's program (build/gpu-q/bin,
# call 3's) at B = 4, H = 32, N = 16k, D = 128, issue 11's recipe: the
# kernels outside the attention that take longest (Q's and V^T's
# quantizers, K's mean in chunks, K's row maxima) and the attention
# kernel (speed of light, warp states, pipes).
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
K=build/gpu-q/bin/sage-check-levels-wgmma-k-smoothing
# shellcheck disable=SC2086
timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --section Occupancy --section LaunchStats -k regex:'^loop_(0|6|22|24)$' --launch-count 4 \
  $K --D 128 --quantizers levels $shape --bench 1 > $OUT/ncu-quantizers.txt 2>&1
stamp quantizers
# shellcheck disable=SC2086
timeout 300 ncu --clock-control none --section SpeedOfLight --section WarpStateStats \
  --section ComputeWorkloadAnalysis --section Occupancy -k regex:'attention.*_kernel$' --launch-count 1 \
  $K --D 128 --quantizers levels $shape --bench 1 > $OUT/ncu-attention.txt 2>&1
stamp attention
grep -vE "^==PROF==|^ +-+ +-+" $OUT/ncu-quantizers.txt | grep -E "loop_|Duration|Throughput|Occupancy|Registers|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Issue Slots|Block Limit" | head -80
grep -vE "^==PROF==" $OUT/ncu-attention.txt | grep -E "attention|Duration|Throughput|Occupancy|Registers|Warp Cycles|Stall|Issued|Pipe|Eligible|Active" | head -60
