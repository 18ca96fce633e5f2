# Shared by setup.sh and test.sh: install what is missing, configure, build.
# Sourced, not run.

SAGE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SAGE_BUILD=${SAGE_BUILD:-$SAGE_ROOT/build}
SAGE_LLVM=/usr/lib/llvm-22

# Debian packages sage builds and tests with. LLVM/MLIR 22 come from
# Debian's own archive (bookworm-security carries llvm-toolchain-22).
SAGE_PACKAGES=(
  cmake ninja-build ccache g++ python3 libgtest-dev nlohmann-json3-dev
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
)

# Installs the Debian packages given that are missing.
sage_install_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "sage: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
}

sage_install_deps() {
  sage_install_packages "${SAGE_PACKAGES[@]}"
}

sage_configure() {
  [ -f "$SAGE_BUILD/build.ninja" ] && return 0
  cmake -G Ninja -S "$SAGE_ROOT" -B "$SAGE_BUILD" \
    -DCMAKE_BUILD_TYPE=Release -DSAGE_WERROR="${SAGE_WERROR:-OFF}" \
    -DMLIR_DIR="$SAGE_LLVM/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$SAGE_LLVM/bin/lit"
}

sage_build() {
  sage_configure
  cmake --build "$SAGE_BUILD" "$@"
}
