#!/bin/bash
# Layout quality over a population of graphs nobody tuned for, against
# Graphviz dot on the same ghosted input (bench_layout --ir FILE --dot):
#  - generated decoder LLMs (make_big_ir.py --shape llama, 2-60 layers, hidden
#    sizes varied) and MoE decode steps (--shape moe, 1-4 layers, 2-64
#    experts, 0-2 dense layers, top-1..8), configurations drawn from a fixed
#    seed;
#  - every real export in tests/data/real/ (CNNs, attention, LSTMs, MoE,
#    Llama: what pytorch-ir wrote for PyTorch 2.13's modules).
# Prints per graph ours vs dot (crossings, edge length, time) and the
# population figures issue-style: share of graphs with crossings <= dot's,
# sum of crossings vs dot's sum, edge length ratio (mean, worst), and the
# smallest speed-up over dot's time less its start.
# Usage: bench/run_layout_population.sh [BUILD_DIR] [COUNT] [SEED]
#   (defaults: build, 40 generated graphs, seed 1). Needs graphviz (dot).
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
count=${2:-40}
seed=${3:-1}
command -v dot >/dev/null || { echo "graphviz 'dot' is not installed" >&2; exit 2; }
dir=${TMPDIR:-/tmp}/irscope-layout-population
rm -rf "$dir" && mkdir -p "$dir"
python3 - "$here/make_big_ir.py" "$dir" "$count" "$seed" <<'PY'
import random, subprocess, sys
gen, out, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
for i in range(count):
    if rng.random() < 0.5:
        args = ["--shape", "llama", "--layers", str(rng.randint(2, 60)), "--hidden", str(rng.choice([64, 128, 256]))]
        name = f"gen{i:03d}_llama"
    else:
        layers = rng.randint(1, 4)
        args = ["--shape", "moe", "--layers", str(layers), "--experts", str(rng.randint(2, 64)),
                "--dense-layers", str(rng.randint(0, min(2, layers - 1))), "--top-k", str(rng.randint(1, 2))]
        name = f"gen{i:03d}_moe"
    subprocess.run([sys.executable, gen, *args, "-o", f"{out}/{name}.json"], check=True, stdout=subprocess.DEVNULL)
    print(name, " ".join(args), file=open(f"{out}/configs.txt", "a"))
PY
for f in "$here"/../tests/data/real/*.json; do
  case "$f" in *.meta.json|*manifest.json|*autocast*) continue ;; esac
  grep -q '"nodes"' "$f" && cp "$f" "$dir/real_$(basename "$f")"
done
for f in "$dir"/*.json; do
  "$build/bin/bench_layout" --ir "$f" --dot 2>/dev/null | awk -v g="$(basename "$f" .json)" '
    $4 == "ours" { oc = $7; ol = $9; ot = $5; items = $2 }
    $4 == "dot-g" { dc = $7; dl = $9 }
    /over dot.s time less its start/ { s = $0; sub(/.*\(/, "", s); sub(/x over.*/, "", s); sp = s }
    END { if (dc != "") printf "%-40s %6d items  crossings %5d vs dot %5d  length %.3fx  %sx\n", g, items, oc, dc, (dl > 0 ? ol / dl : 1), sp }'
done | tee "$dir/results.txt"
# The targets are over graphs of 100 items or more (dot's time less its start
# is noise on smaller ones); the small real exports are summed apart.
summary() {
  awk -v label="$1" -v lo="$2" -v hi="$3" '$2 >= lo && $2 < hi {
       n++; if ($5 <= $8) ok++; oc += $5; dc += $8; r = $10 + 0; lsum += r; if (r > lmax) lmax = r;
       sp = $11 + 0; if (min == "" || sp < min) min = sp }
     END { if (!n) exit; printf "%s: %d graphs: crossings <= dot on %d (%.0f%%); sum %d vs dot %d (%.2fx); edge length %.3fx mean, %.3fx worst", label, n, ok, 100 * ok / n, oc, dc, (dc ? oc / dc : 0), lsum / n, lmax;
           if (lo >= 100) printf "; speed-up over dot less start >= %.1fx", min; printf "\n" }' "$dir/results.txt"
}
echo
summary "100+ items (targets: >=95%, sum <=0.8x, length <=1.15x mean, <=1.25x worst, >=10x)" 100 1000000000
summary "under 100 items" 0 100
