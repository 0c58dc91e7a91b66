#!/bin/sh
# The Weights dock at MoE scale (issue 11): the 61x384 MoE (make_big_ir.py
# --shape moe, 69,794 weights) opened in the window offscreen with its
# weights, then how long sorting and filtering block the UI thread.
#   bench/run_weights_dock.sh [BUILD_DIR]   (default build)
set -e
BUILD=${1:-build}
DIR=$(mktemp -d /tmp/irscope-dock.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
python3 "$(dirname "$0")/make_big_ir.py" --shape moe -o "$DIR/moe.json" >&2
/usr/bin/python3 "$(dirname "$0")/make_big_weights.py" "$DIR/moe.json" -o "$DIR/moe.safetensors" 2>/dev/null
QT_QPA_PLATFORM=offscreen "$BUILD/bin/bench_weights_dock" "$DIR/moe.json" "$DIR/moe.safetensors" 2>/dev/null
