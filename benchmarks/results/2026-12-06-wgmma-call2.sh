# Device call 2 (2026-12-06, third session of the day): the levels' wgmma
# kernel (sage-check-levels-wgmma) beside the levels' mma.sync kernel
# (sage-check-levels), the hand-written kernels (mma.sync and _sm90a) and
# SDPA at N = 16384, B = 4, H = 32, D = 64 and 128, not causal: kernel
# alone (operands quantized by the CPU model) and end to end from f16
# (the levels' quantizers). build/gpu-levels/wg is this tree's build/bin.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for d in 64 128; do
  for p in sage-check-levels sage-check-levels-wgmma; do
    echo "== $p kernel D=$d N=16384"
    timeout 150 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D $d --bench 10
    echo "== $p end to end (levels quantizers) D=$d N=16384"
    timeout 60 $B/wg/$p --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D $d --bench 10
  done
done
echo "== hand-written kernels (mma.sync, then sm_90a) and SDPA, same run"
(cd benchmarks && timeout 120 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 16384 && timeout 120 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 16384 --plan-suffix _sm90a)
} > $OUT/wgmma-bench-16k.log 2>&1
grep -h "^==\|bench:\||" $OUT/wgmma-bench-16k.log | head -40
stamp end
