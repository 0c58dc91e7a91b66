#!/usr/bin/env bash
# Installs the Debian bookworm packages irscope needs to build, run and test.
# Quick when everything is present: apt is only touched for missing packages.
#   --test   also the packages the test suite needs (Xvfb, Python torch for fixtures)
#   --check  --test's, plus clang and the sanitizer runtimes `setup.sh check` needs
#   --deb    what building the Debian package needs (`setup.sh deb`)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  ccache                      # every build directory shares compiles (cmake/compiler_cache.cmake)
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  libtorch-dev nlohmann-json3-dev
  libopenblas0-pthread        # libtorch's BLAS calls ~15x faster than reference BLAS
  fonts-dejavu-core           # a readable font for offscreen rendering
)
if [[ "${1:-}" == "--test" || "${1:-}" == "--check" ]]; then
  # python3-torch writes and reads back fixtures in round-trip tests (Debian's 1.13).
  packages+=(xvfb xauth python3 python3-numpy python3-torch)
  # The build against PyTorch's own libtorch (setup.sh torch2) takes the wheel into a venv;
  # Inductor (check-backend's tests) compiles its kernels against Python's headers.
  packages+=(python3-venv python3-dev)
  # The package test (packaging/test-deb.sh): CPack's dpkg-shlibdeps, the
  # desktop-file and AppStream validators, shared-mime-info with xdg-mime's
  # backend, groff for the man page.
  packages+=(dpkg-dev file desktop-file-utils appstream shared-mime-info xdg-utils libfile-mimeinfo-perl groff-base)
fi
if [[ "${1:-}" == "--deb" ]]; then
  packages+=(dpkg-dev file)  # CPack's dpkg-shlibdeps computes Depends
fi
if [[ "${1:-}" == "--check" ]]; then
  packages+=(
    libasan8 libubsan1 libtsan2       # gcc's sanitizer runtimes (build-asan, build-tsan)
    clang-14 libclang-rt-14-dev       # libFuzzer and clang's sanitizer runtimes (build-fuzz)
    llvm-14                           # llvm-symbolizer: function, file and line in fuzzer reports
    clang-format                      # the house format (.clang-format; clang-format 14)
  )
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if (( ${#missing[@]} )); then
  echo "irscope: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then sudo=sudo; else sudo=; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
