#!/usr/bin/env bash
# Checks every C++ file git tracks against .clang-format, with clang-format 14 (Debian
# 12's; other versions lay some lines out differently). Prints the files that differ
# and exits 1; exits 77 (skipped) where clang-format 14 is missing.
# scripts/check-format.sh --fix rewrites them in place instead.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=
for t in clang-format-14 clang-format; do
  if command -v "$t" >/dev/null && "$t" --version | grep -q ' version 14\.'; then tool=$t; break; fi
done
if [ -z "$tool" ]; then
  echo "check-format: clang-format 14 not found (Debian: apt-get install clang-format-14)" >&2
  exit 77
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "check-format: not a git checkout: nothing to list" >&2
  exit 77
fi
mapfile -t files < <(git ls-files '*.hpp' '*.cpp' '*.inl' '*.h')
if [ "${1:-}" = --fix ]; then
  "$tool" -i --style=file "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$tool" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
