# Device call 2 (2026-12-06, second session of the day): speed, B = 4,
# H = 32, not causal, median of 10 synchronized calls (host clock): the
# levels kernel alone (--quantizers cpu: operands quantized on the CPU
# before timing) and end to end from f16 (--quantizers levels: the
# statistics and quantizers' kernels, their buffers' cuMemAlloc / cuMemFree
# and the attention kernel, each launch synchronized), one stage at D = 64
# and two stages (sage-check-levels-pipelined) at D = 128, N = 8192 and
# 16384; then the hand-written kernel with PyTorch SDPA in the same run
# (benchmarks/bench_attention.py). build/gpu-levels/e2e is 61584ee's
# build/bin.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for n in 8192 16384; do
  for q in cpu levels; do
    echo "== sage-check-levels D=64 N=$n quantizers=$q"
    timeout 70 $B/e2e/sage-check-levels --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n --D 64 --quantizers $q --bench 10 2>&1 | tail -1
    echo "== sage-check-levels-pipelined D=128 N=$n quantizers=$q"
    timeout 70 $B/e2e/sage-check-levels-pipelined --B 4 --H 32 --Hkv 32 --Nq $n --Nk $n --D 128 --quantizers $q --bench 10 2>&1 | tail -1
  done
  stamp "N=$n"
done
stamp "hand-written and SDPA"
(cd benchmarks && timeout 150 python3 bench_attention.py $B/kernels --dims 64,128 --lengths 8192,16384) 2>&1 | tail -12
stamp end
} 2>&1 | tee $OUT/bench.log
