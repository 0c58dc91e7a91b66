#!/usr/bin/env bash
# `bash packaging/setup.sh torch2`: irscope built against the libtorch inside
# PyTorch's own CPU wheel (the PyTorch users export their models with), in
# build-torch2/, and every test suite run there; then the same venv gets
# irscope as a Python user installs it (`pip install .`), and the installed
# command and Python API are tested there (tests/python/test_python_api.py). Debian's libtorch 1.13 stays
# the default build and the one the package ships; this one proves the code
# and the tests hold on a current libtorch too.
#
# The wheel goes into a virtual environment under the build tree
# (build-torch2/venv), never the system Python. Only the +cpu build is
# accepted: PyPI's plain torch wheel for Linux carries CUDA (gigabytes).
#   IRSCOPE_TORCH_VERSION   the PyTorch release (default 2.13.0)
set -euo pipefail
cd "$(dirname "$0")/.."
source packaging/stages.sh

version=${IRSCOPE_TORCH_VERSION:-2.13.0}
venv=build-torch2/venv
stage_begin "torch2 venv ($version+cpu)"
status=0
(
  set -e
  [[ -x $venv/bin/python ]] || python3 -m venv "$venv"
  if ! "$venv/bin/python" -c "import torch, torch_ir, torchao, pytest, sys; sys.exit(torch.__version__ != '$version+cpu')" 2>/dev/null; then
    # --no-compile: the venv is read for its libtorch and CMake files, and
    # Python imports torch once or twice; byte-compiling its ~3,000 modules
    # took 19 of the 30 s this install cost in a fresh clone.
    # pytorch-ir computes the bit-exact references of cli.real_exports on this
    # machine (tests/data/real/make_executor_reference.py); torchao loads the
    # quantized programs whose weights are its tensor subclasses
    # (tests/data/programs/make_torchao_programs.py) to compute theirs.
    # pytest runs the Python package's suites (tests/python/).
    "$venv/bin/pip" install -q --no-compile --disable-pip-version-check "torch==$version+cpu" pytorch-ir \
      torchao==0.18.0 pytest || {
      echo "irscope: no torch==$version+cpu wheel reachable (PyPI's plain torch wheel is the CUDA build;" \
        "put the CPU wheel where pip finds it, e.g. pip's find-links)" >&2
      exit 1
    }
  fi
) || status=$?
stage_end $status
(( status == 0 )) || exit $status

# (2>/dev/null: torch warns that numpy is absent, which nothing here needs)
prefix=$("$venv/bin/python" -c "import torch.utils; print(torch.utils.cmake_prefix_path)" 2>/dev/null)
libdir=$("$venv/bin/python" -c "import os, torch; print(os.path.join(os.path.dirname(torch.__file__), 'lib'))" 2>/dev/null)
werror=OFF
if [[ "${CI:-}" == true ]]; then werror=ON; fi
# CMAKE_LIBRARY_PATH: TorchConfig finds its libraries with find_library, whose
# system paths come before its hint, so Debian's libtorch.so would win.
# IRSCOPE_BUILD_TESTS=ON said, not left to the cache: the `pip install .` below
# configures this folder as a wheel's (no suites), and when it configures it
# afresh its OFF stays cached; the suites would then not be rebuilt and ctest
# would run the old binaries against the new libraries.
stage_begin "torch2 configure"
status=0
# (-U SKBUILD*: the package's build below configures this folder as a wheel's.)
cmake -S . -B build-torch2 -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRSCOPE_WERROR=$werror -U 'SKBUILD*' \
  -DIRSCOPE_BUILD_BENCH=OFF -DIRSCOPE_BUILD_TESTS=ON -DIRSCOPE_REFERENCE_PYTHON="$PWD/$venv/bin/python" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_LIBRARY_PATH="$libdir" || status=$?
stage_end $status
(( status == 0 )) || exit $status

stage_begin "torch2 build"
status=0
cmake --build build-torch2 -j"$(nproc)" || status=$?
stage_end $status
(( status == 0 )) || exit $status

stage_begin "torch2 ctest"
status=0
ctest --test-dir build-torch2 --output-on-failure -j"$(nproc)" || status=$?
stage_end $status
(( status == 0 )) || exit $status

# The package a Python user installs (pyproject.toml, docs/python.md): `pip
# install .` of this clone into the same venv builds irscope against its torch,
# then the installed command and the Python API are tested from that venv.
# Its build folder is build-torch2, built just above from the same sources
# against the same torch with the same flags: the wheel's configure, install
# and packing run as a user's do, and nothing is compiled a second time (a
# folder of its own, build-wheel/ as a user gets, compiled everything again:
# 3m42 of a cold CI run). PIP_WHEEL_FOLDER=1 builds it there instead.
stage_begin "torch2 pip install ."
status=0
wheel_build=(--config-settings=build-dir=build-torch2 --config-settings=cmake.define.IRSCOPE_WERROR=$werror)
[[ -n "${PIP_WHEEL_FOLDER:-}" ]] && wheel_build=()
"$venv/bin/pip" install -q --no-compile --disable-pip-version-check "${wheel_build[@]}" . || status=$?
stage_end $status
(( status == 0 )) || exit $status

stage_begin "torch2 python API"
status=0
QT_QPA_PLATFORM=offscreen "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/python/test_python_api.py || status=$?
stage_end $status
exit $status
