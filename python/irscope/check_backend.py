"""Where does a backend first go wrong: a program checked group by group, float64 as referee.

    report = irscope.check_backend("model.pt2", backend="inductor")
    report = irscope.check_backend(ep, inputs=(x,), backend=my_backend, repro="repro/")
    irscope check-backend model.pt2 --backend mypkg.backend:compile --report r.json --repro repro/

A backend follows torch.compile's convention, `backend(gm, example_inputs) ->
callable`: it receives graphs of the program's own ATen ops. The program is
cut into groups along its module hierarchy (execution order; `depth` picks
the level, by default the first whose groups are small enough to localize);
each group is compiled on its own and run on the eager values of its inputs,
so a group is judged by itself, never by what it inherits. Its outputs are
measured against a float64 run of the same group on the same inputs, and so
is eager float32: the group is a backend fault when the backend is farther
from float64 than eager float32 is by more than float32's own tolerance
allows, float noise otherwise. The first fault in execution order is then
cut down to the smallest run of ops that still faults, and the whole program
is compiled and run once for the end-to-end verdict.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import os
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

__all__ = ["check_backend", "BackendReport", "GroupResult", "Judgement", "main"]

# float32's default tolerance (torch.testing.assert_close): what eager
# float32 itself may be off from float64 by, beyond the error it shows.
RTOL = 1.3e-6
ATOL = 1e-5
# A group holds at most this many ops at the default depth: small enough to
# point at a module, large enough to keep its fusions whole.
GROUP_LIMIT = 40


@dataclasses.dataclass
class Judgement:
    """One group's outputs against float64: the larger error of the backend and of eager float32."""

    backend: float
    eager: float
    allowed: float
    verdict: str  # "backend fault" | "float noise"

    @property
    def ratio(self) -> float:
        """How many times farther from float64 the backend is than eager float32."""
        if self.eager > 0:
            return self.backend / self.eager
        return math.inf if self.backend > 0 else 1.0


@dataclasses.dataclass
class GroupResult:
    group: str
    module: str
    nodes: List[str]
    max_abs: float  # backend against eager float32
    judgement: Judgement
    error: Optional[str] = None  # the backend could not compile or run the group: why

    @property
    def verdict(self) -> str:
        return self.judgement.verdict

    def to_dict(self) -> Dict[str, Any]:
        return {
            "group": self.group,
            "module": self.module,
            "nodes": list(self.nodes),
            "max_abs": _number(self.max_abs),
            "vs_fp64": {"backend": _number(self.judgement.backend), "eager": _number(self.judgement.eager)},
            "ratio": _number(self.judgement.ratio),
            "allowed": _number(self.judgement.allowed),
            "verdict": self.verdict,
            **({"error": self.error} if self.error else {}),
        }


@dataclasses.dataclass
class BackendReport:
    backend: str
    program: str
    depth: int
    groups: List[GroupResult]
    first_fault: Optional[GroupResult]  # the smallest faulting cut of the first faulting group
    first_fault_group: Optional[str]
    end_to_end: Optional[GroupResult]
    repro: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.first_fault is None

    def to_dict(self) -> Dict[str, Any]:
        first = None
        if self.first_fault is not None:
            first = self.first_fault.to_dict()
            first["group"] = self.first_fault_group
        return {
            "backend": self.backend,
            "program": self.program,
            "depth": self.depth,
            "groups": [g.to_dict() for g in self.groups],
            "first_fault": first,
            "end_to_end": self.end_to_end.to_dict() if self.end_to_end else None,
            "repro": self.repro,
        }

    def summary(self) -> str:
        lines = [f"{len(self.groups)} groups of {self.program} compiled by {self.backend} (module depth {self.depth})"]
        for g in self.groups:
            mark = "FAULT" if g.verdict == "backend fault" else "ok   "
            if g.error:
                lines.append(f"  {mark} {g.group:<32} {len(g.nodes):>4} ops  the backend failed: {g.error}")
                continue
            lines.append(
                f"  {mark} {g.group:<32} {len(g.nodes):>4} ops  vs float64: backend {g.judgement.backend:.3g}, "
                f"eager {g.judgement.eager:.3g} ({g.verdict})"
            )
        if self.first_fault is None:
            lines.append("no backend fault: every group is within float noise of float64")
        else:
            f = self.first_fault
            lines.append(
                f"first backend fault: group '{self.first_fault_group}', narrowed to {len(f.nodes)} op(s) "
                f"{', '.join(f.nodes)}: backend {f.judgement.backend:.3g} from float64 where eager float32 is "
                f"{f.judgement.eager:.3g} ({_ratio_text(f.judgement.ratio)})"
            )
        if self.end_to_end is not None:
            e = self.end_to_end.judgement
            lines.append(f"end to end: backend {e.backend:.3g} from float64, eager float32 {e.eager:.3g} ({e.verdict})")
        if self.repro:
            lines.append(f"repro: {self.repro} (python {os.path.join(self.repro, 'repro.py')})")
        return "\n".join(lines)


