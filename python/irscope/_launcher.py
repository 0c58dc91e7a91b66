"""The `irscope` command of a pip-installed irscope.

The program (bin/irscope beside this file) runs with the libtorch of the
PyTorch it was built against, found in this environment's site-packages.
Another torch in its place would fail in a symbol lookup, or worse, load: so
before starting it, this launcher compares the torch it was built for with
the torch installed here and refuses a mismatch, naming both and the command
that rebuilds irscope. Reading versions from package metadata imports nothing,
so the light commands (info, validate, render) start as fast as before.
"""

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def program() -> Path:
    """The irscope executable of this installation."""
    return _HERE / "bin" / "irscope"


def _release(version: str) -> str:
    """'2.13.0+cpu' -> '2.13.0': CPU and CUDA builds of a release share libtorch's symbols."""
    return version.split("+", 1)[0]


def _installed_torch():
    """(version, folder) of the torch this environment has, or (None, None)."""
    try:
        dist = metadata.distribution("torch")
    except metadata.PackageNotFoundError:
        return None, None
    return dist.version, str(dist.locate_file("torch"))


def _source_of_this_install() -> str:
    """Where irscope was installed from (pip records a local folder in direct_url.json)."""
    try:
        record = json.loads(metadata.distribution("irscope").read_text("direct_url.json") or "{}")
        url = record.get("url", "")
        if url.startswith("file://"):
            return url[len("file://") :]
    except (metadata.PackageNotFoundError, ValueError):
        pass
    return "<the irscope source you installed from>"


def torch_mismatch(built_for: str, installed, torch_folder=None, source=None):
    """The refusal to print when irscope cannot run on this environment's torch, or None."""
    if installed is not None and _release(installed) == _release(built_for):
        return None
    rebuild = f"pip install --force-reinstall --no-deps --no-cache-dir {source or _source_of_this_install()}"
    if installed is None:
        return (
            f"irscope: this irscope was built for torch {built_for}, and this environment ({sys.prefix}) "
            f"has no torch. Install torch {built_for} here, or rebuild irscope for the torch you install:\n"
            f"    {rebuild}"
        )
    return (
        f"irscope: this irscope was built for torch {built_for}, but this environment has torch {installed}"
        f"{f' ({torch_folder})' if torch_folder else ''}. irscope runs on the libtorch it was built "
        f"against; rebuild it for this torch:\n    {rebuild}"
    )


def _check_backend_first(argv):
    """`irscope PROGRAM --backend NAME ...`: the backend checked here, in this
    environment's PyTorch (progress on the terminal), then the window opened on
    the program with the report (--backend-report). None when the check could
    not run."""
    import tempfile

    from .check_backend import main as check_backend_main

    rest = list(argv)
    at = rest.index("--backend")
    if at + 1 >= len(rest):
        print("irscope: --backend needs a backend: inductor, aot_inductor, eager or MODULE:FUNCTION", file=sys.stderr)
        return None
    backend = rest[at + 1]
    del rest[at : at + 2]
    check = [rest[0], "--backend", backend]
    for option in ("--inputs", "--depth"):
        if option in rest:
            i = rest.index(option)
            if i + 1 < len(rest):
                check += [option, rest[i + 1]]
            if option == "--depth":  # the window has no --depth
                del rest[i : i + 2]
    report = os.path.join(tempfile.mkdtemp(prefix="irscope-backend-"), "report.json")
    status = check_backend_main(check + ["--report", report])
    if not os.path.exists(report):
        print(f"irscope: the backend check wrote no report (exit status {status})", file=sys.stderr)
        return None
    return rest + ["--backend-report", report]


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from . import _build_info

    installed, folder = _installed_torch()
    refusal = torch_mismatch(_build_info.TORCH_VERSION, installed, folder)
    if refusal:
        print(refusal, file=sys.stderr)
        return 2
    if argv[:1] == ["check-backend"]:  # compiles with the environment's torch: Python's side
        from .check_backend import main as check_backend_main

        return check_backend_main(argv[1:])
    if "--backend" in argv and argv[:1] and not argv[0].startswith("-") and argv[0].endswith(".pt2"):
        argv = _check_backend_first(argv)
        if argv is None:
            return 2
    exe = program()
    if argv[:1] in (["--version"], ["-V"]):
        done = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
        sys.stdout.write(done.stdout)
        print(f"torch {installed} ({folder})")
        return done.returncode
    sys.stdout.flush()
    os.execv(str(exe), ["irscope", *argv])
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
