"""Programs with control flow nested two levels deep, each combination a real
model writes: a branch inside a loop's body (early-exit decoding), a loop
inside a branch, a scan inside a branch (a recurrent layer behind a flag), a
branch inside a branch, a branch inside map's body (per-row routing), a loop
inside a loop. Saved by PyTorch 2.13's torch.export.save.

For each NAME it writes NAME.pt2, NAME.expected.pt (the module's outputs) and
NAME.calls.pt: every value every subgraph call computed, at every depth, as
PyTorch ran it (each subgraph's GraphModule run by an fx.Interpreter inside
the higher-order op's own implementation), keyed by execution position,
    while_loop/while_loop_body_graph_0#2/cond/true_graph_0/mul
(a loop's, scan's or map's calls numbered from 1; a branch unnumbered), the
form `irscope run --dump` writes. NAME.json lists the higher-order ops that
ran, at every depth, with their branch or body calls (`run --json`'s
higher_order). cli.nested_control_flow checks irscope against all three.

  build-torch2/venv/bin/python tests/data/nested/make_nested_programs.py [OUTDIR]
Seeded by name.
"""
import json
import os
import sys
import warnings
import zlib

import torch
from torch import nn
from torch._higher_order_ops.map import map as hop_map
from torch._higher_order_ops.scan import scan
from torch._higher_order_ops.while_loop import while_loop

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
REPEATING = {"while_loop", "scan", "map_impl"}


class BranchInLoop(nn.Module):
    """Each step doubles or squashes the state by its sign: a cond in a while_loop body."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        def cond_fn(i, h):
            return i < 3

        def body_fn(i, h):
            h = torch.cond(h.sum() > 0, lambda h: self.lin(h) * 2, lambda h: torch.tanh(h) - 1, (h,))
            return i + 1, h

        _, h = while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))
        return h


class LoopInBranch(nn.Module):
    """A refinement loop taken only when the input says so."""

    def forward(self, x):
        def refine(x):
            def c(i, h):
                return i < 2

            def b(i, h):
                return i + 1, torch.sin(h) * 1.5

            return while_loop(c, b, (torch.zeros((), dtype=torch.int64), x))[1]

        return torch.cond(x.mean() > -10, refine, lambda x: x.clone(), (x,))


class ScanInBranch(nn.Module):
    """A recurrent layer behind a flag: scan inside cond."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 4) * 0.3)

    def forward(self, x):
        def recurrent(x):
            def step(h, xt):
                h = torch.tanh(h @ self.w + xt)
                return h, h * 2

            return scan(step, torch.zeros(4), x)[1]

        return torch.cond(x.sum() < 1000, recurrent, lambda x: x * 0, (x,))


class BranchInBranch(nn.Module):
    def forward(self, x):
        def outer_true(x):
            return torch.cond(x.max() > 0.5, lambda x: x.exp(), lambda x: x.neg(), (x,))

        return torch.cond(x.min() < 0, outer_true, lambda x: x + 1, (x,))


