# Device call 2 of the sixth session of 2026-12-06: so2-wgmma-128 is call
# 1's so-wgmma-128 with sage-launch-loops running a short static innermost
# dimension in each thread (the stage-order copies: 16 bytes a thread
# instead of one). Against final-wgmma-128 (2606f35, cp.async staging, no
# stored copies): the host function (what --bench times: for the
# quantized inputs the attention kernel plus, in so2, the three
# stage-order copies), then ncu's duration of each kernel of one call, then
# end to end from f16 (--quantizers levels). First the RUN lines of
# sage-check-levels-wgmma-natural (V's keys stored in natural order, put in
# P's order by the stage-order copy) from levels-attention.test.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
grep -E "^# RUN: sage-check-levels-wgmma-natural " test/Integration/GPU/levels-attention.test | sed 's/^# RUN: //; s/ | FileCheck.*//' |
  while read -r prog args; do
    echo "-- so2-wgmma-natural $args"; timeout 60 $B/so2/so2-wgmma-natural $args | grep -E "kernel:|vs |PASS|FAIL|rror"
  done
stamp natural
{
for d in 64 128; do
  for p in wg/final-wgmma-128 so2/so2-wgmma-128; do
    echo "== $p D=$d N=8192"
    timeout 60 $B/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 | grep bench:
    echo "== $p D=$d N=8192 from f16"
    timeout 60 $B/$p --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 | grep bench:
  done
done
stamp bench-8k
for p in wg/final-wgmma-128 so2/so2-wgmma-128; do
  echo "== ncu $p D=128 N=8192 (kernel durations, one call)"
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum $B/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 128 --bench 1 2>&1 | grep -E "attention_kernel|loop_[0-9]|gpu__time_duration" | sed "s/(.*//"
done
stamp ncu
for p in wg/final-wgmma-128 so2/so2-wgmma-128; do
  echo "== $p D=128 N=16384"
  timeout 90 $B/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --bench 10 | grep bench:
done
stamp 16k
} > $OUT/bench.log 2>&1
cat $OUT/bench.log