def _number(x: float):
    return None if x is None or math.isnan(x) else (str(x) if math.isinf(x) else float(x))


def _ratio_text(r: float) -> str:
    return "eager float32 exact" if math.isinf(r) else f"{r:.3g}x eager float32's error"


# ---------------------------------------------------------------- the program


def _load_program(program, inputs):
    import torch

    if isinstance(program, (str, os.PathLike)):
        name = os.fspath(program)
        ep = torch.export.load(name)
    elif isinstance(program, torch.export.ExportedProgram):
        ep, name = program, "ExportedProgram"
    elif isinstance(program, tuple) and len(program) == 2 and isinstance(program[0], torch.nn.Module):
        ep = torch.export.export(program[0], tuple(program[1]))
        name = type(program[0]).__name__
        inputs = tuple(program[1]) if inputs is None else inputs
    else:
        raise TypeError("program: a .pt2 path, an ExportedProgram, or (module, example_args)")
    if inputs is None:
        if ep.example_inputs is None:
            raise ValueError(f"{name}: holds no example inputs; pass inputs")
        args, kwargs = ep.example_inputs
        if kwargs:
            raise ValueError(f"{name}: its example inputs have keyword arguments; pass inputs as a tuple")
        inputs = tuple(args)
    return ep, name, _inputs_tuple(inputs, ep)


def _inputs_tuple(inputs, ep):
    import torch

    if isinstance(inputs, (str, os.PathLike)):
        path = os.fspath(inputs)
        if path.endswith(".pt2"):
            inputs = torch.export.load(path).example_inputs[0]
        else:
            inputs = torch.load(path, weights_only=True)
    if isinstance(inputs, dict):
        names = [s.arg.name for s in ep.graph_signature.input_specs if s.kind.name == "USER_INPUT"]
        missing = [n for n in names if n not in inputs]
        if missing:
            raise ValueError(f"inputs: no value for the program's input(s) {', '.join(missing)}")
        return tuple(inputs[n] for n in names)
    if isinstance(inputs, torch.Tensor):
        return (inputs,)
    return tuple(inputs)


def _module_path(node) -> str:
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return ""
    path = list(stack.values())[-1][0]
    # "L['self'].layers[0]" (older exports) and "layers.0" alike.
    path = path.replace("L['self']", "").replace("L__self__", "").replace("[", ".").replace("]", "").strip(".")
    return path


