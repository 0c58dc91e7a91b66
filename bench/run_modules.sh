#!/bin/sh
# Module hierarchy at scale, in one run on one machine:
#  - whole process: `irscope info`, `irscope modules` and opening the window to
#    its first (collapsed) frame (--screenshot), best of 3, on the 100,000-node
#    LLM and the 61-layer x 384-expert MoE decode step (~70,000 weights);
#  - in process (bench_modules): inference, first picture, open/close a layer, frames.
# Targets: window <= 8x info, modules <= 2x info, open/close <= 30 ms, frame <= 16 ms.
# Usage: bench/run_modules.sh [BUILD_DIR]   (default: build)
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
tmp=${TMPDIR:-/tmp}/irscope-bench-modules
mkdir -p "$tmp"
[ -f "$tmp/llm.json" ] || python3 "$here/make_big_ir.py" --nodes 100000 -o "$tmp/llm.json"
[ -f "$tmp/moe.json" ] || python3 "$here/make_big_ir.py" --shape moe -o "$tmp/moe.json"
export QT_QPA_PLATFORM=offscreen
best() {   # best wall time of 3 runs of "$@", in seconds
  b=
  for i in 1 2 3; do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    t=$(awk "BEGIN { print $e - $s }")
    if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
  done
  printf '%.3f' "$b"
}
first_frame() {   # best of 3: seconds from process start to the view's first paint of the graph
  b=
  for i in 1 2 3; do
    t=$(IRSCOPE_TIMING=1 "$build/bin/irscope" "$1" --screenshot "$tmp/shot.png" 2>&1 | sed -n 's/^irscope: first frame after \([0-9.]*\) s$/\1/p')
    if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
  done
  printf '%.2f' "$b"
}
for f in llm moe; do
  ir="$tmp/$f.json"
  info=$(best "$build/bin/irscope" info "$ir")
  mods=$(best "$build/bin/irscope" modules "$ir")
  gui=$(first_frame "$ir")
  echo "$f: info ${info}s, modules ${mods}s ($(awk "BEGIN { printf \"%.2f\", $mods / $info }")x), window to first frame ${gui}s ($(awk "BEGIN { printf \"%.2f\", $gui / $info }")x)"
done
"$build/bin/bench_modules" "$tmp/llm.json" "$tmp/moe.json"
