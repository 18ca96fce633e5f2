# NOT RUN: on 2026-12-07 no device machine came (15 calls, 04:05 to
# 05:44 UTC, until the session's device time was spent on failed starts);
# the next session with a GPU runs it as it stands.
# Device call 1 (2026-12-07, ninth session): the RUN lines of
# test/Integration/GPU/levels-*.test (every --sage-levels GPU program,
# among them the granularity, smoothing and recipe programs written on
# 2026-12-07 without a GPU), run as lit would (a line's exit status and its
# PASS line; `not` lines must fail with the refusal), then compute-sanitizer
# on the new programs while the call's time lasts. build/gpu-levels/bin holds this tree's build/bin/
# sage-check-levels* (with sage-check-levels-int4: 4+8 through
# sage-pack-int4, written this session).
set -u
B=$PWD/build/gpu-levels/bin
t0=$(date +%s)
stamp() { echo "## $1 at +$(( $(date +%s) - t0 )) s"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
pass=0; fail=0
{
# This session's programs first (INT4, head dims), then the files written
# without a GPU in the last one, then levels-attention.test's sm_90 lines,
# never run; each line only while the call's time lasts (device time was
# short).
for f in test/Integration/GPU/levels-{recipes,dims,granularities,smoothing,attention}.test; do
  grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' |
  if [[ $f == *levels-recipes.test ]]; then
    awk '/int4/' ; grep -h "^# RUN: " "$f" | sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//' | awk '!/int4/'
  elif [[ $f == *levels-attention.test ]]; then
    awk '{ p = ($1 == "not") ? $2 : $1 } p == "sage-check-levels-sm90"'
  else cat; fi |
  while read -r line; do
    if (( $(date +%s) - t0 > 170 )); then echo "== skipped (time): $line"; continue; fi
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
for spec in "memcheck sage-check-levels-int4 --quantizers levels --D 128" \
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
  if (( $(date +%s) - t0 > 170 )); then echo "== skipped (time): $spec"; continue; fi
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
