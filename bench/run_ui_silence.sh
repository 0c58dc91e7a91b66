#!/usr/bin/env bash
# The UI thread's longest silence (bench/bench_ui_silence.cpp) while the window
# opens, loads and runs: a ~100,000-node LLM IR with its weights, the 61-layer
# 384-expert MoE IR with its ~70,000 weights, and a .pt2 with control flow
# (drawn as groups, run with its subgraphs recorded).
# Usage: [LOAD=N] bench/run_ui_silence.sh [BUILD_DIR]
# LOAD=N: N busy loops beside it (a build on the same cores), started once the
# files are made. On a real display: QT_QPA_PLATFORM=xcb xvfb-run -a.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
DIR=$(mktemp -d)
hogs=()
trap '[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; rm -rf "$DIR"' EXIT
python3 bench/make_big_ir.py --shape llama --nodes 100000 -o "$DIR/llm.json" >/dev/null
/usr/bin/python3 bench/make_big_weights.py "$DIR/llm.json" -o "$DIR/llm.safetensors" 2>/dev/null
python3 bench/make_big_ir.py --shape moe -o "$DIR/moe.json" >/dev/null
/usr/bin/python3 bench/make_big_weights.py "$DIR/moe.json" -o "$DIR/moe.safetensors" 2>/dev/null
for _ in $(seq 1 "${LOAD:-0}"); do (while :; do :; done) & hogs+=($!); done
echo "(load: ${LOAD:-0} busy loops beside; QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen})"
echo "== ~100,000-node LLM IR"
"$build/bin/bench_ui_silence" "$DIR/llm.json" "$DIR/llm.safetensors" 2>/dev/null
echo "== 61-layer, 384-expert MoE IR, then the LLM handed over to the same window"
"$build/bin/bench_ui_silence" "$DIR/moe.json" "$DIR/moe.safetensors" --then "$DIR/llm.json" 2>/dev/null
echo "== while_loop .pt2 (control flow)"
"$build/bin/bench_ui_silence" tests/data/programs/while_loop_count.pt2 2>/dev/null
