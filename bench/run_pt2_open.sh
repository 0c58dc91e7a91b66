#!/bin/bash
# Opening a torch.export archive against opening the same program as
# pytorch-ir's JSON plus its .safetensors, in one run on one machine, on the
# 61-layer x 384-expert MoE decode step (~4,700 nodes, ~70,000 weights):
#  - the window to its first frame (the graph drawn, the weights loaded
#    from the archive / the .safetensors), best of 5;
#  - `irscope info` (the graph alone) and `irscope tensors` (the weights
#    alone), best of 3, with peak memory.
# Target: the .pt2 window within 1.5x of JSON + .safetensors.
# Usage: bench/run_pt2_open.sh [BUILD_DIR]   (default: build; needs build-py/venv
# for make_big_pt2.py's op schemas, and Debian's python3-torch for the weights)
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
DIR=${TMPDIR:-/tmp}/irscope-bench-pt2
mkdir -p "$DIR"
. "$here/bench_lib.sh"
venv=${IRSCOPE_VENV:-$here/../build-py/venv}
[ -f "$DIR/moe.json" ] || python3 "$here/make_big_ir.py" --shape moe -o "$DIR/moe.json" --modules-out "$DIR/moe.modules.json"
[ -f "$DIR/moe.safetensors" ] || /usr/bin/python3 "$here/make_big_weights.py" "$DIR/moe.json" -o "$DIR/moe.safetensors"
[ -f "$DIR/moe.pt2" ] || "$venv/bin/python" "$here/make_big_pt2.py" "$DIR/moe.json" --modules "$DIR/moe.modules.json" \
  --weights "$DIR/moe.safetensors" -o "$DIR/moe.pt2"
export QT_QPA_PLATFORM=offscreen
first_frame() {   # best of 5: seconds from process start to the first paint of the graph
  local b="" t
  for _ in 1 2 3 4 5; do
    t=$(IRSCOPE_TIMING=1 "$build/bin/irscope" "$@" --screenshot "$DIR/shot.png" 2>&1 |
        sed -n 's/^irscope: first frame after \([0-9.]*\) s$/\1/p')
    if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
  done
  echo "$b"
}
json_window=$(first_frame "$DIR/moe.json" --weights "$DIR/moe.safetensors")
pt2_window=$(first_frame "$DIR/moe.pt2")
read -r json_info json_info_kb < <(measure "$build/bin/irscope" info "$DIR/moe.json")
read -r pt2_info pt2_info_kb < <(measure "$build/bin/irscope" info "$DIR/moe.pt2")
read -r st_tensors st_kb < <(measure "$build/bin/irscope" tensors "$DIR/moe.safetensors")
read -r pt2_tensors pt2_kb < <(measure "$build/bin/irscope" tensors "$DIR/moe.pt2")
echo "window to first frame: json+safetensors ${json_window}s, pt2 ${pt2_window}s" \
  "($(awk "BEGIN { printf \"%.2f\", $pt2_window / $json_window }")x, target <= 1.5x)"
echo "info (graph):          json ${json_info}s ${json_info_kb} kB, pt2 ${pt2_info}s ${pt2_info_kb} kB"
echo "tensors (weights):     safetensors ${st_tensors}s ${st_kb} kB, pt2 ${pt2_tensors}s ${pt2_kb} kB"
