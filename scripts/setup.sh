#!/usr/bin/env bash
# Installs what is missing, configures and builds sage, then runs the main
# job on the bundled example: raise upstream linalg attention into
# sage.attention (printed), and compile it to PTX plus its launch plan.
# SAGE_CHIP picks the target (default sm_90).
set -euo pipefail
source "$(dirname "$0")/common.sh"

sage_install_deps
sage_build
example="$SAGE_ROOT/examples/attention.mlir"
out="$SAGE_BUILD/examples"
mkdir -p "$out"
echo "== $example raised into the sage dialect:"
"$SAGE_BUILD/bin/sage-opt" "$example" --sage-raise-attention
"$SAGE_BUILD/bin/sage-opt" "$example" --sage-raise-attention \
  --sage-to-ptx="chip=${SAGE_CHIP:-sm_90} variant=int8-fp8" -o "$out/attention.mlir"
"$SAGE_BUILD/bin/sage-translate" --sage-export-ptx "$out/attention.mlir" \
  -o "$out/attention.ptx"
"$SAGE_BUILD/bin/sage-translate" --sage-export-plan "$out/attention.mlir" \
  -o "$out/attention.json"
echo "== compiled for ${SAGE_CHIP:-sm_90}: $out/attention.ptx" \
  "($(grep -c '^.visible .entry' "$out/attention.ptx") kernels)" \
  "and its launch plan $out/attention.json"
