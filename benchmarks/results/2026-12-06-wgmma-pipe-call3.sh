# Device call 3 (2026-12-06, fourth session of the day). new-* are this
# tree's sage-check-levels{,-wgmma,-wgmma-128}: the core-matrix cp.async in
# a bank-conflict-free order (a core matrix's 8 rows to 8 consecutive
# threads; LowerStaging's CopyPlan::groupRows), and --variant masked
# (levels-attention-f16-masked.mlir: causal, an additive mask, the LSE,
# which the levels now lower). sage-check-levels-wgmma-128 is call 1's
# build (before the copy order), run side by side for speed (D = 128
# only: this session had about 5 minutes of device time left).
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for p in new-wgmma-128 new-wgmma; do
for d in 64 128; do
for size in "1 2 1 333 1029" "2 4 2 1029 1000"; do
  read -r b h hkv nq nk <<<"$size"
  for dist in randn outliers; do
    echo "== $p D=$d B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
    timeout 60 $B/wg/$p --D $d --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --dist $dist
  done
done
done
done
for t in memcheck racecheck; do
  echo "== $t new-wgmma-128 D=64"
  compute-sanitizer --tool $t --error-exitcode 1 $B/wg/new-wgmma-128 --D 64 --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers | tail -2
done
} > $OUT/check.log 2>&1
stamp check
{
for p in new-levels new-wgmma-128; do
for size in "2 4 2 1000 1029" "1 2 2 333 77" "1 2 1 77 333" "2 4 4 1029 1029"; do
  read -r b h hkv nq nk <<<"$size"
  for dist in randn outliers; do
    echo "== $p masked B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
    timeout 60 $B/wg/$p --variant masked --quantizers levels --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --dist $dist
  done
done
done
echo "== memcheck new-wgmma-128 masked"
compute-sanitizer --tool memcheck --error-exitcode 1 $B/wg/new-wgmma-128 --variant masked --quantizers levels --B 1 --H 2 --Hkv 1 --Nq 200 --Nk 333 --dist outliers | tail -3
} > $OUT/masked.log 2>&1
stamp masked
{
for d in 128; do
  for p in sage-check-levels-wgmma-128 new-wgmma-128; do
    echo "== $p kernel D=$d N=8192"
    timeout 60 $B/wg/$p --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10
  done
done
} > $OUT/bench-8k.log 2>&1
stamp bench
grep -h "PASS\|FAIL\|rror" $OUT/check.log $OUT/masked.log | sort | uniq -c
grep -h "vs model" $OUT/check.log | grep -oE "rel_l1=[0-9.]+" | sort | uniq -c
grep -h "SUMMARY" $OUT/check.log $OUT/masked.log
grep -h "^== \|vs fp64\|vs model\|^lse" $OUT/masked.log | head -80
grep -h "^==\|bench:" $OUT/bench-8k.log
stamp end
