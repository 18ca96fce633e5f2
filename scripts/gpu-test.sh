#!/usr/bin/env bash
# Runs the GPU tests (test/Integration/GPU, test/Runtime) on a machine with
# a CUDA GPU, from a build tree made elsewhere: build/bin/sage-run,
# build/kernels, build/test and build/gpu-bundle (scripts/gpu-bundle.sh).
# A failed GPU probe is fatal here (SAGE_REQUIRE_GPU=1): nothing can skip.
# Extra arguments go to lit (e.g. -a to print every sage-run report).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SAGE_BUILD:-$root/build}
bundle="$build/gpu-bundle"
export SAGE_REQUIRE_GPU=1
export SAGE_LLVM_TOOLS_DIR="$bundle/bin"
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
python3 "$bundle/lit/run-lit.py" -sv "$@" \
  "$build/test/Integration" "$build/test/Runtime"
