#!/usr/bin/env bash
# Checks that every tracked C++ file is formatted as .clang-format says
# (LLVM style, clang-format-22); lists the files that are not. Fix with
#   clang-format-22 -i FILE
set -euo pipefail
source "$(dirname "$0")/common.sh"
sage_install_packages clang-format-22
cd "$SAGE_ROOT"
bad=()
while IFS= read -r file; do
  "$SAGE_LLVM/bin/clang-format" --dry-run -Werror "$file" >/dev/null 2>&1 ||
    bad+=("$file")
done < <(git ls-files '*.cpp' '*.h')
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: not formatted with clang-format-22 (.clang-format):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: $(git ls-files '*.cpp' '*.h' | wc -l) files formatted"
