#!/bin/bash
# The window's first frame against Qt's own floor, side by side in one run on
# one machine (issue: within 2x of a bare Qt window):
#  - bench_bare_qt: a QMainWindow whose QGraphicsView draws 27 boxes (Qt alone);
#  - irscope FILE.pt2 --screenshot, IRSCOPE_TIMING=1: the graph's first paint,
#    on three .pt2 of the test data (29, 43 and 179 nodes), when the docks'
#    panels were made (right after that frame) and when the engine (libtorch,
#    loaded behind it) was in;
#  - the 61-layer x 384-expert MoE IR's first frame against `irscope info` of
#    the same file (issue: within 8x), the window opening with no weights.
# Each figure is the median of RUNS (default 7) runs, the programs taken in
# turn so that a machine's drift hits all of them alike. LOAD=N runs N busy
# loops beside them (a build's worth of load on this 2-core machine: 2).
# On a real X display: QT_QPA_PLATFORM=xcb xvfb-run -a bench/run_first_frame.sh
# Usage: bench/run_first_frame.sh [BUILD_DIR]   (default: build)
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
runs=${RUNS:-7}
DIR=${TMPDIR:-/tmp}/irscope-bench-first-frame
mkdir -p "$DIR"
data=$here/../tests/data
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} XDG_CONFIG_HOME=$DIR/config XDG_RUNTIME_DIR=$DIR
[ -f "$DIR/moe.json" ] || python3 "$here/make_big_ir.py" --shape moe -o "$DIR/moe.json" >/dev/null
hogs=()
for _ in $(seq 1 "${LOAD:-0}"); do (while :; do :; done) & hogs+=($!); done
trap '[ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; true' EXIT

# Each program is told when it was launched (IRSCOPE_LAUNCHED_AT): a finer
# start than /proc's 10 ms ticks.
launched() { IRSCOPE_LAUNCHED_AT=$(date +%s.%N) "$@"; }
bare() { launched "$build/bin/bench_bare_qt" 2>&1 | sed -n 's/^bare Qt: first frame after \([0-9.]*\) s$/\1/p'; }
window() {  # FILE: "first-frame engine-loaded" seconds, the UI's longest silence meanwhile (ms), panels made (s)
  IRSCOPE_TIMING=1 launched "$build/bin/irscope" "$1" --new-window --screenshot "$DIR/shot.png" 2>&1 |
    awk '/first frame after/ { f = $(NF - 1) } /engine loaded after/ { e = $(NF - 1) }
         /panels made after/ { p = $(NF - 1) }
         /longest UI silence/ { q = $(NF - 1) }
         END { print f, (e == "" ? "-" : e), (q == "" ? "-" : q), (p == "" ? "-" : p) }'
}
info() {
  local t0 t1
  t0=$(date +%s.%N)
  "$build/bin/irscope" info "$1" >/dev/null
  t1=$(date +%s.%N)
  awk "BEGIN { printf \"%.3f\", $t1 - $t0 }"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

small=(programs/sized_head_attention.pt2 real/tiny_llama.pt2 layer_order/llama_decoder.pt2)
: >"$DIR/samples.txt"
for _ in $(seq 1 "$runs"); do
  echo "bare $(bare)" >>"$DIR/samples.txt"
  for f in "${small[@]}"; do
    read -r frame engine quiet panels < <(window "$data/$f")
    echo "frame:$f $frame" >>"$DIR/samples.txt"
    echo "panels:$f $panels" >>"$DIR/samples.txt"
    echo "engine:$f $engine" >>"$DIR/samples.txt"
    echo "quiet:$f $quiet" >>"$DIR/samples.txt"
  done
  read -r frame engine quiet _ < <(window "$DIR/moe.json")
  echo "frame:moe $frame" >>"$DIR/samples.txt"
  echo "engine:moe $engine" >>"$DIR/samples.txt"
  echo "quiet:moe $quiet" >>"$DIR/samples.txt"
  echo "info:moe $(info "$DIR/moe.json")" >>"$DIR/samples.txt"
done
of() { awk -v k="$1" '$1 == k { print $2 }' "$DIR/samples.txt" | median; }
floor=$(of bare)
echo "first frame, median of $runs (load: ${LOAD:-0} busy loops beside)"
printf '  %-44s %6.3f s\n' "bare Qt window, 27 boxes" "$floor"
for f in "${small[@]}"; do
  n=$("$build/bin/irscope" info "$data/$f" | sed -n 's/^ *Nodes: *//p' | head -1)
  fr=$(of "frame:$f")
  printf '  %-44s %6.3f s  %5.2fx bare Qt (target <= 2x); panels made after %s s, engine in after %s s, UI silent <= %s ms meanwhile\n' \
    "irscope $(basename "$f") ($n nodes)" "$fr" "$(awk "BEGIN { print $fr / $floor }")" "$(of "panels:$f")" \
    "$(of "engine:$f")" "$(of "quiet:$f")"
done
mf=$(of frame:moe) mi=$(of info:moe)
printf '  %-44s %6.3f s  %5.2fx info (%.3f s; target <= 8x); engine in after %s s, UI silent <= %s ms meanwhile\n' \
  "irscope moe.json (61x384 MoE)" "$mf" "$(awk "BEGIN { print $mf / $mi }")" "$mi" "$(of engine:moe)" "$(of quiet:moe)"
# Where the time goes: one start of the window on tiny_llama.pt2, step by step.
echo "  one start, step by step (tiny_llama.pt2):"
IRSCOPE_TIMING=1 launched "$build/bin/irscope" "$data/real/tiny_llama.pt2" --new-window --screenshot "$DIR/shot.png" 2>&1 |
  sed -n -e 's/^irscope: \(.*\) after \([0-9.]*\) s$/    \2 s  \1/p' -e 's/^irscope: \(longest UI silence.*\)$/    \1/p'