def _ops(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function"]


# ---------------------------------------------------------------- groups


@dataclasses.dataclass
class _Group:
    name: str
    module: str
    nodes: list  # fx nodes, in execution order


def _groups_at(ops, depth: int) -> List[_Group]:
    groups: List[_Group] = []
    for node in ops:
        parts = _module_path(node).split(".") if _module_path(node) else []
        module = ".".join(parts[:depth])
        if groups and groups[-1].module == module:
            groups[-1].nodes.append(node)
        else:
            groups.append(_Group("", module, [node]))
    seen: Dict[str, int] = {}
    for g in groups:
        base = g.module or "(model)"
        seen[base] = seen.get(base, 0) + 1
        g.name = base if seen[base] == 1 else f"{base}#{seen[base]}"
    return groups


def _default_depth(ops) -> int:
    deepest = max((len(_module_path(n).split(".")) for n in ops if _module_path(n)), default=0)
    for depth in range(1, deepest + 1):
        if max(len(g.nodes) for g in _groups_at(ops, depth)) <= GROUP_LIMIT:
            return depth
    return max(deepest, 1)


def _cut(gm, nodes):
    """A GraphModule of `nodes` alone: what they read from outside becomes its inputs (tensors, in
    order of first use), what is read after them (or returned) its outputs."""
    import torch.fx as fx

    inside = set(nodes)
    graph = fx.Graph()
    env: Dict[Any, Any] = {}
    inputs: list = []

    def outside(n):
        if n not in env:
            p = graph.placeholder(n.name)
            p.meta = dict(n.meta)
            env[n] = p
            inputs.append(n)
        return env[n]

    for n in nodes:
        for a in n.all_input_nodes:
            if a not in inside:
                outside(a)
        env[n] = graph.node_copy(n, lambda a: env[a])
    later = [n for n in nodes if any(u not in inside for u in n.users)]
    if not later:
        later = [nodes[-1]]
    graph.output(tuple(env[n] for n in later))
    return fx.GraphModule(gm, graph), inputs, later


# ---------------------------------------------------------------- values


class _Recorder:
    """Every node's value in one run of the unlifted program."""

    def __init__(self, gm, args):
        import torch.fx as fx

        self.values: Dict[Any, Any] = {}
        values = self.values

        class Interp(fx.Interpreter):
            def run_node(self, n):
                v = super().run_node(n)
                values[n] = v
                return v

        Interp(gm).run(*args)


def _to64(x):
    import torch

    if isinstance(x, torch.Tensor) and x.is_floating_point():
        return x.detach().to(torch.float64)
    if isinstance(x, (list, tuple)):
        return type(x)(_to64(v) for v in x)
    return x


def _flat(x) -> list:
    if isinstance(x, (list, tuple)):
        out = []
        for v in x:
            out.extend(_flat(v))
        return out
    return [x]


def _judge(backend_out, eager_out, fp64_out) -> Tuple[float, Judgement]:
    import torch

    worst_backend = worst_eager = against_eager = 0.0
    allowed_extra = 0.0
    exact_fault = False
    for b, e, r in zip(_flat(backend_out), _flat(eager_out), _flat(fp64_out)):
        if e is None:
            continue
        if not isinstance(e, torch.Tensor):
            if b != e:
                exact_fault = True
            continue
        b = torch.as_tensor(b)
        if b.shape != e.shape:
            exact_fault = True
            continue
        if not e.is_floating_point():
            if not torch.equal(b.to(e.dtype), e):
                exact_fault = True
            continue
        r = r.to(torch.float64)
        b64, e64 = b.detach().to(torch.float64), e.detach().to(torch.float64)
        finite = torch.isfinite(r)
        if not bool(torch.equal(torch.isfinite(b64), finite)):
            exact_fault = True
            continue
        if r.numel() == 0:
            continue
        db = (b64 - r).abs()[finite]
        de = (e64 - r).abs()[finite]
        if db.numel():
            worst_backend = max(worst_backend, float(db.max()))
            worst_eager = max(worst_eager, float(de.max()))
            against_eager = max(against_eager, float((b64 - e64).abs()[finite].max()))
            allowed_extra = max(allowed_extra, ATOL + RTOL * float(r.abs()[finite].max()))
    allowed = 2.0 * worst_eager + allowed_extra
    fault = exact_fault or worst_backend > allowed
    if exact_fault:
        worst_backend = math.inf
    return against_eager, Judgement(worst_backend, worst_eager, allowed, "backend fault" if fault else "float noise")


# ---------------------------------------------------------------- backends


def _backend(backend) -> Tuple[str, Callable]:
    if callable(backend):
        return getattr(backend, "__name__", repr(backend)), backend
    if backend == "eager":
        return "eager", lambda gm, example_inputs: gm.forward
    if backend == "inductor":
        from torch._inductor.compile_fx import compile_fx

        return "inductor", compile_fx
    if backend == "aot_inductor":
        return "aot_inductor", _aot_inductor
    if isinstance(backend, str) and ":" in backend:
        module, _, function = backend.partition(":")
        try:
            fn = getattr(importlib.import_module(module), function)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"--backend {backend}: cannot import {function} from {module}: {e}") from None
        return backend, fn
    raise ValueError(
        f"backend '{backend}': name inductor, aot_inductor, eager, or a torch.compile-convention backend as "
        "MODULE:FUNCTION"
    )


def _aot_inductor(gm, example_inputs):
    """AOTInductor as a backend: the graph exported, compiled ahead of time into a package, loaded back."""
    import tempfile

    import torch

    exported = torch.export.export(gm, tuple(example_inputs))
    folder = tempfile.mkdtemp(prefix="irscope_aoti_")
    path = torch._inductor.aoti_compile_and_package(exported, package_path=os.path.join(folder, "group.pt2"))
    return torch._inductor.aoti_load_package(path)


class _BackendFailed(RuntimeError):
    """The backend raised compiling or running a group."""


