# Call 2: the two-stage kernel's numerics (the committed one, loop-top
# barrier dropped, now with ldmatrix), then speed of the three variants at
# D = 64 and the hand-written kernel and SDPA beside them.
set -u
B=$PWD/build/gpu-levels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for d in 64 128; do
  mkdir -p $OUT/pipe-d$d
  start=$(date +%s)
  PROGRAM=sage-check-levels-pipelined D=$d OUT=$OUT/pipe-d$d bash benchmarks/levels_gpu.sh $B/new $B/kernels check
  echo "pipelined check D=$d rc=$? $(( $(date +%s) - start )) s"
done
for n in 4096 16384; do
  for v in prev/sage-check-levels new/sage-check-levels new/sage-check-levels-pipelined; do
    echo "== $v D=64 N=$n"; $B/$v --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n --D 64 --bench 10 2>&1 | tail -1
  done
done
(cd benchmarks && python3 bench_attention.py $B/kernels --dims 64 --lengths 4096,16384) 2>&1 | tail -12
