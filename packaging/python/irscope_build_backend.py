"""The build backend of `pip install .`: scikit-build-core, told where the
installing environment's PyTorch is.

irscope runs a program with libtorch, and its numbers are PyTorch's own only
when that libtorch is the one the user's PyTorch ships. So irscope is built
the way a C++ extension of PyTorch is: against the torch already installed.
pip builds in an isolated environment that does not see it, but it runs this
backend with the installing environment's own interpreter: asked with `-I`
(which ignores the PYTHONPATH pip's isolation sets), that interpreter imports
the user's torch and says where its CMake files and libraries are. `python
-m build` and `uv pip install` run the backend with the isolated
environment's own interpreter instead, which has no torch: then the
environment the user works in is asked, in this order: IRSCOPE_TORCH_PYTHON,
the active virtual environment ($VIRTUAL_ENV, $CONDA_PREFIX), `python3` on
the PATH outside the build's own environment.

Nothing here installs torch: a build requirement would make pip fetch
another one (on Linux, PyPI's default is a CUDA build of several GB).
"""

import json
import os
import subprocess
import sys

from scikit_build_core import build as _skbuild

_ASK_TORCH = r"""
import json, os, torch, torch.utils
print(json.dumps({
    "version": torch.__version__,
    "prefix": torch.utils.cmake_prefix_path,
    "libdir": os.path.join(os.path.dirname(torch.__file__), "lib"),
}))
"""


class TorchNotFound(RuntimeError):
    pass


def _candidate_pythons():
    """Interpreters that may be the user's environment, most likely first."""
    if os.environ.get("IRSCOPE_TORCH_PYTHON"):
        return [os.environ["IRSCOPE_TORCH_PYTHON"]]  # said explicitly: that one only
    out = [sys.executable]
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        if os.environ.get(var):
            out.append(os.path.join(os.environ[var], "bin", "python"))
    build_env = os.path.dirname(os.path.dirname(sys.executable))
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, "python3")
        if folder and not folder.startswith(build_env) and os.access(candidate, os.X_OK):
            out.append(candidate)
            break
    return list(dict.fromkeys(out))


def _installing_environment_torch():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    why = []
    for python in _candidate_pythons():
        done = subprocess.run([python, "-I", "-c", _ASK_TORCH], capture_output=True, text=True, env=env)
        if done.returncode == 0:
            return json.loads(done.stdout.strip().splitlines()[-1])
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        why.append(f"  {python}: {last}")
    raise TorchNotFound(
        "irscope is built against the PyTorch of the environment it is installed into, and no interpreter "
        "asked can import torch:\n" + "\n".join(why) + "\n"
        "Install PyTorch first (for the CPU build: pip install torch --index-url "
        "https://download.pytorch.org/whl/cpu), or name the interpreter whose torch to build against with "
        "IRSCOPE_TORCH_PYTHON=/path/to/python, then install irscope again."
    )


def _settings(config_settings):
    settings = dict(config_settings or {})
    torch = _installing_environment_torch()
    print(f"irscope: building against torch {torch['version']} ({torch['libdir']})", file=sys.stderr)
    # CMAKE_LIBRARY_PATH: TorchConfig finds its libraries with find_library,
    # whose system paths would otherwise find a system libtorch first.
    settings.setdefault("cmake.define.CMAKE_PREFIX_PATH", torch["prefix"])
    settings.setdefault("cmake.define.CMAKE_LIBRARY_PATH", torch["libdir"])
    settings["cmake.define.IRSCOPE_WHEEL_TORCH_VERSION"] = torch["version"]
    return settings


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _skbuild.build_wheel(wheel_directory, _settings(config_settings), metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _skbuild.build_editable(wheel_directory, _settings(config_settings), metadata_directory)


# Metadata and the sdist need no torch.
build_sdist = _skbuild.build_sdist
get_requires_for_build_sdist = _skbuild.get_requires_for_build_sdist
get_requires_for_build_wheel = _skbuild.get_requires_for_build_wheel
get_requires_for_build_editable = _skbuild.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _skbuild.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _skbuild.prepare_metadata_for_build_editable
