#!/bin/bash
# The per-node error report's cost. Target: over a 100,000-node LLM it costs
# at most 1.5x the plain run. One `irscope run` each, whole command (loading
# the IR, the weights and the reference included), best of 3:
#   plain       irscope run IR --weights W --random-inputs 1
#   reference   ... --reference-intermediates REF          (first failing node only)
#   report      ... --reference-intermediates REF --report R.json
#   local       ... --local --report R.json
#   csv         ... --report R.csv
#   bf16 run    ... --reference-dtype bfloat16 --report R.json (a second run in lockstep)
# The IR is make_big_ir.py's Llama at --nodes 100000 --hidden 32 --seq 4; the
# reference is the same run's --dump (every node output, .safetensors).
# Usage: bench/run_report.sh [BUILD_DIR]   (default build)
set -e
BUILD=${1:-build}
BIN=$BUILD/bin/irscope
PY=/usr/bin/python3
HERE=$(dirname "$0")
DIR=$(mktemp -d /tmp/irscope-report.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "making the files in $DIR ..." >&2
python3 "$HERE/make_big_ir.py" --nodes 100000 --hidden 32 --seq 4 -o "$DIR/llm.json" >/dev/null
$PY "$HERE/make_big_weights.py" "$DIR/llm.json" -o "$DIR/llm.safetensors" 2>/dev/null
"$BIN" run "$DIR/llm.json" --weights "$DIR/llm.safetensors" --random-inputs 1 --dump "$DIR/ref.safetensors" >/dev/null
cat "$DIR"/*.* > /dev/null   # warm the page cache

. "$HERE/bench_lib.sh"   # measure: best of 3, "seconds peak_kB"
run=("$BIN" run "$DIR/llm.json" --weights "$DIR/llm.safetensors" --random-inputs 1)
ref=(--reference-intermediates "$DIR/ref.safetensors")
read -r plain pmem < <(measure "${run[@]}")
printf "%-12s %6s s %6s MB\n" plain "$plain" $((pmem / 1000))
row() {
  read -r s m < <(measure "${run[@]}" "${@:2}")
  printf "%-12s %6s s %6s MB  %sx the plain run%s\n" "$1" "$s" $((m / 1000)) "$(echo "scale=2; $s / $plain" | bc)" \
    "$([ "$1" = report ] && echo " (limit 1.5x)")"
}
row reference "${ref[@]}"
row report "${ref[@]}" --report "$DIR/r.json"
row local "${ref[@]}" --local --report "$DIR/r.json"
row csv "${ref[@]}" --report "$DIR/r.csv"
row "bf16 run" --reference-dtype bfloat16 --report "$DIR/r.json"
