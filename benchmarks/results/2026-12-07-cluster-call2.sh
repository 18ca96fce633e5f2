# Device call 2 of the thirteenth session (2026-12-07), same build/gpu-q
# as call 1: where the cluster kernel's time goes. The attention kernel
# alone at B = 4, H = 32, N = 16k, D = 128 and 64, without and with
# clusters: its time (ncu, --clock-control none, one launch), then its
# SpeedOfLight, WarpStateStats and MemoryWorkloadAnalysis sections at
# D = 128.
set -u
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
for d in 64 128; do
  for p in $K $K-cluster; do
    echo "== $p D=$d attention kernel time (ncu)"
    # shellcheck disable=SC2086
    timeout 120 ncu --clock-control none --kernel-name regex:attention_f16 --launch-count 1 \
      --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum.per_second \
      build/gpu-q/bin/$p --D $d --quantizers levels $shape --bench 1 2>&1 |
      grep -E "gpu__time|lts__|==PROF==.*rror|attention_f16"
  done
done
stamp times
for p in $K $K-cluster; do
  echo "== $p D=128 sections (ncu)"
  # shellcheck disable=SC2086
  timeout 150 ncu --clock-control none --kernel-name regex:attention_f16 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
    build/gpu-q/bin/$p --D 128 --quantizers levels $shape --bench 1 2>&1 | grep -vE "^(bench|vs|PASS|kernel:)" | tail -75
done > $OUT/sections.txt 2>&1
stamp sections
cat $OUT/sections.txt
