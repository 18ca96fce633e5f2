# Device call 4 (2026-12-06, second session of the day), 2a47b24's
# build/bin (build/gpu-levels/e2e): block means summed per block; sage-launch-loops with the parallel
# dimensions first and register accumulators, the runtime's buffer cache.
# (1) --quantizers levels at D = 64 against the CPU model and FP64 (the 16
# sizes, the bars, compute-sanitizer); (2) speed, B = 4, H = 32, N = 8192,
# median of 10 synchronized calls: the kernel alone and end to end from
# f16, D = 64 one stage and D = 128 two stages; (3) every kernel's duration
# (ncu gpu__time_duration) of one end-to-end call at N = 4096, D = 64.
set -u
B=$PWD/build/gpu-levels
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p $OUT/d64
stamp "check D=64, levels' quantizers"
QUANTIZERS=levels D=64 OUT=$OUT/d64 timeout 200 bash benchmarks/levels_gpu.sh $B/e2e $B/kernels check; echo "rc=$?"
for t in memcheck racecheck synccheck; do echo "== $t"; tail -3 $OUT/d64/levels-$t.log 2>/dev/null; done > $OUT/d64/sanitizers.log
rm -f $OUT/d64/levels-{memcheck,racecheck,synccheck}.log
grep -h "PASS\|FAIL\|vs model\|rror" $OUT/d64/levels-check.log | awk '{print $1, $2, $4}' | sort | uniq -c | sort -rn | head
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/d64/sanitizers.log
stamp "bench"
{
for q in cpu levels; do
  echo "== sage-check-levels D=64 N=8192 quantizers=$q"
  timeout 70 $B/e2e/sage-check-levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 64 --quantizers $q --bench 10 2>&1 | tail -1
  echo "== sage-check-levels-pipelined D=128 N=8192 quantizers=$q"
  timeout 90 $B/e2e/sage-check-levels-pipelined --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 128 --quantizers $q --bench 10 2>&1 | tail -1
done
} 2>&1 | tee $OUT/bench.log
stamp "D=128 N=16384 kernel alone"
timeout 150 $B/e2e/sage-check-levels-pipelined --B 4 --H 32 --Hkv 32 --Nq 16384 --Nk 16384 --D 128 --quantizers cpu --bench 10 2>&1 | tail -1 | tee -a $OUT/bench.log
stamp "ncu"
timeout 150 ncu --metrics gpu__time_duration.sum --csv $B/e2e/sage-check-levels --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 4096 --Nk 4096 --D 64 --bench 1 > $OUT/ncu.csv 2> $OUT/ncu.err
echo "ncu rc=$?"
python3 - "$OUT/ncu.csv" <<'PY' | tee $OUT/ncu-summary.log
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; k = head.index("Kernel Name"); v = head.index("Metric Value"); u = head.index("Metric Unit")
scale = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0, "s": 1e3, "second": 1e3}
total = 0.0
for r in rows[1:]:
    ms = float(r[v].replace(",", "")) * scale.get(r[u], 1.0)
    total += ms
    print(f"{ms:9.3f} ms  {r[k]}  ({r[u]})")
print(f"{total:9.3f} ms  total over {len(rows) - 1} launches")
PY
rm -f $OUT/ncu.csv
stamp end
