#!/usr/bin/env bash
# The README's two set-up commands, on a fresh Debian bookworm machine as root:
#   bash packaging/setup.sh launch   build, then open irscope on a bundled example
#   bash packaging/setup.sh test     build, then run every test suite (what CI runs)
# Both install the Debian packages they need first (packaging/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  launch) bash packaging/install-deps.sh ;;
  test) bash packaging/install-deps.sh --test ;;
  *) echo "usage: bash packaging/setup.sh launch|test" >&2; exit 2 ;;
esac

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

if [[ "$mode" == launch ]]; then
  # The classic case: an IR extracted on the meta device, with its state_dict.
  # irscope flags the constants the extraction dropped; load
  # resources/examples/llama_block.constants.pt in the Constants dock, then F5.
  ex=resources/examples
  exec build/bin/irscope "$ex/llama_block.meta.json" --weights "$ex/llama_block.weights.pt" \
    --inputs "$ex/llama_block.inputs.pt" --expected "$ex/llama_block.expected.pt"
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
