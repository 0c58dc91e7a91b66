"""The build backend of `pip install .`: scikit-build-core, told where the
installing environment's PyTorch is.

irscope runs a program with libtorch, and its numbers are PyTorch's own only
when that libtorch is the one the user's PyTorch ships. So irscope is built
the way a C++ extension of PyTorch is: against the torch already installed.
pip builds in an isolated environment that does not see it, but it runs this
backend with the installing environment's own interpreter: asked with `-I`
(which ignores the PYTHONPATH pip's isolation sets), that interpreter imports
the user's torch and says where its CMake files and libraries are.

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


def _installing_environment_torch():
    python = os.environ.get("IRSCOPE_TORCH_PYTHON", sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([python, "-I", "-c", _ASK_TORCH], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise TorchNotFound(
            "irscope is built against the PyTorch of the environment it is installed into, and "
            f"{python} cannot import torch:\n{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}\n"
            "Install PyTorch first (for the CPU build: pip install torch --index-url "
            "https://download.pytorch.org/whl/cpu), then install irscope again."
        )
    return json.loads(done.stdout.strip().splitlines()[-1])


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
