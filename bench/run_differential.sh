#!/bin/bash
# Random programs against PyTorch at scale: 2,000 seeds of tests/programs/
# (the CTest programs.differential runs 200), exported by the torch2 venv's
# PyTorch, run by both builds side by side: Debian's libtorch 1.13 (build/,
# assert_close's tolerances; a difference must be a flipped decision or float
# noise) and PyTorch's own libtorch (build-torch2/, bit for bit). Prints the
# count of each outcome (match, decision, noise, value, error, not
# exportable) and the wall time of each.
# Usage: bench/run_differential.sh [SEEDS]   (default 2000)
set -e
SEEDS=${1:-2000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
PY=$ROOT/build-torch2/venv/bin/python
DIR=$(mktemp -d /tmp/irscope-differential.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
[ -x "$PY" ] || { echo "needs build-torch2/venv (bash packaging/setup.sh torch2)" >&2; exit 2; }
for build in build build-torch2; do
  bin=$ROOT/$build/bin/irscope
  [ -x "$bin" ] || { echo "$build: not built, skipped"; continue; }
  exact=()
  [ "$build" = build-torch2 ] && exact=(--exact)
  echo "== $build ($SEEDS seeds)"
  "$PY" -W ignore "$ROOT/tests/programs/differential.py" --irscope "$bin" --seeds "$SEEDS" "${exact[@]}" \
    --out "$DIR/$build" --keep "$DIR/$build-kept" --quiet 2>/dev/null | tail -n 25 || true
done
