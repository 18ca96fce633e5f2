#!/usr/bin/env bash
# Builds sage and runs every test: the lit suite (IR round trips,
# diagnostics, passes) and the CPU-model unit tests, through check-sage.
# Then prints the CPU model's accuracy tables.
set -euo pipefail
source "$(dirname "$0")/common.sh"

sage_install_deps
sage_build
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cmake --build "$SAGE_BUILD" --target check-sage 2>&1 | tee "$log" || status=$?

echo
echo "CPU model accuracy against FP64 attention (see unittests/Reference):"
"$SAGE_BUILD/unittests/Reference/SageReferenceTests" \
  --gtest_filter='*Ordering*:*Recipe*' 2>&1 | grep '\[accuracy\]' || true

passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
echo
echo "check-sage: ${passed:-0} passed, ${failed:-0} failed"
exit $status
