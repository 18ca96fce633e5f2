#!/usr/bin/env bash
# Installs what is missing, configures and builds sage, then runs the main
# job on the bundled example: raise upstream linalg attention into
# sage.attention and print the result.
set -euo pipefail
source "$(dirname "$0")/common.sh"

sage_install_deps
sage_build
"$SAGE_BUILD/bin/sage-opt" "$SAGE_ROOT/examples/attention.mlir" \
  --sage-raise-attention
