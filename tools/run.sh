#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and open warpscope on its default lesson.
# Extra arguments go to warpscope (e.g. `tools/run.sh gui --variant transpose/naive`).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSCOPE_TESTS=OFF >/dev/null
cmake --build build --target warpscope
exec build/warpscope "$@"
