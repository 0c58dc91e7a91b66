#!/usr/bin/env bash
# `irscope info` on a ~100,000-node transformer IR (~75 MB),
# as a whole process, against Python's `json.load` of the same file, same run.
# Targets: at least 2x faster, and peak memory under 3x the file size.
# Usage: bench/run_info_vs_python.sh [BUILD_DIR] [NODES]   (needs /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
nodes=${2:-100000}
file=$(mktemp --suffix=.json)
trap 'rm -f "$file" "$file.time"' EXIT
python3 bench/make_big_ir.py --nodes "$nodes" -o "$file" >/dev/null
size_kb=$(( $(stat -c %s "$file") / 1024 ))

best() {   # best wall time and its peak RSS over 5 runs of "$@"
  local best_s=999 best_kb=0
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f "%e %M" -o "$file.time" "$@" >/dev/null 2>&1
    read -r s kb < "$file.time"
    if awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; best_kb=$kb; fi
  done
  echo "$best_s $best_kb"
}

read -r ours_s ours_kb < <(best "$build/bin/irscope" info "$file")
read -r py_s py_kb < <(best python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$file")
printf '%-34s %8s %10s %12s\n' "" "time s" "peak MB" "x file size"
printf '%-34s %8s %10.0f %12.2f\n' "irscope info" "$ours_s" "$(echo "$ours_kb/1024" | bc -l)" "$(echo "$ours_kb/$size_kb" | bc -l)"
printf '%-34s %8s %10.0f %12.2f\n' "python3 json.load" "$py_s" "$(echo "$py_kb/1024" | bc -l)" "$(echo "$py_kb/$size_kb" | bc -l)"
printf 'file: %d nodes, %.1f MB; speed-up %.2fx\n' "$nodes" "$(echo "$size_kb/1024" | bc -l)" "$(echo "$py_s/$ours_s" | bc -l)"
