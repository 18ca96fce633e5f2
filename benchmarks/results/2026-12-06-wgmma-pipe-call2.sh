# Device call 2 (2026-12-06, fourth session of the day): what call 1 ran
# out of time for. The bars of levels-attention.test for
# sage-check-levels-wgmma-128 (call 1's levels_gpu.sh could not read its
# RUN lines: the program name has digits), then the D = 128, N = 16384
# speeds, each run stamped, and SDPA / the hand-written kernels in the
# same run. Same build/gpu-levels/wg as call 1.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
grep "^# RUN: sage-check-levels-wgmma-128 " test/Integration/GPU/levels-attention.test |
  sed 's/^# RUN: [a-z0-9-]* //; s/ | FileCheck.*//' |
  while read -r args; do echo "-- $args"; timeout 60 $B/wg/sage-check-levels-wgmma-128 $args | tail -3; done
} > $OUT/bars.log 2>&1
stamp bars
{
for p in tmp-wgmma-s2 tmp-wgmma-128s1 sage-check-levels-wgmma-128; do
  stamp "$p kernel D=128"
  echo "== $p kernel D=128 N=16384"
  timeout 90 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10
done
stamp "e2e"
echo "== sage-check-levels-wgmma-128 end to end (levels quantizers) D=128 N=16384"
timeout 60 $B/wg/sage-check-levels-wgmma-128 --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10
stamp "SDPA"
echo "== hand-written kernels (mma.sync, then sm_90a) and SDPA, same run"
(cd benchmarks && timeout 100 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 16384 --plan-suffix _sm90a)
stamp end
} > $OUT/bench-16k.log 2>&1
cat $OUT/bars.log | grep -v "^sizes"
grep -h "^==\|^##\|bench:\||" $OUT/bench-16k.log | head -40
