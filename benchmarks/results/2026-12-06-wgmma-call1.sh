# Device call 1 (2026-12-06, third session of the day): the first wgmma
# kernel of --sage-levels (chip=sm_90a mma-scope=warpgroup store-values=1:
# Q K^T as s8 wgmma and P V as e4m3 wgmma on descriptors of core-matrix
# tiles staged by cp.async; sage-check-levels-wgmma) against the CPU model
# and FP64, randn and outliers, D = 64 and 128, with compute-sanitizer;
# then its speed beside the mma.sync levels kernel (sage-check-levels),
# the hand-written kernels and SDPA, same run. build/gpu-levels/wg is this
# tree's build/bin.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64 $OUT/d128
stamp "check D=64, wgmma"
PROGRAM=sage-check-levels-wgmma D=64 OUT=$OUT/d64 timeout 200 bash benchmarks/levels_gpu.sh $B/wg $B/kernels check; echo "rc=$?"
stamp "check D=128 and from f16, wgmma"
{
for size in "1 2 1 333 1029" "2 4 2 1029 1000" "1 2 2 1 17" "1 2 1 333 77"; do
  read -r b h hkv nq nk <<<"$size"
  for dist in randn outliers; do
    echo "== D=128 B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
    timeout 60 $B/wg/sage-check-levels-wgmma --D 128 --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --dist $dist
  done
done
for d in 64 128; do
  for dist in randn outliers; do
    echo "== levels quantizers D=$d B=2 H=4 Hkv=2 Nq=1029 Nk=1000 $dist"
    timeout 60 $B/wg/sage-check-levels-wgmma --quantizers levels --D $d --B 2 --H 4 --Hkv 2 --Nq 1029 --Nk 1000 --dist $dist
  done
done
} > $OUT/d128/wgmma-check.log 2>&1
stamp "bench"
{
for d in 64 128; do
  for p in sage-check-levels sage-check-levels-wgmma; do
    echo "== $p kernel D=$d N=8192"
    timeout 120 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10
  done
  echo "== sage-check-levels-wgmma end to end (levels quantizers) D=$d N=8192"
  timeout 60 $B/wg/sage-check-levels-wgmma --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10
done
echo "== hand-written kernels (mma.sync and sm_90a) and SDPA, same run"
(cd benchmarks && timeout 150 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192 && timeout 150 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192 --plan-suffix _sm90a)
} > $OUT/wgmma-bench.log 2>&1
stamp "summary"
for t in memcheck racecheck synccheck; do echo "== $t"; tail -3 $OUT/d64/levels-$t.log 2>/dev/null; done > $OUT/d64/sanitizers.log
rm -f $OUT/d64/levels-{memcheck,racecheck,synccheck}.log
grep -h "PASS\|FAIL\|vs model\|rror" $OUT/d64/levels-check.log $OUT/d128/wgmma-check.log | awk '{print $1, $2, $4}' | sort | uniq -c | sort -rn | head -20
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|rror" $OUT/d64/sanitizers.log
grep -h "bench:\|TOPS\||" $OUT/wgmma-bench.log | head -40
stamp end
