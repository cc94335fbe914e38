#!/usr/bin/env bash
# Shared by run-tests.sh and run-demo.sh: installs what is missing (Debian 12
# packages, only when run as root) and configures + builds with the release preset.
# Usage: scripts/setup.sh [extra Debian packages...]
set -euo pipefail
cd "$(dirname "$0")/.."

need=(cmake ninja-build g++ clang libclang-rt-dev libglm-dev catch2 libbenchmark-dev libnanoflann-dev pkg-config
      libsdl2-dev libimgui-dev libgl-dev libstb-dev xvfb xauth libgl1-mesa-dri python3 clang-format-14
      emscripten chromium "$@")
missing=()
for p in "${need[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages: ${missing[*]} (run as root to install them)" >&2
  fi
fi

cmake --preset release >/dev/null
cmake --build --preset release
