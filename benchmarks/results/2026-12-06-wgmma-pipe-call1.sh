# Device call 1 (2026-12-06, fourth session of the day): the levels' wgmma
# kernel with two stages of the K/V tiles (the wgmma ops now declare their
# memory effects, so sage-pipeline-tiles stages past them) and with two
# warpgroups a CTA (block-q=128). build/gpu-levels/wg holds this tree's
# build/bin programs: sage-check-levels (mma.sync, sm_89),
# sage-check-levels-wgmma (1 stage, block-q 64), sage-check-levels-wgmma-128
# (stages=2 block-q=128), and two built for this call only with the same
# CMake function: tmp-wgmma-s2 (stages=2, block-q 64) and tmp-wgmma-128s1
# (1 stage, block-q 128). Numerics against the CPU model and FP64, with
# compute-sanitizer; then speed at N = 16384 beside SDPA (flash, cuDNN)
# and the hand-written kernels, same run.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/wg128 $OUT/s2
stamp "check D=64, wgmma-128 (sizes, bars, sanitizers)"
PROGRAM=sage-check-levels-wgmma-128 D=64 OUT=$OUT/wg128 timeout 200 bash benchmarks/levels_gpu.sh $B/wg $B/kernels check; echo "rc=$?"
stamp "check D=64, stages=2 block-q=64 (sizes, sanitizers)"
PROGRAM=tmp-wgmma-s2 D=64 OUT=$OUT/s2 timeout 150 bash benchmarks/levels_gpu.sh $B/wg $B/kernels check; echo "rc=$?"
stamp "check D=128 and from f16"
{
for p in sage-check-levels-wgmma-128 tmp-wgmma-s2 tmp-wgmma-128s1; do
for size in "1 2 1 333 1029" "2 4 2 1029 1000" "1 2 2 1 17" "1 2 1 333 77"; do
  read -r b h hkv nq nk <<<"$size"
  for dist in randn outliers; do
    echo "== $p D=128 B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
    timeout 60 $B/wg/$p --D 128 --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --dist $dist
  done
done
for d in 64 128; do
  for dist in randn outliers; do
    echo "== $p levels quantizers D=$d B=2 H=4 Hkv=2 Nq=1029 Nk=1000 $dist"
    timeout 60 $B/wg/$p --quantizers levels --D $d --B 2 --H 4 --Hkv 2 --Nq 1029 --Nk 1000 --dist $dist
  done
done
done
echo "== racecheck D=128 wgmma-128"
compute-sanitizer --tool racecheck --error-exitcode 1 $B/wg/sage-check-levels-wgmma-128 --D 128 --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers | tail -2
} > $OUT/d128-f16-check.log 2>&1
stamp "bench N=16384"
{
for d in 64 128; do
  for p in sage-check-levels sage-check-levels-wgmma tmp-wgmma-s2 tmp-wgmma-128s1 sage-check-levels-wgmma-128; do
    echo "== $p kernel D=$d N=16384"
    timeout 100 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D $d --bench 10
  done
  echo "== sage-check-levels-wgmma-128 end to end (levels quantizers) D=$d N=16384"
  timeout 60 $B/wg/sage-check-levels-wgmma-128 --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D $d --bench 10
done
echo "== hand-written kernels (mma.sync, then sm_90a) and SDPA, same run"
(cd benchmarks && timeout 120 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 16384 && timeout 120 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 16384 --plan-suffix _sm90a)
} > $OUT/bench-16k.log 2>&1
stamp "summary"
for dir in wg128 s2; do
  for t in memcheck racecheck synccheck; do echo "== $dir $t"; tail -3 $OUT/$dir/levels-$t.log 2>/dev/null; done > $OUT/$dir/sanitizers.log
  rm -f $OUT/$dir/levels-{memcheck,racecheck,synccheck}.log
done
grep -h "PASS\|FAIL\|rror" $OUT/wg128/levels-check.log $OUT/s2/levels-check.log $OUT/d128-f16-check.log | awk '{print $1, $2}' | sort | uniq -c | sort -rn | head
grep -h "vs model" $OUT/wg128/levels-check.log $OUT/s2/levels-check.log $OUT/d128-f16-check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|rror" $OUT/*/sanitizers.log $OUT/d128-f16-check.log | sort | uniq -c
grep -h "^==\|bench:\||" $OUT/bench-16k.log | head -60
stamp end
