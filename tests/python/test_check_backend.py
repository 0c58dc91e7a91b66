"""irscope.check_backend and `irscope check-backend` against planted backends.

    PYTHONPATH=python python tests/python/test_check_backend.py

Each planted backend miscompiles one ATen op of a two-layer decoder in a
different way (an approximation, a dropped term, a lower precision, a changed
constant); check_backend must name as the first fault the first group, in
execution order, that holds that op, narrowed to that op, verdict "backend
fault". An identity backend, the eager backend and a backend that touches
nothing must name no fault; Inductor neither (on a one-layer program: it
compiles for tens of seconds per graph here). --repro writes a cut that
torch.export.load reads and a script that exits 1 while the fault is there.
Run by CTest's torch stage (python.check_backend).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import torch
import torch.nn as nn

import irscope
from irscope.check_backend import main as check_backend_main

A = torch.ops.aten
HERE = os.path.dirname(os.path.abspath(__file__))


class Attention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x):
        b, n, d = x.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, -1))
        a = torch.softmax(q @ k.transpose(-1, -2) * (d // self.heads) ** -0.5, -1)
        return self.o((a @ v).transpose(1, 2).reshape(b, n, d))


class MLP(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.up = nn.Linear(d, 4 * d)
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return self.down(nn.functional.gelu(self.up(x)))


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ln1, self.attn, self.ln2, self.mlp = nn.LayerNorm(d), Attention(d), nn.LayerNorm(d), MLP(d)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Decoder(nn.Module):
    def __init__(self, layers=2, d=32):
        super().__init__()
        self.layers = nn.ModuleList([Block(d) for _ in range(layers)])
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


def _rewrite(gm, change):
    for n in list(gm.graph.nodes):
        change(gm, n)
    gm.graph.lint()
    gm.recompile()
    return gm.forward


def identity(gm, example_inputs):
    return gm.forward


def touches_nothing(gm, example_inputs):
    return _rewrite(gm, lambda gm, n: None)


def gelu_tanh(gm, example_inputs):  # an approximation
    def change(gm, n):
        if n.target == A.gelu.default:
            n.kwargs = {**n.kwargs, "approximate": "tanh"}

    return _rewrite(gm, change)


def drop_bias(gm, example_inputs):  # a dropped term
    def change(gm, n):
        if n.target == A.linear.default and len(n.args) == 3 and "o" in str(n.args[2]):
            n.args = n.args[:2]

    return _rewrite(gm, change)


def softmax_bf16(gm, example_inputs):  # a lower precision
    def change(gm, n):
        if n.target == A.softmax.int:
            with gm.graph.inserting_before(n):
                low = gm.graph.call_function(A._to_copy.default, (n.args[0],), {"dtype": torch.bfloat16})
            n.args = (low,) + tuple(n.args[1:])
            with gm.graph.inserting_after(n):
                up = gm.graph.call_function(A._to_copy.default, (n,), {"dtype": torch.float32})
            n.replace_all_uses_with(up, delete_user_cb=lambda u: u is not up)

    return _rewrite(gm, change)


def norm_eps(gm, example_inputs):  # a changed constant, only in the final norm
    def change(gm, n):
        if n.target == A.layer_norm.default and "norm_weight" in str(n.args[2]) and "ln" not in str(n.args[2]):
            args = list(n.args) + [None] * (5 - len(n.args))
            args[4] = 0.5
            n.args = tuple(args)

    return _rewrite(gm, change)


def no_softmax(gm, example_inputs):  # a backend that cannot compile an op
    if any(n.target == A.softmax.int for n in gm.graph.nodes):
        raise NotImplementedError("softmax is not supported by this backend")
    return gm.forward


class CheckBackendTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        torch.manual_seed(0)
        cls.folder = tempfile.mkdtemp(prefix="check_backend_")
        model = Decoder().eval()
        cls.x = torch.randn(2, 8, 32)
        cls.program = torch.export.export(model, (cls.x,))
        cls.path = os.path.join(cls.folder, "decoder.pt2")
        torch.export.save(cls.program, cls.path)

    def fault(self, backend, op, group):
        report = irscope.check_backend(self.program, backend=backend)
        self.assertFalse(report.ok, report.summary())
        names = [g.group for g in report.groups]
        self.assertEqual(report.first_fault_group, group, report.summary())
        self.assertEqual(report.first_fault.verdict, "backend fault")
        self.assertEqual(len(report.first_fault.nodes), 1, report.summary())
        node = report.first_fault.nodes[0]
        self.assertTrue(node == op or node.startswith(op + "_"), report.summary())
        faulty = names.index(group)
        for earlier in report.groups[:faulty]:
            self.assertEqual(earlier.verdict, "float noise", report.summary())
        self.assertGreater(report.first_fault.judgement.ratio, 10)
        self.assertEqual(report.end_to_end.verdict, "backend fault")
        return report

    def test_planted_faults_are_named_at_their_first_group(self):
        self.fault(gelu_tanh, "gelu", "layers.0")
        self.fault(drop_bias, "linear", "layers.0")
        self.fault(softmax_bf16, "softmax", "layers.0")
        self.fault(norm_eps, "layer_norm", "norm")

    def test_faithful_backends_name_no_fault(self):
        for backend in (identity, touches_nothing, "eager"):
            said = []
            report = irscope.check_backend(self.program, backend=backend, progress=said.append)
            self.assertTrue(report.ok, report.summary())
            self.assertEqual(len(said), 4, said)  # three groups, then the whole program
            self.assertEqual([g.group for g in report.groups], ["layers.0", "layers.1", "norm"])
            self.assertTrue(all(g.verdict == "float noise" for g in report.groups))
            self.assertEqual(report.end_to_end.verdict, "float noise")

    def test_inductor_names_no_fault(self):
        torch.manual_seed(1)
        model = Decoder(layers=1).eval()
        program = torch.export.export(model, (torch.randn(1, 4, 32),))
        report = irscope.check_backend(program, backend="inductor", depth=1)
        self.assertTrue(report.ok, report.summary())

    def test_command_report_and_repro(self):
        report_path = os.path.join(self.folder, "r.json")
        repro = os.path.join(self.folder, "repro")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))
        run = subprocess.run(
            [sys.executable, "-W", "ignore", "-m", "irscope.check_backend", self.path, "--backend",
             "test_check_backend:gelu_tanh", "--report", report_path, "--repro", repro],
            capture_output=True, text=True, env=env)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        # Progress while it compiles: a line per group, the narrowing, the whole program.
        for line in ("[1/3] layers.0", "[3/3] norm", "narrowing layers.0", "the whole program: compiling"):
            self.assertIn(line, run.stderr)
        with open(report_path) as f:
            report = json.load(f)
        self.assertEqual(report["first_fault"]["group"], "layers.0")
        self.assertEqual(report["first_fault"]["verdict"], "backend fault")
        self.assertEqual([g["group"] for g in report["groups"]], ["layers.0", "layers.1", "norm"])
        self.assertEqual(set(report["groups"][0]), {"group", "module", "nodes", "max_abs", "vs_fp64", "ratio",
                                                     "allowed", "verdict"})
        cut = torch.export.load(os.path.join(repro, "cut.pt2"))
        ops = [n for n in cut.graph.nodes if n.op == "call_function"]
        self.assertEqual(len(ops), 1)
        script = subprocess.run([sys.executable, "-W", "ignore", os.path.join(repro, "repro.py")],
                                capture_output=True, text=True, env=env)
        self.assertEqual(script.returncode, 1, script.stdout + script.stderr)
        self.assertIn("backend fault", script.stdout)

    def test_a_backend_that_raises_is_a_fault_with_its_message(self):
        report = irscope.check_backend(self.program, backend=no_softmax)
        self.assertEqual(report.first_fault_group, "layers.0", report.summary())
        self.assertIn("softmax is not supported", report.first_fault.error)
        self.assertIn("the backend failed", report.summary())
        self.assertEqual(report.to_dict()["groups"][0]["error"], report.first_fault.error)
        self.assertEqual(report.groups[2].verdict, "float noise")  # the final norm has no softmax

    def test_bad_backend_is_named(self):
        self.assertEqual(check_backend_main([self.path, "--backend", "nowhere_module:fn"]), 2)
        with self.assertRaises(ValueError):
            irscope.check_backend(self.program, backend="tensorrt")


if __name__ == "__main__":
    unittest.main()