class _Checker:
    """Runs a cut of the program three ways on the eager values of its inputs: eager float32, float64
    (the same ops on the inputs cast up) and compiled by the backend."""

    def __init__(self, gm, eager, compile_fn):
        self.gm = gm
        self.eager = eager
        self.compile = compile_fn

    def run_cut(self, nodes) -> Tuple[float, Judgement, list]:
        import torch

        sub, inputs, _ = _cut(self.gm, nodes)
        args = [self.eager[n] for n in inputs]
        with torch.no_grad():
            eager_out = sub(*args)
            fp64_out = sub(*[_to64(a) for a in args])
            # Last: a backend may rewrite the graph it is given.
            try:
                backend_out = self.compile(sub, list(args))(*args)
            except Exception as e:
                raise _BackendFailed(f"{type(e).__name__}: {e}") from e
        max_abs, judgement = _judge(backend_out, eager_out, fp64_out)
        return max_abs, judgement, args


def check_backend(
    program,
    inputs=None,
    backend: Union[str, Callable] = "inductor",
    depth: Optional[int] = None,
    repro: Optional[str] = None,
    progress: Optional[Callable[[str], None]] = None,
) -> BackendReport:
    """Checks `backend` against `program` group by group (see the module's doc). Returns the report.

    progress: called with a line before each compilation (a group, the narrowing of the first
    fault, the whole program): a backend like Inductor takes seconds per graph on a small machine.
    The command line prints them on stderr."""
    import copy

    import torch

    ep, name, args = _load_program(program, inputs)
    backend_name, compile_fn = _backend(backend)
    gm = ep.module()
    ops = _ops(gm)
    if not ops:
        raise ValueError(f"{name}: the program has no op to check")
    with torch.no_grad():
        eager = _Recorder(gm, args).values
    checker = _Checker(gm, eager, compile_fn)
    depth = _default_depth(ops) if depth is None else depth
    results: List[GroupResult] = []
    first_fault_group: Optional[_Group] = None
    say = progress or (lambda line: None)
    groups = list(_groups_at(ops, depth))
    for k, group in enumerate(groups):
        nodes = [n.name for n in group.nodes]
        say(f"[{k + 1}/{len(groups)}] {group.name} ({len(nodes)} op{'' if len(nodes) == 1 else 's'}): "
            f"compiling with {backend_name}")
        try:
            max_abs, judgement, _ = checker.run_cut(group.nodes)
            results.append(GroupResult(group.name, group.module, nodes, max_abs, judgement))
        except _BackendFailed as e:  # the backend could not take this group: its fault, said as such
            judgement = Judgement(math.inf, 0.0, 0.0, "backend fault")
            results.append(GroupResult(group.name, group.module, nodes, math.inf, judgement, str(e)))
        if first_fault_group is None and judgement.verdict == "backend fault":
            first_fault_group = group

    first_fault: Optional[GroupResult] = None
    if first_fault_group is not None:
        failed = next(r for r in results if r.group == first_fault_group.name)
        if not failed.error:
            say(f"narrowing {first_fault_group.name} down to the ops at fault")
        first_fault = failed if failed.error else _narrow(checker, first_fault_group)

    # The whole program, compiled once.
    end_to_end = None
    say(f"the whole program: compiling with {backend_name}")
    try:
        gm64 = copy.deepcopy(gm)
        gm64.to(torch.float64)  # floating parameters and buffers only
        with torch.no_grad():
            eager_out = gm(*args)
            fp64_out = gm64(*[_to64(a) for a in args])
            backend_out = compile_fn(copy.deepcopy(gm), list(args))(*args)
        max_abs, judgement = _judge(backend_out, eager_out, fp64_out)
        end_to_end = GroupResult("(whole program)", "", [n.name for n in ops], max_abs, judgement)
    except Exception as e:  # the backend cannot take the whole graph: the groups still stand
        print(f"irscope check-backend: the whole program did not compile with {backend_name}: {e}", file=sys.stderr)

    report = BackendReport(
        backend_name,
        name,
        depth,
        results,
        first_fault,
        first_fault_group.name if first_fault_group else None,
        end_to_end,
    )
    if repro and first_fault is not None:
        report.repro = _write_repro(checker, first_fault, backend, backend_name, repro)
    return report


def _narrow(checker: _Checker, group: _Group) -> GroupResult:
    """The smallest run of consecutive ops of `group` that still faults on its own (one op when a
    single op is at fault; a fusion's ops when only together they are)."""
    nodes = group.nodes
    for width in range(1, len(nodes) + 1):
        for start in range(0, len(nodes) - width + 1):
            window = nodes[start : start + width]
            try:
                max_abs, judgement, _ = checker.run_cut(window)
            except _BackendFailed:
                continue  # a window the backend cannot compile alone
            if judgement.verdict == "backend fault":
                return GroupResult(group.name, group.module, [n.name for n in window], max_abs, judgement)
    max_abs, judgement, _ = checker.run_cut(nodes)
    return GroupResult(group.name, group.module, [n.name for n in nodes], max_abs, judgement)


