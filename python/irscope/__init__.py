"""irscope from Python: open the debugger on a live model, or run a program headless.

    import irscope
    irscope.debug(model, (x,))            # export, run eagerly, open the debugger ready to step
    irscope.show("model.pt2")             # a .pt2, a pytorch-ir JSON, an ExportedProgram or a pytorch-ir IR
    irscope.compare(ep_a, ep_b)           # two programs side by side, the changes listed
    result = irscope.run(ep, expected=y)  # headless: the verdict and the per-node report as Python objects
    report = irscope.check_backend(ep, backend="inductor")  # the first group a backend gets wrong

Each call hands the irscope program of this installation (built against
this environment's PyTorch, so its numbers are PyTorch's own) files it reads:
objects are written to a private temporary folder first (an ExportedProgram
with torch.export.save, an IR with IR.save, tensors with torch.save), which
is removed when the program is done with it. Nothing here imports torch until
an object, not a path, is given.
"""

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import threading
from typing import Any, Dict, List, Optional

from ._launcher import program as _program
from .check_backend import BackendReport, GroupResult, Judgement, check_backend

__all__ = [
    "show",
    "debug",
    "compare",
    "run",
    "check_backend",
    "RunResult",
    "BackendReport",
    "GroupResult",
    "Judgement",
    "program",
    "IrscopeError",
]
def _version() -> str:
    """The version pyproject.toml holds, as the build wrote it (or the installed wheel's metadata)."""
    try:
        from ._build_info import IRSCOPE_VERSION

        return IRSCOPE_VERSION
    except ImportError:
        pass
    try:
        from importlib.metadata import version

        return version("irscope")
    except Exception:
        return "0+source"  # the source tree, not built


__version__ = _version()


class IrscopeError(RuntimeError):
    """irscope could not open or run what it was given; the message is irscope's own."""


def program() -> str:
    """Path of the irscope executable this package runs."""
    return str(_program())


# ---------------------------------------------------------------- files from objects


def _is_path(x) -> bool:
    return isinstance(x, (str, bytes, os.PathLike))


def _program_file(x, folder: str, stem: str) -> str:
    """A path irscope opens for x: a path as given, an ExportedProgram or a pytorch-ir IR written out."""
    if _is_path(x):
        return os.fspath(x)
    import torch

    if isinstance(x, torch.export.ExportedProgram):
        path = os.path.join(folder, stem + ".pt2")
        torch.export.save(x, path)
        return path
    if type(x).__module__.startswith("torch_ir") and hasattr(x, "save"):
        path = os.path.join(folder, stem + ".json")
        x.save(path)
        return path
    raise TypeError(
        f"irscope opens a path, a torch.export.ExportedProgram or a pytorch-ir IR, not {type(x).__name__}"
    )


def _graph_input_names(x):
    """The user inputs of an ExportedProgram in order (what a .pt2's inputs are named), or None."""
    try:
        import torch
        from torch.export.graph_signature import InputKind
    except ImportError:
        return None
    if not isinstance(x, torch.export.ExportedProgram):
        return None
    return [s.arg.name for s in x.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]


def _tensor_file(values, folder: str, stem: str, names=None):
    """A tensor file for irscope: a path as given; a dict of tensors by name, or a tensor or tuple
    of them (named by `names`), saved with torch.save."""
    if values is None or _is_path(values):
        return None if values is None else os.fspath(values)
    import torch

    if isinstance(values, torch.Tensor):
        values = (values,)
    if isinstance(values, (tuple, list)):
        if names is None or len(names) != len(values):
            raise TypeError(
                f"{stem}: give a dict {{name: tensor}} or a file; a sequence of {len(values)} tensors can be "
                "named only for an ExportedProgram with as many inputs"
            )
        values = dict(zip(names, values))
    if not isinstance(values, dict):
        raise TypeError(f"{stem}: expected a path, a tensor, a tuple of tensors or a dict, not {type(values).__name__}")
    path = os.path.join(folder, stem + ".pt")
    torch.save({k: v.detach().cpu() if isinstance(v, torch.Tensor) else v for k, v in values.items()}, path)
    return path


def _value_options(folder, weights, inputs, expected, input_names):
    """--weights / --inputs / --expected with the files irscope reads for them."""
    options = []
    for flag, value, stem, names in (
        ("--weights", weights, "weights", None),
        ("--inputs", inputs, "inputs", input_names),
        ("--expected", expected, "expected", None),
    ):
        file = _tensor_file(value, folder, stem, names)
        if file:
            options += [flag, file]
    return options


