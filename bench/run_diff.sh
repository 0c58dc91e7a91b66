#!/bin/bash
# `irscope diff` at scale. Target: two 100,000-node IRs diff within 3x the time
# of loading both.
# A is make_big_ir.py's Llama (--nodes 100000 --hidden 32 --seq 4); B1 is A
# with one node inserted in the middle (renumbering ~9,800 later names) and
# one attr changed (make_diff_pair.py); B2 is the same model extracted with
# --seq 8 (every node's shapes change). "Loading both" is `irscope info` on
# each file, one after the other (info is a load plus a cheap count).
# Whole commands, best of 3, peak memory.
# Usage: bench/run_diff.sh [BUILD_DIR]   (default build)
set -e
BUILD=${1:-build}
BIN=$BUILD/bin/irscope
HERE=$(dirname "$0")
DIR=$(mktemp -d /tmp/irscope-diff.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "making the files in $DIR ..." >&2
python3 "$HERE/make_big_ir.py" --nodes 100000 --hidden 32 --seq 4 -o "$DIR/a.json" >/dev/null
python3 "$HERE/make_big_ir.py" --nodes 100000 --hidden 32 --seq 8 -o "$DIR/seq8.json" >/dev/null
python3 "$HERE/make_diff_pair.py" "$DIR/a.json" -o "$DIR/edit.json"
cat "$DIR"/*.json > /dev/null   # warm the page cache

. "$HERE/bench_lib.sh"
read -r ia ma < <(measure "$BIN" info "$DIR/a.json")
for b in edit seq8; do
  read -r ib mb < <(measure "$BIN" info "$DIR/$b.json")
  load=$(echo "$ia + $ib" | bc)
  read -r s m < <(measure "$BIN" diff "$DIR/a.json" "$DIR/$b.json" --summary)
  read -r sj mj < <(measure "$BIN" diff "$DIR/a.json" "$DIR/$b.json" --json)
  summary=$("$BIN" diff "$DIR/a.json" "$DIR/$b.json" --summary | sed -n 3p || true)
  printf "%-5s load both %5.2f s | diff %5.2f s (%.2fx) %4d MB | --json %5.2f s (%.2fx) | %s\n" \
    "$b" "$load" "$s" "$(echo "$s / $load" | bc -l)" $((m / 1000)) "$sj" "$(echo "$sj / $load" | bc -l)" "$summary"
done
read -r s m < <(measure "$BIN" diff "$DIR/a.json" "$DIR/a.json")
echo "same  diff of A with itself: $s s, $((m / 1000)) MB"
