#!/usr/bin/env bash
# The README's commands, on a fresh Debian bookworm machine as root:
#   bash packaging/setup.sh launch   build, then open irscope on a bundled example
#   bash packaging/setup.sh test     build, then run every test suite (CI runs it first)
#   bash packaging/setup.sh check    the suites under sanitizers, then the fuzzers
#                                    (CI runs it second; packaging/check.sh)
#   bash packaging/setup.sh deb      build, then the Debian package build/irscope_<version>_amd64.deb
#   bash packaging/setup.sh torch2   build against the libtorch inside PyTorch's CPU wheel
#                                    (IRSCOPE_TORCH_VERSION, default 2.13.0) in build-torch2/,
#                                    then run every test suite there (CI runs it last)
# Each installs the Debian packages it needs first (packaging/install-deps.sh).
# With CI=true in the environment the test build treats warnings as errors.
# Every build compiles through ccache (cmake/compiler_cache.cmake): a second
# build of the same sources, in this clone or another, takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
source packaging/stages.sh

# Runs "$@" as the stage $1 of the stage table (packaging/stages.sh).
stage() {
  local name=$1 status=0
  shift
  stage_begin "$name"
  "$@" || status=$?
  stage_end $status
  return $status
}

mode=${1:-}
case "$mode" in
  launch) stage "install deps" bash packaging/install-deps.sh ;;
  test) stage "install deps" bash packaging/install-deps.sh --test ;;
  check) stage "install deps (check)" bash packaging/install-deps.sh --check; exec bash packaging/check.sh ;;
  deb) stage "install deps" bash packaging/install-deps.sh --deb ;;
  torch2) stage "install deps (torch2)" bash packaging/install-deps.sh --test; exec bash packaging/build-torch2.sh ;;
  *) echo "usage: bash packaging/setup.sh launch|test|check|deb|torch2" >&2; exit 2 ;;
esac

werror=OFF
if [[ "$mode" == test && "${CI:-}" == true ]]; then werror=ON; fi
stage "release configure" cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRSCOPE_WERROR=$werror
stage "release build" cmake --build build -j"$(nproc)"

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
stage "release ctest" ctest --test-dir build --output-on-failure -j"$(nproc)"
