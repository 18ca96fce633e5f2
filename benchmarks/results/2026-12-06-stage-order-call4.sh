# Device call 4 of the sixth session of 2026-12-06 (call 3's command is in
# 2026-12-06-stage-order.md): so4-* are the final programs: stage-order
# copies 16 bytes a thread, bulk copies, and nvvm.minctasm = 2 for the
# wgmma kernel at D = 64 (sage-attach-nvvm-target narrow-wgmma-ctas-per-sm).
# The RUN lines of levels-attention.test for the mma.sync program (so4:
# its host kernels through the new sage-launch-loops) and both wgmma
# programs, then
# speed against final-wgmma-128 (2606f35) in the same call.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for prog in sage-check-levels sage-check-levels-wgmma sage-check-levels-wgmma-128; do
  grep -E "^# RUN: $prog " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
    while read -r p args; do
      bin=$B/so4/so4${prog#sage-check-levels}
      echo "-- $(basename $bin) $args"; timeout 60 $bin $args | grep -E "vs |lse|PASS|FAIL|rror"
    done
done
stamp check
for d in 64 128; do
  for p in wg/final-wgmma-128 so4/so4-wgmma-128; do
    echo "== $p D=$d N=8192"
    timeout 60 $B/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 | grep bench:
  done
done
for p in wg/final-wgmma-128 so4/so4-wgmma-128; do
  echo "== $p D=64 N=16384"
  timeout 90 $B/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 64 --bench 10 | grep bench:
done
echo "== so4/so4-wgmma-128 D=128 N=16384 from f16"
timeout 90 $B/so4/so4-wgmma-128 --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 5 | grep bench:
stamp bench
