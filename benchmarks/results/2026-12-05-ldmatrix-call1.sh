# One device call, most important first (each part under a timeout so that
# what ran comes back): numerics + sanitizers of the default (one-stage)
# ldmatrix kernel at D = 64, its speed beside the previous kernel (prev:
# commit 7c01433's default, ld.shared.b32 fragment reads) and the
# hand-written kernel, D = 128 numerics, then the two-stage kernel.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64 $OUT/d128 $OUT/pipe-d64
stamp "check D=64"
D=64 OUT=$OUT/d64 timeout 180 bash benchmarks/levels_gpu.sh $B/new $B/kernels check; echo "rc=$?"
stamp "bench"
for d in 64 128; do for v in prev/sage-check-levels new/sage-check-levels; do
  echo "== $v D=$d N=8192"; timeout 60 $B/$v --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D $d --bench 10 2>&1 | tail -1
done; done
stamp "hand-written"
(cd benchmarks && timeout 60 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192) 2>&1 | tail -12
stamp "check D=128"
D=128 OUT=$OUT/d128 timeout 150 bash benchmarks/levels_gpu.sh $B/new $B/kernels check; echo "rc=$?"
stamp "pipelined check D=64"
PROGRAM=sage-check-levels-pipelined D=64 OUT=$OUT/pipe-d64 timeout 150 bash benchmarks/levels_gpu.sh $B/new $B/kernels check; echo "rc=$?"
stamp end
