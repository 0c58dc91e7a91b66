#!/bin/sh
# Layout-quality fixtures and the bounds Graphviz dot sets for them: dot is the
# drawing users compare with, so our layout must not be worse on these graphs.
#
# Writes tests/data/layout/NAME.layout for MoE- and Llama-shaped graphs
# (bench/make_big_ir.py) and for the IR test fixtures, each the layout
# engine's input as text (core/layout/layout_graph_text.h), then runs dot
# once per fixture on the same input our layout sees (far high-fan-out
# edges replaced by ghosts, as bench_layout --dot does: "dot-g") and writes
# its crossings and total edge length to tests/data/layout/dot_bounds.txt.
# tests/layout/test_dot_bounds.cpp holds our layout to: crossings <= dot's,
# edge length <= 1.25x dot's.
#
# Also writes tests/data/layout/generated/: thirty graphs nobody tuned for,
# drawn by bench/make_layout_population.py (seed 7, 100-800 nodes: decoder
# LLMs, MoE decoders, CNNs, encoder-decoders, written by pytorch-ir's
# extract_ir), with dot's bounds in generated/dot_bounds.txt; the test holds
# our layout to at most one crossing more than dot on each.
#
# And tests/data/layout/heldout/: sixteen graphs of the shapes held out of
# the engine's tuning (make_layout_population.py seed 11, four each of
# decode steps with per-layer rotary tables and KV caches, MoE decode steps
# with scatter routers and shared experts, vision transformers, U-Nets;
# 100-1,200 nodes), with dot's bounds in heldout/dot_bounds.txt; the test
# holds each family to dot's figures in sum (test_dot_bounds.cpp).
#
# Usage: bench/make_layout_fixtures.sh [BENCH_LAYOUT_BINARY] [--generated-only|--heldout-only]
# The binary defaults to build/bin/bench_layout (cmake --build build
# --target bench_layout). Needs python3 and graphviz (dot); the
# generated graphs need the venv with torch 2.13 and pytorch-ir
# (PYTHON=..., default build-py/venv/bin/python).
# The ghosts depend on the engine that writes the bounds: rerun after a
# change to ghosting (long_edges) or layering.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/bin/bench_layout}
generated_only=false
heldout_only=false
[ "$2" = "--generated-only" ] && generated_only=true
[ "$2" = "--heldout-only" ] && heldout_only=true
py=${PYTHON:-$root/build-py/venv/bin/python}
out=$root/tests/data/layout
command -v dot >/dev/null || { echo "graphviz 'dot' is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "no bench_layout binary at $bin" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

bounds_of() {  # bounds_of FIXTURE_DIR: dot's crossings and edge length on each of its fixtures
  for f in "$1"/*.layout; do
    name=$(basename "$f" .layout)
    "$bin" --ir "$f" --dot --keep "$tmp/dot" | awk -v n="$name" '$4 == "dot-g" { print n, $7, $9 }'
  done
}

population() {  # population DIR SEED COUNT MAX_NODES FAMILIES: fixtures and dot's bounds in DIR
  rm -rf "$1" && mkdir -p "$1" "$tmp/pop-$2"
  "$py" "$root/bench/make_layout_population.py" "$tmp/pop-$2" --count "$3" --seed "$2" --max-nodes "$4" \
    --families "$5" >/dev/null
  for f in "$tmp/pop-$2"/*.json; do
    "$bin" --ir "$f" --save-layout "$1/$(basename "$f" .json).layout" >/dev/null
  done
  {
    echo "# Graphviz dot on each fixture's ghosted input (bench_layout --dot, row dot-g),"
    echo "# written by bench/make_layout_fixtures.sh with $(dot -V 2>&1)."
    echo "# The configurations (make_layout_population.py --seed $2):"
    sed 's/^/#   /' "$tmp/pop-$2/configs.txt"
    echo "# fixture  dot_crossings  dot_edge_length"
    bounds_of "$1"
  } >"$1/dot_bounds.txt"
  cat "$1/dot_bounds.txt"
}

if $heldout_only; then
  population "$out/heldout" 11 16 1200 llama_rot,moe_step,vit,unet
  exit 0
fi

generated=$out/generated
rm -rf "$generated" && mkdir -p "$generated"
"$py" "$root/bench/make_layout_population.py" "$tmp/population" --count 30 --seed 7 --max-nodes 800 >/dev/null
for f in "$tmp"/population/*.json; do
  "$bin" --ir "$f" --save-layout "$generated/$(basename "$f" .json).layout" >/dev/null
done
{
  echo "# Graphviz dot on each generated fixture's ghosted input (bench_layout --dot, row dot-g),"
  echo "# written by bench/make_layout_fixtures.sh with $(dot -V 2>&1)."
  echo "# The configurations (make_layout_population.py --seed 7):"
  sed 's/^/#   /' "$tmp/population/configs.txt"
  echo "# fixture  dot_crossings  dot_edge_length"
  bounds_of "$generated"
} >"$generated/dot_bounds.txt"
cat "$generated/dot_bounds.txt"
$generated_only && exit 0
population "$out/heldout" 11 16 1200 llama_rot,moe_step,vit,unet

gen() {  # gen NAME make_big_ir.py-ARGS...
  name=$1
  shift
  python3 "$root/bench/make_big_ir.py" "$@" -o "$tmp/$name.json" >/dev/null
  "$bin" --ir "$tmp/$name.json" --save-layout "$out/$name.layout" >/dev/null
}
# MoE decode steps (sigmoid router, grouped top-k, scatter_, stacked experts,
# einsum, RoPE from cached cos/sin, KV cache in and out).
gen moe_decode_1layer --shape moe --layers 1 --dense-layers 0 --experts 16
gen moe_decode_2layer --shape moe --layers 2 --dense-layers 1 --experts 16
gen moe_decode_2layer_sparse --shape moe --layers 2 --dense-layers 0 --experts 8
# Llama blocks (fused qkv + split, SDPA, RoPE, lifted constant).
gen llama_2layer --shape llama --layers 2
gen llama_16layer --shape llama --layers 16
# The traced IR fixtures.
for f in tiny_moe tiny_llama llama_block resnet_tiny cnn_bn simple_mlp; do
  "$bin" --ir "$root/tests/data/ir/$f.json" --save-layout "$out/$f.layout" >/dev/null
done

bounds=$out/dot_bounds.txt
{
  echo "# Graphviz dot on each fixture's ghosted input (bench_layout --dot, row dot-g),"
  echo "# written by bench/make_layout_fixtures.sh with $(dot -V 2>&1)."
  echo "# fixture  dot_crossings  dot_edge_length"
} >"$bounds"
bounds_of "$out" >>"$bounds"
cat "$bounds"
