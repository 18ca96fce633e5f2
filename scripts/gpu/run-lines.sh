#!/usr/bin/env bash
# Runs the RUN lines of GPU lit tests on a device machine that has no lit
# or FileCheck (benchmarks/results/*-call*.sh): each line's program from
# BIN, its exit status and PASS line checked as the test's FileCheck
# would see them; a `not` line must fail without PASS. Lines whose program
# is not in BIN are skipped, and so is every line once LIMIT seconds
# (since the script started) have passed.
#
#   scripts/gpu/run-lines.sh BIN LIMIT test/Integration/GPU/levels-*.test
#
# Prints one "RESULT ok" or "RESULT BAD" a line, then the counts.
set -u
bin=$1 limit=$2
shift 2
t0=$(date +%s)
ok=0 bad=0
for f in "$@"; do
  while read -r line; do
    negate=0
    if [[ $line == not\ * ]]; then negate=1; line=${line#not }; fi
    prog=${line%% *} args=${line#* }
    [[ -x $bin/$prog ]] || continue
    if (( $(date +%s) - t0 > limit )); then
      echo "== skipped (time): $line"
      continue
    fi
    echo "== $(basename "$f"): $line"
    # shellcheck disable=SC2086
    out=$(timeout 60 "$bin/$prog" $args 2>&1); rc=$?
    echo "$out" | grep -v "^  " | tail -6
    if (( negate )); then
      passed=$(( rc != 0 )) && grep -q "^PASS" <<<"$out" && passed=0
    else
      passed=0
      (( rc == 0 )) && grep -q "^PASS" <<<"$out" && passed=1
    fi
    if (( passed )); then echo "RESULT ok"; ok=$((ok + 1));
    else echo "RESULT BAD rc=$rc"; bad=$((bad + 1)); fi
  done < <(grep -h "^# RUN: " "$f" |
           sed 's/^# RUN: //; s/ | FileCheck.*//; s/ 2>&1$//')
done
echo "== run-lines: $ok ok, $bad bad"
