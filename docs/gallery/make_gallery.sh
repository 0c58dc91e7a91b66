#!/usr/bin/env bash
# The gallery (docs/gallery/README.md): every model of the real-export corpus
# (tests/data/real) and of the layer-order cases (tests/data/layer_order),
# drawn as the window's first view (`irscope render --depth auto`) from its
# pytorch-ir JSON and from its .pt2, side by side. Look at it after every
# change to the layout: the two drawings of one model should read the same
# way, top to bottom in the order it runs.
# Usage: docs/gallery/make_gallery.sh [BUILD_DIR]   (default build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
irscope=$root/${1:-build}/bin/irscope
[[ -x $irscope ]] || { echo "no $irscope: build first (README)" >&2; exit 2; }
rm -f "$here"/*.svg
page=$here/README.md
{
  echo "# Gallery: each model from its JSON and from its .pt2"
  echo
  echo "The window's first view (\`irscope render --depth auto\`) of every model in"
  echo "the real-export corpus (\`tests/data/real\`) and the layer-order cases"
  echo "(\`tests/data/layer_order\`), drawn from what pytorch-ir's \`extract_ir\` wrote"
  echo "(left) and from what \`torch.export.save\` wrote (right). Made by"
  echo "\`docs/gallery/make_gallery.sh\`; regenerate it after a change to the layout and"
  echo "look: both drawings of a model read top to bottom, in the order it runs."
  echo
  echo "| model | JSON (pytorch-ir) | .pt2 (torch.export) |"
  echo "|---|---|---|"
} >"$page"
for dir in layer_order real; do
  for pt2 in "$root/tests/data/$dir"/*.pt2; do
    name=$(basename "$pt2" .pt2)
    json=${pt2%.pt2}.json
    [[ -f $json ]] || continue
    "$irscope" render "$json" --depth auto -o "$here/$name.json.svg" 2>/dev/null || continue
    "$irscope" render "$pt2" --depth auto -o "$here/$name.pt2.svg" 2>/dev/null || continue
    echo "| \`$name\` | <img src=\"$name.json.svg\" width=\"360\"> | <img src=\"$name.pt2.svg\" width=\"360\"> |" >>"$page"
  done
done
echo "gallery: $(ls "$here"/*.svg | wc -l) drawings, $(du -sh "$here" | cut -f1)"
