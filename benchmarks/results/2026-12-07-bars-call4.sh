# Device call 4 of the fourteenth session (2026-12-07), right after call 3
# on the same machine and programs (see 2026-12-07-bars-call3.sh).
# (1) Every kernel of one host call at D = 128 (ncu), prev and bin.
# (2) The attention kernel's pipes (XU: ex2 and conversions; FMA; ALU;
#     tensor) at D = 64 and 128, magic and bin; ncu sections of magic's
#     D = 128 kernel.
set -u
LIMIT=${LIMIT:-540}
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
left() { (( $(date +%s) - t0 < LIMIT - ${1:-0} )); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K=sage-check-levels-wgmma-k-smoothing
shape="--B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384"
for which in prev bin; do
  left 60 || continue
  echo "== $which $K D=128: every kernel of one host call (ncu)"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    build/gpu-q/$which/$K --D 128 --quantizers levels $shape --bench 1 2>/dev/null |
    grep gpu__time_duration > $OUT/ncu-$which.csv
  awk -F'","' '{t=$NF; gsub(/[",]/,"",t); n[$5]++; s[$5]+=t} END {for (k in s) printf "%-36s %3d launches %10.1f us total\n", k, n[k], s[k]/1000}' $OUT/ncu-$which.csv | sort
done
stamp ncu-kernels
# The pipes' shares (a metric name ncu does not know fails only this).
m=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
m=$m,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
for d in 64 128; do
  left 40 || continue
  echo "== magic $K D=$d pipes (ncu)"
  timeout 40 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 --metrics $m \
    build/gpu-q/magic/$K --D $d --quantizers levels $shape --bench 1 2>&1 | grep -E "pct|rror"
  echo "== bin $K D=$d pipes (ncu)"
  timeout 40 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 --metrics $m \
    build/gpu-q/bin/$K --D $d --quantizers levels $shape --bench 1 2>&1 | grep -E "pct|rror"
done
left 60 && timeout 60 ncu --clock-control none --kernel-name regex:'attention.*_kernel$' --launch-count 1 \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy \
  build/gpu-q/magic/$K --D 128 --quantizers levels $shape --bench 1 > $OUT/ncu-d128.txt 2>&1
stamp ncu-sections
