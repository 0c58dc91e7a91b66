#!/usr/bin/env bash
# The quantization debugger on a PT2E-quantized two-layer decoder (int8 linear
# layers) against its float program: `irscope run --reference-program`
# (every paired tensor's SQNR, one rerun per activation kept in float, the
# weights per channel) against the same work in PyTorch
# (bench/quantization_debugger_torch.py: fx.Interpreter over both programs,
# one rerun per activation), each a whole process, best of 3, same run.
# Target: irscope within 3x the PyTorch script's time.
# Usage: bench/run_quantization_debugger.sh [BUILD_DIR] [PYTHON]
#   PYTHON: a Python with torch 2.x and torchao (default build-torch2/venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
python=${2:-build-torch2/venv/bin/python}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
source bench/bench_lib.sh
"$python" bench/make_quantized_decoder.py "$DIR" 2>/dev/null
read -r ours_s ours_kb < <(measure "$build/bin/irscope" run "$DIR/decoder.pt2" --reference-program "$DIR/decoder.float.pt2" \
  --report "$DIR/report.json")
read -r torch_s torch_kb < <(measure "$python" bench/quantization_debugger_torch.py "$DIR/decoder.pt2" "$DIR/decoder.float.pt2")
"$build/bin/irscope" run "$DIR/decoder.pt2" --reference-program "$DIR/decoder.float.pt2" | head -1
printf '%-44s %8s %10s\n' "" "time s" "peak MB"
printf '%-44s %8s %10.0f\n' "irscope run --reference-program" "$ours_s" "$(echo "$ours_kb/1024" | bc -l)"
printf '%-44s %8s %10.0f\n' "PyTorch (fx.Interpreter + reruns)" "$torch_s" "$(echo "$torch_kb/1024" | bc -l)"
printf 'irscope / PyTorch: %.2fx (target: at most 3x)\n' "$(echo "$ours_s/$torch_s" | bc -l)"