@contextlib.contextmanager
def _removed_on_error(folder):
    """The temporary folder goes if preparing the files fails; otherwise the window's end removes it."""
    try:
        yield
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def _window_environment(screenshot) -> dict:
    env = dict(os.environ)
    # A screenshot needs no screen: notebooks on a server, CI.
    if screenshot and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    return env


def _start(command, folder, screenshot, block):
    """Runs the window; the temporary folder goes when the window does."""
    env = _window_environment(screenshot)
    if block or screenshot:
        try:
            done = subprocess.run(command, env=env, capture_output=bool(screenshot), text=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        if not screenshot:
            return done.returncode
        if done.returncode != 0 or not os.path.exists(screenshot):
            raise IrscopeError((done.stderr or "").strip() or f"irscope exited with status {done.returncode}")
        # What the window reported ("finished: 12/12 nodes ran — outputs match ...").
        said = [line[len("irscope: ") :] for line in done.stderr.splitlines() if line.startswith("irscope: ")]
        return "\n".join(said)
    process = subprocess.Popen(command, env=env)
    threading.Thread(target=lambda: (process.wait(), shutil.rmtree(folder, ignore_errors=True)), daemon=True).start()
    return process


# ---------------------------------------------------------------- the window


def show(x, *, weights=None, inputs=None, expected=None, screenshot=None, block=True, run=False):
    """Opens x in the irscope window.

    x: a path (.pt2, pytorch-ir JSON), a torch.export.ExportedProgram or a pytorch-ir IR.
    weights, inputs, expected: paths, or tensors (a dict by name; inputs also a tuple for an
      ExportedProgram). A .pt2 brings its own weights and example inputs.
    screenshot: a PNG path: draw the window, save it, close, and return what the window
      reported (with run=True, the run's verdict) (notebooks, tests).
    block: wait for the window to close (returns its exit status); False returns the Popen.
    run: run the program to its end once loaded (the verdict is in the window and the screenshot).
    """
    folder = tempfile.mkdtemp(prefix="irscope-")
    with _removed_on_error(folder):
        path = _program_file(x, folder, "program")
    return _open_window(folder, path, _graph_input_names(x), weights, inputs, expected, screenshot, block, run)


def _open_window(folder, path, input_names, weights, inputs, expected, screenshot, block, run):
    """Starts the window on `path`; `folder` (temporary, holding what was written) is its to remove."""
    with _removed_on_error(folder):
        command = [program(), path, "--new-window", *_value_options(folder, weights, inputs, expected, input_names)]
        if run:
            command.append("--run")
        if screenshot:
            command += ["--screenshot", os.fspath(screenshot)]
    return _start(command, folder, screenshot, block)


def _output_names(exported):
    from torch.export.graph_signature import OutputKind

    return [s.arg.name for s in exported.graph_signature.output_specs if s.kind == OutputKind.USER_OUTPUT]


def debug(module, args, kwargs=None, *, weights=None, inputs=None, screenshot=None, block=True, run=None):
    """Opens the debugger on a live model with its own outputs as the reference.

    Exports the module (torch.export, strict=False), runs it eagerly for the expected outputs,
    and opens the program with its weights, `args` as its inputs and the eager outputs as
    expected, ready to step (F10 steps, F5 runs). The options are show()'s; with screenshot=
    the program runs first, so the picture has the verdict.
    """
    import torch
    import torch.utils._pytree as pytree

    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    kwargs = dict(kwargs or {})
    exported = torch.export.export(module, args, kwargs, strict=False)
    folder = tempfile.mkdtemp(prefix="irscope-")
    with _removed_on_error(folder):
        # Saved before the eager run: a module that updates its buffers as it runs
        # (batch norm in training) is exported with the values the program starts from.
        # Named after the model's class: the window's title and File row show it.
        stem = "".join(c if c.isalnum() or c in "_-" else "_" for c in type(module).__name__) or "program"
        path = os.path.join(folder, stem + ".pt2")
        torch.export.save(exported, path)
        with torch.no_grad():
            eager = module(*args, **kwargs)
        names = _output_names(exported)
        expected = {n: v for n, v in zip(names, pytree.tree_leaves(eager)) if isinstance(v, torch.Tensor)}
    if run is None:
        run = bool(screenshot)
    return _open_window(
        folder, path, _graph_input_names(exported), weights, inputs, expected, screenshot, block, run
    )


def compare(a, b, *, screenshot=None, block=True):
    """Opens the comparison of two programs or IRs (paths, ExportedPrograms or pytorch-ir IRs)."""
    folder = tempfile.mkdtemp(prefix="irscope-")
    with _removed_on_error(folder):
        command = [program(), _program_file(a, folder, "a"), "--new-window", "--compare", _program_file(b, folder, "b")]
        if screenshot:
            command += ["--screenshot", os.fspath(screenshot)]
    return _start(command, folder, screenshot, block)


# ---------------------------------------------------------------- headless


class RunResult(dict):
    """What `run` found: a plain dict (json.dumps takes it as it is) whose keys also read as attributes.

    exit_status: 0 ran and matched, 1 a mismatch, 2 could not run
    summary: `irscope run --json`: the verdict per output, the nodes run, timings
    messages: what irscope printed on stderr
    nodes: one row per node output, with a reference
    tolerance: the tolerance the rows were judged by, with a reference
    """

    def __init__(self, exit_status: int, summary: Dict[str, Any], messages: str,
                 nodes: Optional[List[Dict[str, Any]]] = None, tolerance: Optional[Dict[str, Any]] = None):
        super().__init__(exit_status=exit_status, summary=summary, messages=messages,
                         nodes=list(nodes or []), tolerance=tolerance)

    def __getattr__(self, key: str):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value) -> None:
        if key not in self:
            raise AttributeError(f"RunResult has no field {key!r}")
        self[key] = value

    @property
    def ok(self) -> bool:
        return self["exit_status"] == 0

    def to_dict(self) -> Dict[str, Any]:
        return dict(self)


