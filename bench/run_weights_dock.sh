#!/bin/sh
# The Weights dock at MoE scale: the 61x384 MoE (make_big_ir.py
# --shape moe, 69,794 weights) and an 88-layer one (~100,000 weights) opened
# in the window offscreen with their weights, then how long sorting and
# filtering block the UI thread.
#   bench/run_weights_dock.sh [BUILD_DIR]   (default build)
set -e
BUILD=${1:-build}
DIR=$(mktemp -d /tmp/irscope-dock.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
for layers in 61 88; do
  python3 "$(dirname "$0")/make_big_ir.py" --shape moe --layers $layers -o "$DIR/moe$layers.json" >&2
  /usr/bin/python3 "$(dirname "$0")/make_big_weights.py" "$DIR/moe$layers.json" -o "$DIR/moe$layers.safetensors" 2>/dev/null
  echo "== MoE, $layers layers"
  QT_QPA_PLATFORM=offscreen "$BUILD/bin/bench_weights_dock" "$DIR/moe$layers.json" "$DIR/moe$layers.safetensors" 2>/dev/null
done
