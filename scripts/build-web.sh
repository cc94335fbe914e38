#!/usr/bin/env bash
# Builds the browser page: the library's scenes (web/boids_web.cpp) compiled to
# WebAssembly with Debian's emscripten, and the page, into OUT (default build/web).
# One self-contained folder: open OUT/index.html, or serve it (scripts/serve-web.sh).
# Installs emscripten when it is missing and this runs as root.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/web}
if ! command -v em++ >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q emscripten >/dev/null
  else
    echo "build-web: em++ not found (apt-get install emscripten)" >&2
    exit 2
  fi
fi
# Debian's emscripten 3.1.6 runs its JavaScript optimizer with the node on the PATH;
# a newer node than Debian's finds the optimizer's modules only through NODE_PATH.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
mkdir -p "$out"
# One file (the .wasm inside the .js): it loads from a folder or a server alike.
em++ -std=c++17 -O3 -msimd128 -Iinclude -Iexamples/lab -Iexamples/demo web/boids_web.cpp -o "$out/boids.js" \
  -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 -sEXPORT_NAME=createBoids -sSINGLE_FILE=1 -sENVIRONMENT=web \
  -sEXPORTED_RUNTIME_METHODS=ccall,HEAPF32
cp web/index.html web/app.js "$out/"
cp tests/fixtures/lesson/seed7_all_60_initial.csv "$out/"
echo "build-web: $out/index.html"
