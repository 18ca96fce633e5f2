# Device call 1 (2026-12-07): every RUN line of
# test/Integration/GPU/levels-*.test (every --sage-levels GPU program),
# run as lit would (a line's exit status and its PASS line; `not` lines
# must fail with the refusal), then compute-sanitizer on the programs
# never run on a GPU, while the call's time lasts. build/gpu-levels/bin
# holds this tree's build/bin/sage-check-levels*. Written in the ninth
# session, which got no device machine; the tenth ran it after its
# changes to every wgmma kernel (the mask's comparisons, the bulk copies'
# wait as one instruction) and with sage-check-levels-wgmma-64x128.
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pass=0; fail=0
{
# The K smoothing recipe (issue 11's) and the first levels programs
# first, then INT4, head dims and granularities; each line only while the
# call's time lasts.
for f in test/Integration/GPU/levels-{smoothing,attention,recipes,dims,granularities}.test; do
  grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' |
  if [[ $f == *levels-recipes.test ]]; then
    awk '/int4/' ; grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' | awk '!/int4/'
  else cat; fi |
  while read -r line; do
    if (( $(date +%s) - t0 > 450 )); then echo "== skipped (time): $line"; continue; fi
    negate=0
    if [[ $line == not\ * ]]; then negate=1; line=${line#not }; fi
    prog=${line%% *}; args=${line#* }
    echo "== $(basename "$f"): $line"
    # shellcheck disable=SC2086
    out=$(timeout 60 "$B/$prog" $args 2>&1); rc=$?
    echo "$out" | grep -v "^  " | tail -6
    if (( negate )); then
      if (( rc != 0 )) && ! grep -q "^PASS" <<<"$out"; then echo "RESULT ok (refused, rc=$rc)"; else echo "RESULT BAD (not refused)"; fi
    else
      if (( rc == 0 )) && grep -q "^PASS" <<<"$out"; then echo "RESULT ok"; else echo "RESULT BAD rc=$rc"; fi
    fi
  done
done
} > $OUT/runlines.log 2>&1
stamp runlines
{
for spec in "racecheck sage-check-levels-wgmma-64x128 --quantizers levels --D 128" \
            "memcheck sage-check-levels-wgmma-64x128 --variant masked --quantizers levels" \
            "memcheck sage-check-levels-int4 --quantizers levels --D 128" \
            "memcheck sage-check-levels-wgmma-dims --quantizers levels --D 256" \
            "racecheck sage-check-levels-int4-sm90a --quantizers levels" \
            "memcheck sage-check-levels-wgmma-per-warp --D 128" \
            "memcheck sage-check-levels-fp16-f16acc --quantizers levels" \
            "memcheck sage-check-levels-f16acc --variant masked --quantizers levels" \
            "racecheck sage-check-levels-wgmma-k-smoothing --quantizers levels --D 128" \
            "memcheck sage-check-levels-sm90 --quantizers levels --D 128" \
            "racecheck sage-check-levels-smooth-kv --quantizers levels"; do
  # The call's time (this session had little device time left): what
  # is left for the sanitizers.
  if (( $(date +%s) - t0 > 500 )); then echo "== skipped (time): $spec"; continue; fi
  read -r tool prog args <<<"$spec"
  echo "== $tool $prog $args --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers"
  # shellcheck disable=SC2086
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 1 $B/$prog $args \
    --B 1 --H 2 --Hkv 1 --Nq 333 --Nk 200 --dist outliers 2>&1 | grep -v "^  " | tail -4
done
} > $OUT/sanitizers.log 2>&1
stamp sanitizers
grep -c "RESULT ok" $OUT/runlines.log
grep -B8 "RESULT BAD" $OUT/runlines.log | head -60
grep "SUMMARY\|^==\|PASS\|FAIL" $OUT/sanitizers.log
stamp end
