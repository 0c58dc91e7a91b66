#!/bin/sh
# Layout engine vs Graphviz dot on transformer- and CNN-style graphs, then on
# every layout fixture (tests/data/layout/: MoE decode steps, Llama blocks,
# CNNs), each with its speed-up over dot's whole process and over dot's time
# less its start.
# Usage: bench/run_layout_vs_dot.sh [BUILD_DIR] [extra bench_layout args]
# Builds only bench_layout, which links only the torch-free parts it uses
# (ir, layout, modules, diff, export; no libtorch, no Qt).
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
[ $# -gt 0 ] && shift
command -v dot >/dev/null || { echo "graphviz 'dot' is not installed" >&2; exit 2; }
cmake --build "$build" -j2 --target bench_layout
bin=$build/bin/bench_layout
# Ours on every size; dot (killed after 120 s) up to 5,000 items.
"$bin" --sizes 1000,5000,20000,100000 --dot --dot-timeout 120 --dot-max 5000 "$@"
for fixture in "$root"/tests/data/layout/*.layout; do
  "$bin" --ir "$fixture" --dot | tail -3
done
