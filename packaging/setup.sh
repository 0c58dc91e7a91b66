#!/usr/bin/env bash
# The README's commands, on a fresh Debian bookworm machine as root:
#   bash packaging/setup.sh launch   build, then open irscope on a bundled example
#   bash packaging/setup.sh test     build, then run every test suite (CI runs it first)
#   bash packaging/setup.sh check    the suites under sanitizers, then the fuzzers
#                                    (CI runs it second; packaging/check.sh)
#   bash packaging/setup.sh deb      build, then the Debian package build/irscope_<version>_amd64.deb
# Each installs the Debian packages it needs first (packaging/install-deps.sh).
# With CI=true in the environment the test build treats warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  launch) bash packaging/install-deps.sh ;;
  test) bash packaging/install-deps.sh --test ;;
  check) bash packaging/install-deps.sh --check; exec bash packaging/check.sh ;;
  deb) bash packaging/install-deps.sh --deb ;;
  *) echo "usage: bash packaging/setup.sh launch|test|check|deb" >&2; exit 2 ;;
esac

werror=OFF
if [[ "$mode" == test && "${CI:-}" == true ]]; then werror=ON; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRSCOPE_WERROR=$werror
cmake --build build -j"$(nproc)"

if [[ "$mode" == launch ]]; then
  # The classic case: an IR extracted on the meta device, with its state_dict.
  # irscope flags the constants the extraction dropped; load
  # resources/examples/llama_block.constants.pt in the Constants dock, then F5.
  ex=resources/examples
  exec build/bin/irscope "$ex/llama_block.meta.json" --weights "$ex/llama_block.weights.pt" \
    --inputs "$ex/llama_block.inputs.pt" --expected "$ex/llama_block.expected.pt"
fi
if [[ "$mode" == deb ]]; then
  (cd build && cpack -G DEB)
  ls build/irscope_*_amd64.deb
  exit 0
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
