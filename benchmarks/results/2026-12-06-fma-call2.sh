# Device call 2 (2026-12-06, fifth session of the day): the N = 16384,
# D = 128 speeds of issue 8's no-regression bar, side by side in one call:
# the levels' mma.sync kernel before (base-levels, 9881a79) and after
# (new-levels) the scores' FMA, the wgmma default (new-wgmma-128), the
# hand-written kernels and SDPA. Same build/gpu-levels as call 1. Each
# sage-check-levels run at N = 16k spends about 80 s quantizing its inputs
# on the CPU before the timed launches.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
echo "== hand-written kernels (mma.sync; sm_90a) and SDPA, same call"
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384)
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 128 --lengths 16384 --plan-suffix _sm90a)
stamp "hand-written and SDPA"
for p in base-levels new-levels new-wgmma-128; do
  echo "== $p kernel D=128 N=16384"
  timeout 120 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10 | grep bench:
  stamp "$p"
done
} > $OUT/bench-16k.log 2>&1
grep -h "^==\|^##\|bench:\||" $OUT/bench-16k.log
stamp end
