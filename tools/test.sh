#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build everything, run the whole test suite,
# then the unit and GUI tests again under AddressSanitizer + UBSan. GPU tests skip without a device.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
jobs=$(nproc)

echo "== build (release, with tests) =="
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j "$jobs"
echo "== tests =="
(cd build-test && ctest --output-on-failure -j "$jobs")

echo "== benchmarks (figures only; targets and history in docs/PERFORMANCE.md) =="
build-test/ws_sim_bench --benchmark_filter='teaching/|headline/' || echo "simulator benchmark failed"
if command -v xvfb-run >/dev/null && [ -x build-test/warpscope ]; then
  xvfb-run -a -s "-screen 0 1600x1000x24" build-test/warpscope gui --no-settings --size 1600x1000 \
      --variant transpose/naive --no-compare --n 256 --benchmark-frames 200 || echo "GUI benchmark failed"
fi

echo "== tests under AddressSanitizer + UBSan (float-cast-overflow included, no recovery) =="
# What users run: optimised as the normal build (-O2, asserts on), the same fiber stacks, and the
# GUI too: its unit tests (views, settings) and its pixel test under Xvfb.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSCOPE_SANITIZE=ON \
      -DWARPSCOPE_CUDA=OFF -DWARPSCOPE_GUI=ON -DWARPSCOPE_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j "$jobs" --target ws_tests warpscope ws_visual_tests ws_gui_pixel_tests
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 ctest --output-on-failure -j "$jobs" -L unit)
# The GUI process without leak checking: Mesa's software OpenGL keeps allocations made from
# its generated code, which LeakSanitizer can neither attribute nor suppress. Memory errors
# and undefined behaviour still stop it; the GUI's unit tests above run with leak checking.
(cd build-asan && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 ctest --output-on-failure -R '^gui_pixels$')
