#!/bin/bash
# `irscope reduce` at scale. Target: a failing 100,000-node run becomes a file
# of a few nodes within minutes on this machine. One weight of layer 1500 is
# perturbed (+0.5 on its first element) and the run is reduced against the
# good run's --dump, locally; then the same node is found behind a user check
# command. Whole command, best of 3, and the number of tests each took.
# The IR is make_big_ir.py's Llama at --nodes 100000 --hidden 32 --seq 4.
# Usage: bench/run_reduce.sh [BUILD_DIR]   (default build)
set -e
BUILD=${1:-build}
BIN=$BUILD/bin/irscope
PY=/usr/bin/python3
HERE=$(dirname "$0")
DIR=$(mktemp -d /tmp/irscope-reduce.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "making the files in $DIR ..." >&2
python3 "$HERE/make_big_ir.py" --nodes 100000 --hidden 32 --seq 4 -o "$DIR/llm.json" >/dev/null
$PY "$HERE/make_big_weights.py" "$DIR/llm.json" -o "$DIR/llm.safetensors" 2>/dev/null
"$BIN" run "$DIR/llm.json" --weights "$DIR/llm.safetensors" --random-inputs 1 --dump "$DIR/ref.safetensors" >/dev/null
# The planted error: a copy of the weights with one element of layers.1500's up_proj changed.
python3 - "$DIR/llm.safetensors" "$DIR/bad.safetensors" <<'PYEOF'
import json, shutil, struct, sys
shutil.copy(sys.argv[1], sys.argv[2])
with open(sys.argv[2], "r+b") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    header = json.loads(f.read(n))
    name = sorted(k for k in header if k.startswith("layers.1500.") and "up" in k)[0]
    at = 8 + n + header[name]["data_offsets"][0]
    f.seek(at); v = struct.unpack("<f", f.read(4))[0]
    f.seek(at); f.write(struct.pack("<f", v + 0.5))
    print(name, file=sys.stderr)
PYEOF
cat "$DIR"/*.* > /dev/null   # warm the page cache

. "$HERE/bench_lib.sh"
reduce=("$BIN" reduce "$DIR/llm.json" --random-inputs 1 -o "$DIR/min.json" --force -q)
against=(--weights "$DIR/bad.safetensors" --reference-intermediates "$DIR/ref.safetensors")
read -r s m < <(measure "${reduce[@]}" "${against[@]}")
echo "reference:  $s s  $((m / 1000)) MB   $("${reduce[@]}" "${against[@]}" | head -1)"
culprit=$(grep -o '"name": "linear_[0-9]*"' "$DIR/min.json" | head -1 | cut -d'"' -f4)
check=(--weights "$DIR/llm.safetensors" --check "! grep -q '\"$culprit\"' {ir}")
read -r s m < <(measure "${reduce[@]}" "${check[@]}")
echo "check cmd:  $s s  $((m / 1000)) MB   $("${reduce[@]}" "${check[@]}" | head -1)"
