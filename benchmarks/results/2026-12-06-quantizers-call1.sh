# Device call 1 (2026-12-06, second session of the day): --sage-levels
# from f16 Q, K, V (levels-attention-f16{,-d128}.mlir: the statistics and
# quantizers of sage-lower-quantizers / sage-launch-loops, then the
# attention kernel) against the CPU model and FP64, randn and outliers,
# the 16 sizes of benchmarks/levels_gpu.sh and the bars of
# test/Integration/GPU/levels-attention.test, with compute-sanitizer at
# D = 64; the sizes at D = 128. build/gpu-levels/e2e is this tree's
# build/bin (61584ee).
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64 $OUT/d128
stamp "check D=64, levels' quantizers"
QUANTIZERS=levels D=64 OUT=$OUT/d64 timeout 260 bash benchmarks/levels_gpu.sh $B/e2e $B/kernels check; echo "rc=$?"
stamp "check D=128, levels' quantizers (sizes only)"
{
for size in "1 2 1 333 1029" "2 4 2 1029 1000" "1 2 2 1 17" "1 2 1 333 77" "2 2 1 1029 333"; do
  read -r b h hkv nq nk <<<"$size"
  for dist in randn outliers; do
    echo "== B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
    timeout 60 $B/e2e/sage-check-levels --quantizers levels --D 128 --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --dist $dist
  done
done
} > $OUT/d128/levels-check.log 2>&1
for t in memcheck racecheck synccheck; do echo "== $t"; tail -3 $OUT/d64/levels-$t.log 2>/dev/null; done > $OUT/d64/sanitizers.log
rm -f $OUT/d64/levels-{memcheck,racecheck,synccheck}.log
grep -h "PASS\|FAIL\|vs model\|rror" $OUT/*/levels-check.log | awk '{print $1, $2, $4}' | sort | uniq -c | sort -rn | head -20
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|rror" $OUT/d64/sanitizers.log
stamp end
