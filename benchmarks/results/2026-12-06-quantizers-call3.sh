# Device call 3 (2026-12-06, second session of the day): where the end-to-
# end time of --quantizers levels goes: every kernel's duration (ncu,
# gpu__time_duration) of one call at B = 4, H = 32, N = 4096, D = 64, and
# the host function's wall time with nsys's CUDA API summary if present.
set -u
B=$PWD/build/gpu-levels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 ncu --metrics gpu__time_duration.sum --csv $B/e2e/sage-check-levels --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 4096 --Nk 4096 --D 64 --bench 1 > $OUT/ncu.csv 2> $OUT/ncu.err
echo "ncu rc=$?"
python3 - "$OUT/ncu.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; k = head.index("Kernel Name"); v = head.index("Metric Value"); u = head.index("Metric Unit")
total = collections.OrderedDict()
for r in rows[1:]:
    scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(r[u], 1.0)
    total[r[k]] = total.get(r[k], 0.0) + float(r[v].replace(",", "")) * scale
for name, ms in total.items():
    print(f"{ms:10.3f} ms  {name}")
print(f"{sum(total.values()):10.3f} ms  total over {len(rows) - 1} launches")
PY
if command -v nsys >/dev/null; then
  timeout 200 nsys profile -o $OUT/e2e --stats=false $B/e2e/sage-check-levels --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 4096 --Nk 4096 --D 64 --bench 3 > /dev/null 2>&1
  timeout 100 nsys stats --report cuda_api_sum,cuda_gpu_kern_sum $OUT/e2e.nsys-rep 2>&1 | head -60
  rm -f $OUT/e2e.nsys-rep $OUT/e2e.sqlite
fi
