# Third device call (2026-12-06, the last of the session's device time):
# numerics of the base-2 kernel (fma) where call 2 ran out of time: one
# stage at D = 128 and two stages at D = 64, four cases each (GQA, short
# last blocks, randn and outliers), no sanitizers.
set -u
B=$PWD/build/gpu-levels/fma
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for run in "sage-check-levels 128" "sage-check-levels-pipelined 64"; do
  read -r program dim <<<"$run"
  for size in "2 4 2 1000 777" "1 2 1 333 77"; do
    read -r b h hkv nq nk <<<"$size"
    for dist in randn outliers; do
      echo "== $program D=$dim B=$b H=$h Hkv=$hkv Nq=$nq Nk=$nk $dist"
      timeout 30 $B/$program --B $b --H $h --Hkv $hkv --Nq $nq --Nk $nk --D $dim --dist $dist | grep "vs \|PASS\|FAIL"
    done
  done
done