_REPRO_SCRIPT = '''"""Repro: {backend} is farther from float64 than eager float32 on {nodes}.

Made by irscope check-backend. Exits 1 while the fault is there, 0 once fixed.
"""
import importlib
import sys

import torch

BACKEND = {backend_spec!r}
ALLOWED_TIMES_EAGER = 2.0
RTOL, ATOL = {rtol!r}, {atol!r}


def backend():
    if BACKEND == "inductor":
        from torch._inductor.compile_fx import compile_fx

        return compile_fx
    if BACKEND == "eager":
        return lambda gm, example_inputs: gm.forward
    module, _, function = BACKEND.partition(":")
    return getattr(importlib.import_module(module), function)


def flat(x):
    return [v for item in x for v in flat(item)] if isinstance(x, (list, tuple)) else [x]


def main():
    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    program = torch.export.load(here + "/cut.pt2")
    args = torch.load(here + "/inputs.pt", weights_only=True)
    gm = program.module()
    with torch.no_grad():
        eager = flat(gm(*args))
        gm64 = program.module()
        gm64.to(torch.float64)
        fp64 = flat(gm64(*[a.double() if a.is_floating_point() else a for a in args]))
        got = flat(backend()(gm, list(args))(*args))
    fault = False
    for b, e, r in zip(got, eager, fp64):
        r = r.double()
        db = float((b.double() - r).abs().max()) if r.numel() else 0.0
        de = float((e.double() - r).abs().max()) if r.numel() else 0.0
        allowed = ALLOWED_TIMES_EAGER * de + ATOL + RTOL * (float(r.abs().max()) if r.numel() else 0.0)
        print(f"backend {{db:.3g}} from float64, eager float32 {{de:.3g}} (allowed {{allowed:.3g}})")
        fault = fault or not (db <= allowed)
    print("backend fault" if fault else "fixed: within float noise")
    return 1 if fault else 0


if __name__ == "__main__":
    sys.exit(main())
'''


def _write_repro(checker: _Checker, fault: GroupResult, backend, backend_name: str, folder: str) -> str:
    import torch

    nodes = [n for n in checker.gm.graph.nodes if n.name in set(fault.nodes)]
    sub, inputs, _ = _cut(checker.gm, nodes)
    args = tuple(checker.eager[n] for n in inputs)
    os.makedirs(folder, exist_ok=True)
    exported = torch.export.export(sub, args)
    torch.export.save(exported, os.path.join(folder, "cut.pt2"))
    torch.save(args, os.path.join(folder, "inputs.pt"))
    spec = backend if isinstance(backend, str) else f"{backend.__module__}:{backend.__name__}"
    with open(os.path.join(folder, "repro.py"), "w") as f:
        f.write(
            _REPRO_SCRIPT.format(backend=backend_name, nodes=", ".join(fault.nodes), backend_spec=spec, rtol=RTOL, atol=ATOL)
        )
    return folder


# ---------------------------------------------------------------- command line


def main(argv: Optional[Sequence[str]] = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(
        prog="irscope check-backend",
        description="Check a compiler backend against a torch.export program group by group, float64 as referee.",
    )
    ap.add_argument("program", help="a .pt2 (torch.export.save)")
    ap.add_argument(
        "--backend", default="inductor", help="inductor, aot_inductor, eager, or MODULE:FUNCTION (torch.compile's convention)"
    )
    ap.add_argument("--inputs", help="a tensor file (a tuple, or a dict by input name) or a .pt2's example inputs")
    ap.add_argument("--depth", type=int, help="module depth of the groups (default: small enough to localize)")
    ap.add_argument("--report", help="write the report as JSON here")
    ap.add_argument("--repro", help="write the smallest faulting cut, its inputs and repro.py here")
    a = ap.parse_args(argv)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # MODULE:FUNCTION from the current folder, as python -m would
    try:
        started = time.monotonic()

        def progress(line: str) -> None:
            print(f"irscope check-backend: {time.monotonic() - started:6.1f} s  {line}", file=sys.stderr, flush=True)

        report = check_backend(
            a.program, inputs=a.inputs, backend=a.backend, depth=a.depth, repro=a.repro, progress=progress
        )
    except (ValueError, TypeError, OSError, RuntimeError) as e:
        print(f"irscope check-backend: {e}", file=sys.stderr)
        return 2
    print(report.summary())
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report.to_dict(), f, indent=2)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
