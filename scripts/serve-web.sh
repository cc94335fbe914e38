#!/usr/bin/env bash
# Serves the built page (scripts/build-web.sh) on 127.0.0.1 and prints its address.
# Usage: serve-web.sh [PORT] [DIR]   (default 8000, build/web)
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8000}
dir=${2:-build/web}
case "$port" in ''|*[!0-9]*) echo "serve-web: PORT must be a number, got '$port'" >&2; exit 2 ;; esac
if [ ! -f "$dir/index.html" ]; then
  echo "serve-web: no $dir/index.html (run scripts/build-web.sh first)" >&2
  exit 2
fi
echo "serve-web: http://127.0.0.1:$port/"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir"
