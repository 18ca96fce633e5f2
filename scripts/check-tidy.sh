#!/usr/bin/env bash
# Runs clang-tidy-22 with the repo's .clang-tidy (a small check set: bugs
# that compile cleanly, copies that cost) over sage's C++ files: the files
# given, or with --all every tracked .cpp outside test/. Findings in sage's
# own headers are reported too; upstream headers are not. Needs a
# configured build (compile_commands.json in $SAGE_BUILD, default build/).
# About 25 s a file on the 2-core development machine, so CI does not run
# it over everything; run it on the files you touched:
#   ./scripts/check-tidy.sh $(git diff --name-only main -- '*.cpp')
set -euo pipefail
source "$(dirname "$0")/common.sh"
sage_install_packages clang-tidy-22
cd "$SAGE_ROOT"
if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files '*.cpp' | grep -v '^test/')
else
  files=("$@")
fi
[ ${#files[@]} -gt 0 ] || { echo "check-tidy: no files"; exit 0; }
[ -f "$SAGE_BUILD/compile_commands.json" ] || sage_configure
status=0
printf '%s\n' "${files[@]}" | xargs -P "${SAGE_TIDY_JOBS:-2}" -I{} \
  "$SAGE_LLVM/bin/clang-tidy" -p "$SAGE_BUILD" --quiet \
  --extra-arg=-Wno-unknown-warning-option \
  --header-filter="^$SAGE_ROOT/(include|lib|tools|unittests)/" {} || status=$?
[ $status -eq 0 ] && echo "check-tidy: ${#files[@]} files clean"
exit $status
