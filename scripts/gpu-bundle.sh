#!/usr/bin/env bash
# Packs what the GPU tests need on a machine with a GPU but no LLVM (the
# device machine) into build/gpu-bundle: lit, FileCheck, not, count and the
# libraries FileCheck loads. The build tree itself (sage-run, the compiled
# kernels, the lit site configs) travels beside it; see scripts/gpu-test.sh.
set -euo pipefail
source "$(dirname "$0")/common.sh"

bundle="$SAGE_BUILD/gpu-bundle"
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib"
cp "$SAGE_LLVM/bin/FileCheck" "$SAGE_LLVM/bin/not" "$SAGE_LLVM/bin/count" \
  "$bundle/bin/"
cp -r "$SAGE_LLVM/utils/lit" "$bundle/lit"
cat > "$bundle/lit/run-lit.py" <<'PY'
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lit.main import main
main()
PY
# Shared libraries of FileCheck that a CUDA image may lack.
for lib in $(ldd "$SAGE_LLVM/bin/FileCheck" | awk '/=> \// {print $3}'); do
  case "$(basename "$lib")" in
  libc.so* | libm.so* | libstdc++* | libgcc_s*) ;;
  *) cp -L "$lib" "$bundle/lib/" ;;
  esac
done
du -sh "$bundle"
