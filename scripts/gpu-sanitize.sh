#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the GPU test matrix (tails,
# GQA, causal with Nq != Nk, decode, Nk = 1, the three masks, top-left
# causal, D = 256 in dynamic shared memory, tile sizes other than 64 x 64,
# the wgmma kernel with bulk-copy and cp.async staging, warp-specialized),
# from a build tree carried to a GPU machine:
# build/bin/sage-run and build/kernels. Each run also checks the result
# against FP64 and the CPU model, as sage-run always does.
# API errors are not reported: the runtime counts a kernel's parameters by
# asking cuFuncGetParamInfo for one past the last (CUDA 13 has no count
# query), which returns CUDA_ERROR_INVALID_VALUE by design.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SAGE_BUILD:-$root/build}
sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
configs=(
  "attention_d128_f16.json --B 1 --H 4 --Hkv 2 --Nq 1000 --Nk 777"
  "attention_d128_f16_causal.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "attention_d128_bf16_causal.json --B 2 --H 2 --Hkv 2 --Nq 1029 --Nk 333"
  "attention_d64_f16.json --B 1 --H 2 --Hkv 1 --Nq 1 --Nk 4096"
  "attention_d64_bf16_causal.json --B 1 --H 2 --Hkv 2 --Nq 17 --Nk 1"
  "stablehlo_btnh.json --B 1 --H 2 --Nq 130 --Nk 70"
  "attention_d96_f16_causal.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "attention_d64_f16_packed8.json --B 2 --H 2 --Hkv 1 --Nq 1000 --Nk 777"
  "attention_d128_f16_mask_i1.json --B 2 --H 2 --Hkv 1 --Nq 333 --Nk 1029"
  "attention_d128_f16_mask_f16_heads1.json --B 1 --H 4 --Hkv 2 --Nq 1029 --Nk 333"
  "attention_d64_bf16_causal_mask_f32_batch1_lse.json --B 2 --H 2 --Nq 17 --Nk 1000"
  "attention_d64_f16_causal_top_left.json --B 1 --H 4 --Hkv 2 --Nq 1029 --Nk 333"
  "attention_d128_bf16_causal_top_left_lse.json --B 1 --H 2 --Hkv 2 --Nq 333 --Nk 1029"
  "attention_d256_f16_causal.json --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 333"
  "tiles_d48_bf16_q128_k32.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "tiles_d96_f16_causal_lse_q64_k128.json --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 333"
  "tiles_d128_f16_q128_k128.json --B 1 --H 2 --Hkv 2 --Nq 1000 --Nk 777"
  "tiles_d96_f16_causal_lse_wgmma_q64_k64.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "tiles_d48_bf16_wgmma_q128_k128.json --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 333"
  "attention_d128_f16_sm90a.json --B 1 --H 4 --Hkv 2 --Nq 1000 --Nk 777"
  "attention_d256_f16_causal_sm90a.json --B 1 --H 2 --Hkv 1 --Nq 1029 --Nk 333"
  "attention_d64_bf16_causal_mask_f32_batch1_lse_sm90a.json --B 2 --H 2 --Nq 17 --Nk 1000"
  "attention_d128_f16_causal_sm90a_cpasync.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "attention_d128_f16_causal_sm90a_ws.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
  "attention_d64_bf16_causal_mask_f32_batch1_lse_sm90a_ws.json --B 2 --H 2 --Nq 17 --Nk 1000"
  "attention_d128_f16_causal_sm90a_one_role.json --B 1 --H 4 --Hkv 2 --Nq 333 --Nk 1029"
)
status=0
echo "| tool | plan and sizes | errors | result |"
echo "|---|---|---|---|"
for tool in memcheck racecheck; do
  for config in "${configs[@]}"; do
    read -r plan sizes <<<"$config"
    log=$(mktemp)
    # shellcheck disable=SC2086
    "$sanitizer" --tool "$tool" --error-exitcode 99 --report-api-errors no \
      "$build/bin/sage-run" "$build/kernels/$plan" $sizes --dist outliers \
      >"$log" 2>&1
    rc=$?
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p; s/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" | tail -n 1)
    verdict=ok
    [ $rc -ne 0 ] && verdict="rc=$rc" && status=1
    echo "| $tool | $plan $sizes | ${errors:-?} | $verdict |"
    [ $rc -ne 0 ] && tail -n 20 "$log" >&2
    rm -f "$log"
  done
done
exit $status