class BranchInMap(nn.Module):
    """Per-row routing: each row picks a path by its own sign."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)

    def forward(self, x):
        def row(r):
            return torch.cond(r.sum() > 0, lambda r: self.a(r), lambda r: r.abs() + 1, (r,))

        return hop_map(row, x)


class LoopInLoop(nn.Module):
    def forward(self, x):
        def oc(i, h):
            return i < 2

        def ob(i, h):
            def ic(j, g):
                return j < 3

            def ib(j, g):
                return j + 1, g * 0.5 + torch.cos(g)

            return i + 1, while_loop(ic, ib, (torch.zeros((), dtype=torch.int64), h))[1] + 1

        return while_loop(oc, ob, (torch.zeros((), dtype=torch.int64), x))[1]


def cases():
    return [
        ("branch_in_loop", BranchInLoop, (torch.randn(2, 4),)),
        ("loop_in_branch", LoopInBranch, (torch.randn(3, 4),)),
        ("scan_in_branch", ScanInBranch, (torch.randn(5, 4),)),
        ("branch_in_branch", BranchInBranch, (torch.randn(3, 4),)),
        ("branch_in_map", BranchInMap, (torch.randn(4, 4),)),
        ("loop_in_loop", LoopInLoop, (torch.randn(2, 3),)),
    ]


def subgraph_users(gm):
    """{submodule name: the higher-order node of gm that calls it}."""
    users = {}
    for n in gm.graph.nodes:
        if n.op != "call_function":
            continue
        for a in _flat(n.args):
            if (isinstance(a, torch.fx.Node) and a.op == "get_attr"
                    and isinstance(getattr(gm, a.target, None), torch.fx.GraphModule)):
                users[a.target] = n
    return users


def _flat(args):
    out = []
    for a in args:
        if isinstance(a, (list, tuple)):
            out.extend(_flat(a))
        else:
            out.append(a)
    return out


def record_calls(gm, args):
    """Runs gm; every subgraph call's values, by execution position, and the
    higher-order ops that ran ([{"path", "op", "branch" | "iterations"}])."""
    values, runs = {}, []
    stack = []  # the position steps of the calls being run
    counts = {}  # (prefix, op node, subgraph) -> calls so far

    def hop_name(node):
        return str(node.target).split(".")[-1] if "higher_order" in str(node.target) else node.name

    def instrument(module, prefix_graph_module):
        users = subgraph_users(prefix_graph_module)
        for sub_name, hop in users.items():
            sub = getattr(prefix_graph_module, sub_name)
            if not isinstance(sub, torch.fx.GraphModule):
                continue
            instrument(sub, sub)

            def make(sub=sub, sub_name=sub_name, hop=hop):
                def run(*a):
                    prefix = "/".join(stack)
                    op = hop_name(hop)
                    key = (prefix, hop.name, sub_name)
                    counts[key] = counts.get(key, 0) + 1
                    step = f"{hop.name}/{sub_name}" + (f"#{counts[key]}" if op in REPEATING else "")
                    stack.append(step)
                    path = "/".join(stack)

                    class Capture(torch.fx.Interpreter):
                        def run_node(self, n):
                            r = super().run_node(n)
                            if isinstance(r, torch.Tensor) and n.op not in ("output", "get_attr"):
                                values[f"{path}/{n.name}"] = r.detach().clone()
                            return r

                    try:
                        return Capture(sub).run(*a)
                    finally:
                        stack.pop()

                return run

            sub.forward = make()

    instrument(gm, gm)
    # The ops that ran, with what they did, read back from the calls made.
    with torch.no_grad():
        out = gm(*args)
    seen = {}
    for (prefix, node, sub), n in counts.items():
        seen.setdefault((prefix, node), []).append((sub, n))
    ops = {n.name: hop_name(n) for m in gm.modules() if isinstance(m, torch.fx.GraphModule) for n in m.graph.nodes}
    for (prefix, node), subs in sorted(seen.items(), key=lambda kv: (kv[0][0].count("/"), kv[0])):
        op = ops.get(node, "?")
        entry = {"path": (prefix + "/" if prefix else "") + node, "op": op}
        if op == "cond":
            entry["branch"] = subs[0][0]
        elif op == "while_loop":
            entry["iterations"] = max(n for s, n in subs if "body" in s)
        else:
            entry["iterations"] = max(n for _, n in subs)
        runs.append(entry)
    return out, values, runs


def main():
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    for name, make, args in cases():
        torch.manual_seed(zlib.crc32(name.encode()))
        model = make().eval()
        args = tuple(torch.randn_like(a) for a in args)
        ep = torch.export.export(model, args, strict=False)
        torch.export.save(ep, os.path.join(outdir, name + ".pt2"))
        loaded = torch.export.load(os.path.join(outdir, name + ".pt2"))
        out_names = [s.arg.name for s in loaded.graph_signature.output_specs]
        gm = loaded.module()
        out, values, runs = record_calls(gm, args)
        if isinstance(out, torch.Tensor):
            out = (out,)
        torch.save({n: t.detach().clone() for n, t in zip(out_names, out)}, os.path.join(outdir, name + ".expected.pt"))
        torch.save(values, os.path.join(outdir, name + ".calls.pt"))
        with open(os.path.join(outdir, name + ".json"), "w") as f:
            json.dump({"higher_order": runs}, f, indent=2)
            f.write("\n")
        print(f"written  {name}: {len(values)} values in calls, {len(runs)} higher-order runs")


if __name__ == "__main__":
    main()
