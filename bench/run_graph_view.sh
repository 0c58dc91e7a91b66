#!/bin/sh
# Graph view frame times at 5k / 20k / 100k nodes (target: a fit-to-window frame
# within 16 ms, one frame at 60 Hz).
# Usage: bench/run_graph_view.sh [BUILD_DIR]   (default: build)
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
tmp=${TMPDIR:-/tmp}/irscope-bench-view
mkdir -p "$tmp"
for n in 5000 20000 100000; do
  [ -f "$tmp/big_$n.json" ] || python3 "$here/make_big_ir.py" --nodes $n -o "$tmp/big_$n.json"
done
QT_QPA_PLATFORM=offscreen "$build/bin/bench_graph_view" "$tmp/big_5000.json" "$tmp/big_20000.json" "$tmp/big_100000.json"
