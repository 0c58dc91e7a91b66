#!/bin/bash
# Checkpoints at scale, side by side in one run, warm page cache:
#   - 100,000 small tensors: `irscope tensors --no-stats` of the .safetensors and
#     of the .pt (time, peak memory) against Python's torch.load of the .pt;
#   - the 61x384 MoE (make_big_ir.py --shape moe, ~70,000 weights): `irscope run`
#     with its weights as one .safetensors, as a sharded repository and as .pt,
#     against torch.load of the .pt alone;
#   - 1 GiB of float32: `irscope tensors` with statistics against torch.load.
# Targets: safetensors listing >= 20x torch.load, .pt listing >= 2x
# with peak memory <= 2x the file, run <= 1.5x torch.load, 1 GiB stats >= 5x.
#   bench/run_checkpoints.sh [BUILD_DIR]   (default build)
set -euo pipefail
BUILD=${1:-build}
IRSCOPE=$BUILD/bin/irscope
PY=/usr/bin/python3          # Debian's python3 with torch 1.13
HERE=$(dirname "$0")
DIR=$(mktemp -d /tmp/irscope-ckpt.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

echo "making the files in $DIR ..." >&2
$PY "$HERE/make_big_weights.py" --tensors 100000 -o "$DIR/many.safetensors" 2>/dev/null
$PY "$HERE/make_big_weights.py" --tensors 100000 -o "$DIR/many.pt" 2>/dev/null
python3 "$HERE/make_big_ir.py" --shape moe -o "$DIR/moe.json"
$PY "$HERE/make_big_weights.py" "$DIR/moe.json" -o "$DIR/moe.safetensors" 2>/dev/null
$PY "$HERE/make_big_weights.py" "$DIR/moe.json" -o "$DIR/moe.pt" 2>/dev/null
$PY "$HERE/make_big_weights.py" "$DIR/moe.json" --shards 8 -o "$DIR/moe_repo" 2>/dev/null
$PY "$HERE/make_big_weights.py" --float32-gib 1 -o "$DIR/gib.safetensors" 2>/dev/null
$PY "$HERE/make_big_weights.py" --float32-gib 1 -o "$DIR/gib.pt" 2>/dev/null
cat "$DIR"/*.* "$DIR"/moe_repo/* > /dev/null   # warm the page cache

. "$HERE/bench_lib.sh"   # measure: best of 3, "seconds peak_kB"
pyload() { measure $PY -c "import torch; torch.load('$1')"; }
size_mb() { echo "scale=1; $(stat -c %s "$1") / 1000000" | bc; }

row() { printf "%-58s %8s s %9s MB %s\n" "$1" "$2" "$(echo "scale=0; $3 / 1000" | bc)" "${4:-}"; }
ratio() { echo "scale=2; $1 / $2" | bc; }

read -r py_many py_many_mem < <(pyload "$DIR/many.pt")
read -r st_many st_many_mem < <(measure "$IRSCOPE" tensors --no-stats "$DIR/many.safetensors")
read -r pt_many pt_many_mem < <(measure "$IRSCOPE" tensors --no-stats "$DIR/many.pt")
read -r py_moe py_moe_mem < <(pyload "$DIR/moe.pt")
read -r run_st run_st_mem < <(measure "$IRSCOPE" run "$DIR/moe.json" --weights "$DIR/moe.safetensors" --random-inputs 0)
read -r run_repo run_repo_mem < <(measure "$IRSCOPE" run "$DIR/moe.json" --weights "$DIR/moe_repo" --random-inputs 0)
read -r run_pt run_pt_mem < <(measure "$IRSCOPE" run "$DIR/moe.json" --weights "$DIR/moe.pt" --random-inputs 0)
read -r py_gib py_gib_mem < <(pyload "$DIR/gib.pt")
read -r gib_st gib_st_mem < <(measure "$IRSCOPE" tensors "$DIR/gib.safetensors")
read -r gib_pt gib_pt_mem < <(measure "$IRSCOPE" tensors "$DIR/gib.pt")

echo "checkpoints at scale: best of 3 whole processes, warm page cache, $(nproc) cores"
printf "%-58s %10s %12s %s\n" "what" "time" "peak RSS" "vs torch.load"
echo "100,000 tensors of 512 bytes (.pt $(size_mb "$DIR/many.pt") MB, .safetensors $(size_mb "$DIR/many.safetensors") MB)"
row "  Python torch.load(many.pt)" "$py_many" "$py_many_mem"
row "  irscope tensors --no-stats many.safetensors" "$st_many" "$st_many_mem" "$(ratio "$py_many" "$st_many")x faster (target 20x)"
row "  irscope tensors --no-stats many.pt" "$pt_many" "$pt_many_mem" \
  "$(ratio "$py_many" "$pt_many")x faster (target 2x); peak $(ratio "$pt_many_mem" "$(( $(stat -c %s "$DIR/many.pt") / 1000 ))")x the file (target 2x)"
echo "61x384 MoE, 69,794 weights (.pt $(size_mb "$DIR/moe.pt") MB)"
row "  Python torch.load(moe.pt)" "$py_moe" "$py_moe_mem"
row "  irscope run --weights moe.safetensors" "$run_st" "$run_st_mem" "$(ratio "$run_st" "$py_moe")x torch.load (target <= 1.5x)"
row "  irscope run --weights moe_repo/ (8 shards + index)" "$run_repo" "$run_repo_mem" "$(ratio "$run_repo" "$py_moe")x torch.load"
row "  irscope run --weights moe.pt" "$run_pt" "$run_pt_mem" "$(ratio "$run_pt" "$py_moe")x torch.load"
echo "1 GiB of float32 (128 tensors of 8 MiB)"
row "  Python torch.load(gib.pt)" "$py_gib" "$py_gib_mem"
row "  irscope tensors gib.safetensors (with statistics)" "$gib_st" "$gib_st_mem" "$(ratio "$py_gib" "$gib_st")x faster (target 5x)"
row "  irscope tensors gib.pt (with statistics)" "$gib_pt" "$gib_pt_mem" "$(ratio "$py_gib" "$gib_pt")x faster"