def run(
    x,
    *,
    weights=None,
    inputs=None,
    expected=None,
    reference: Optional[Any] = "float64",
    rtol: Optional[float] = None,
    atol: Optional[float] = None,
) -> RunResult:
    """Runs x headless with libtorch, node by node, and returns what irscope found.

    reference: what every node output is measured against, for the per-node report: a dtype
      ("float64", the default: the same program run again in double precision; "bfloat16"...),
      a tensor file of node outputs by name (an `irscope run --dump` of a good run), or None
      for no per-node report.
    Returns a RunResult (readable as a dict too) of plain Python objects: "exit_status" (0 ran and matched, 1 a mismatch,
    2 could not run), "summary" (`irscope run --json`: the verdict per output, the nodes
    run, timings), "nodes" (one row per node output: max abs and rel error, MSE, cosine,
    SQNR, allclose; with a reference), "tolerance", and "messages" (what irscope printed on
    stderr). Raises IrscopeError
    when irscope could not run at all (an unreadable file, a bad argument).
    """
    folder = tempfile.mkdtemp(prefix="irscope-")
    try:
        path = _program_file(x, folder, "program")
        command = [program(), "run", path, "--json",
                   *_value_options(folder, weights, inputs, expected, _graph_input_names(x))]
        if rtol is not None:
            command += ["--rtol", repr(float(rtol))]
        if atol is not None:
            command += ["--atol", repr(float(atol))]
        report_path = os.path.join(folder, "report.json")
        if reference is not None:
            dtype = str(reference).replace("torch.", "")
            if dtype in ("float64", "float32", "float16", "bfloat16"):
                command += ["--reference-dtype", dtype]
            else:
                command += ["--reference-intermediates", _tensor_file(reference, folder, "reference")]
            command += ["--report", report_path]
        done = subprocess.run(command, capture_output=True, text=True)
        try:
            summary = json.loads(done.stdout) if done.stdout.strip() else None
        except ValueError:
            summary = None
        if summary is None:
            raise IrscopeError(done.stderr.strip() or f"irscope run exited with status {done.returncode}")
        result = RunResult(exit_status=done.returncode, summary=summary, messages=done.stderr)
        if os.path.exists(report_path):
            with open(report_path, encoding="utf-8") as f:
                report = json.load(f)
            result.nodes = report.get("nodes", [])
            result.tolerance = report.get("tolerance")
            summary.get("report", {}).pop("file", None)  # a temporary file, gone on return
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)
