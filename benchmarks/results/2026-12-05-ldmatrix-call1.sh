set -u
B=$PWD/build/gpu-levels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for d in 64 128; do
  mkdir -p $OUT/d$d
  start=$(date +%s)
  D=$d OUT=$OUT/d$d bash benchmarks/levels_gpu.sh $B/new $B/kernels check; echo "check D=$d rc=$? $(( $(date +%s) - start )) s"
  grep -E "PASS|FAIL|RelL1|CosSim" $OUT/d$d/levels-check.log | tail -4
  tail -2 $OUT/d$d/levels-*check.log | grep -i error
done
for d in 64 128; do for v in prev new; do
  echo "== $v D=$d N=8192"; $B/$v/sage-check-levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 2>&1 | tail -2
done; done
