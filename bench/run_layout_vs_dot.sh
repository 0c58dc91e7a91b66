#!/bin/sh
# Layout engine vs Graphviz dot on transformer- and CNN-style graphs, then on
# every layout fixture (tests/data/layout/: MoE decode steps, Llama blocks,
# CNNs), each with its speed-up over dot's whole process and over dot's time
# less its start.
# Usage: bench/run_layout_vs_dot.sh [BUILD_DIR] [extra bench_layout args]
# Builds only the torch-free core library the bench needs (irscope_light:
# ir, layout, modules, export, ...) and compiles bench_layout directly
# against it (the CMake bench target links the whole GUI app, too heavy for
# a shared machine); BENCH_VIA_CMAKE=1 uses that target instead.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-layout}
[ $# -gt 0 ] && shift
command -v dot >/dev/null || { echo "graphviz 'dot' is not installed" >&2; exit 2; }
if [ "${BENCH_VIA_CMAKE:-0}" = 1 ]; then
  cmake --build "$build" -j2 --target bench_layout
  bin=$build/bin/bench_layout
else
  cmake --build "$build" -j2 --target irscope_light
  bin=$build/bench_layout_direct
  g++ -std=c++20 -O2 -I"$root" -DIRSCOPE_VERSION='"bench"' "$root/bench/bench_layout.cpp" \
    "$build/lib/libirscope_light.so" -Wl,-rpath,"$build/lib" -o "$bin"
fi
# Ours on every size; dot (killed after 120 s) up to 5,000 items.
"$bin" --sizes 1000,5000,20000,100000 --dot --dot-timeout 120 --dot-max 5000 "$@"
for fixture in "$root"/tests/data/layout/*.layout; do
  "$bin" --ir "$fixture" --dot | tail -3
done
