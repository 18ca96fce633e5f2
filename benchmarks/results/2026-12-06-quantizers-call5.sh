# Device call 5 (2026-12-06, second session of the day): --sage-levels
# "chip=sm_89 store-values=1" from f16 (V's quantizer writes the v_layout
# form): sage-check-levels with levels-attention-f16{,-d128}.mlir compiled
# with that option (build/gpu-levels/stored-f16, built by hand from this
# tree as CMake builds the default one, the option added), against the CPU
# model and FP64 at D = 64 and 128, memcheck, and its end-to-end speed at
# B = 4, H = 32, N = 8192, D = 64.
set -u
P=$PWD/build/gpu-levels/stored-f16/sage-check-levels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for args in "--B 2 --H 4 --Hkv 2 --Nq 1000 --Nk 1029 --dist randn" "--B 2 --H 4 --Hkv 2 --Nq 1029 --Nk 1000 --dist outliers" "--B 1 --H 2 --Hkv 2 --Nq 1 --Nk 130 --dist randn" "--B 1 --H 2 --Hkv 1 --Nq 333 --Nk 77 --dist outliers" "--D 128 --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 77 --dist outliers" "--D 128 --B 2 --H 4 --Hkv 2 --Nq 1000 --Nk 1029 --dist randn"; do
  echo "== $args"
  timeout 40 $P --quantizers levels $args --max-model-rel-l1 0.002 2>&1 | grep "vs\|PASS\|FAIL"
done
echo "== memcheck"
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 1 $P --quantizers levels --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 77 --dist outliers 2>&1 | tail -2
echo "== bench D=64 N=8192 end to end"
timeout 60 $P --quantizers levels --B 4 --H 32 --Hkv 32 --Nq 8192 --Nk 8192 --D 64 --bench 10 2>&1 | tail -1
