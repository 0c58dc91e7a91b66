#!/bin/bash
# Tensor-file benchmark: makes 1 GiB of float32 tensors as .pt and
# .safetensors in /tmp, times irscope and Python's torch.load on them in one
# run (warm page cache for both), prints a table, deletes the files.
#   bench/run_tensor_io.sh [BUILD_DIR]   (default build-io; needs target bench_tensor_io)
set -euo pipefail
BUILD=${1:-build-io}
BENCH=$BUILD/bin/bench_tensor_io
PY=/usr/bin/python3          # Debian's python3 with torch 1.13
DIR=$(mktemp -d /tmp/irscope-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

$PY - "$DIR" <<'PY'
import collections, json, struct, sys, torch
d = sys.argv[1]
torch.manual_seed(0)
# 1 GiB: 128 tensors of 2M float32 (8 MiB each), like a mid-size model's layers.
sd = collections.OrderedDict((f"layers.{i}.weight", torch.randn(2048, 1024)) for i in range(128))
torch.save(sd, f"{d}/w.pt")
header, off = collections.OrderedDict(), 0
for k, t in sd.items():
    header[k] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [off, off + t.numel() * 4]}
    off += t.numel() * 4
h = json.dumps(header).encode()
h += b" " * ((8 - len(h) % 8) % 8)
with open(f"{d}/w.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    for t in sd.values():
        f.write(t.numpy().tobytes())
PY

# Warm the page cache for both files.
cat "$DIR/w.pt" "$DIR/w.safetensors" > /dev/null

py_load=$($PY - "$DIR/w.pt" <<'PY'
import sys, time, torch
times = []
for _ in range(4):
    t0 = time.perf_counter()
    sd = torch.load(sys.argv[1])
    times.append(time.perf_counter() - t0)
    del sd
print(f"{min(times) * 1000:.1f} {times[0] * 1000:.1f}")
PY
)
read -r py_load py_first <<< "$py_load"
read -r _ st_list n bytes st_list_first < <($BENCH list "$DIR/w.safetensors")
read -r _ pt_list _ _ _ < <($BENCH list "$DIR/w.pt")
read -r _ pt_read _ _ pt_read_first < <($BENCH read "$DIR/w.pt")
read -r _ pt_touch _ _ pt_touch_first < <($BENCH touch "$DIR/w.pt")
read -r _ st_read _ _ st_read_first < <($BENCH read "$DIR/w.safetensors")
cli_start=$(date +%s.%N)
$BUILD/bin/irscope tensors --no-stats "$DIR/w.safetensors" > /dev/null
cli_ms=$(echo "($(date +%s.%N) - $cli_start) * 1000" | bc)

ratio() { echo "scale=1; $1 / $2" | bc; }
echo "tensor files: $n tensors, $bytes bytes, warm page cache"
echo "(best = best of repeated runs in one process; first = first run, which also faults in fresh memory)"
printf "%-56s %10s %10s\n" "what" "best ms" "first ms"
printf "%-56s %10s %10s\n" "Python torch.load(w.pt)  [torch $($PY -c 'import torch; print(torch.__version__)')]" "$py_load" "$py_first"
printf "%-56s %10s %10s   %sx faster than torch.load (best vs best)\n" "irscope list w.safetensors (open + names/dtypes/shapes)" "$st_list" "$st_list_first" "$(ratio $py_load $st_list)"
printf "%-56s %10s %10s   %sx faster\n" "irscope list w.pt" "$pt_list" "-" "$(ratio $py_load $pt_list)"
printf "%-56s %10s %10s   speed vs torch.load: best %sx, first %sx\n" "irscope read w.pt completely (copy into owned memory)" "$pt_read" "$pt_read_first" "$(ratio $py_load $pt_read)" "$(ratio $py_first $pt_read_first)"
printf "%-56s %10s %10s   speed vs torch.load: best %sx, first %sx\n" "irscope read w.pt memory-mapped + touch every page" "$pt_touch" "$pt_touch_first" "$(ratio $py_load $pt_touch)" "$(ratio $py_first $pt_touch_first)"
printf "%-56s %10s %10s\n" "irscope read w.safetensors completely (copy)" "$st_read" "$st_read_first"
printf "%-58s %10.1f   (whole process: libtorch start-up dominates)\n" "irscope tensors --no-stats w.safetensors" "$cli_ms"
