#!/usr/bin/env bash
# Compile time and peak memory of --sage-to-ptx for modules of 1 to 100
# attentions (copies of examples/attention.mlir, one per function):
#   benchmarks/compile_scaling.sh [build dir]
set -euo pipefail
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$root/examples/attention.mlir" "$work" <<'PY'
import sys
src = open(sys.argv[1]).read()
maps = [l for l in src.splitlines() if l.startswith("#")]
body = src[src.index("func.func @attention"):]
body = body[:body.rindex("}") + 1]
for n in (1, 10, 25, 50, 100):
    funcs = [body.replace("@attention", f"@attention_{i}", 1) for i in range(n)]
    open(f"{sys.argv[2]}/m{n}.mlir", "w").write("\n".join(maps + funcs) + "\n")
PY
echo "| attentions | seconds | s / attention | peak RSS MB |"
echo "|---|---|---|---|"
for n in 1 10 25 50 100; do
  /usr/bin/time -f "%e %M" -o "$work/t" "$build/bin/sage-opt" "$work/m$n.mlir" \
    --sage-raise-attention --sage-to-ptx="chip=sm_90" -o /dev/null
  read -r seconds kb < "$work/t"
  awk -v n="$n" -v s="$seconds" -v kb="$kb" \
    'BEGIN { printf "| %d | %.2f | %.3f | %.0f |\n", n, s, s / n, kb / 1024 }'
done
