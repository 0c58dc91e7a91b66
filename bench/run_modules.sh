#!/bin/sh
# Module hierarchy at scale (issue 9), in one run on one machine:
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
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
  done
  printf '%.3f' "$b"
}
for f in llm moe; do
  ir="$tmp/$f.json"
  info=$(best "$build/bin/irscope" info "$ir")
  mods=$(best "$build/bin/irscope" modules "$ir")
  gui=$(best "$build/bin/irscope" "$ir" --screenshot "$tmp/$f.png")
  echo "$f: info ${info}s, modules ${mods}s ($(echo "$mods / $info" | bc -l | cut -c1-4)x), window to first frame ${gui}s ($(echo "$gui / $info" | bc -l | cut -c1-4)x)"
done
"$build/bin/bench_modules" "$tmp/llm.json" "$tmp/moe.json"
