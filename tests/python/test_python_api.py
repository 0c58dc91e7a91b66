"""irscope as a pip-installed package, tested in the environment it was installed into.

    VENV/bin/python tests/python/test_python_api.py

(packaging/build-torch2.sh runs it after `pip install .` into its venv.) It
checks what a user of the package relies on: the `irscope` command names
the torch it runs on and loads that environment's libtorch; an irscope built
for another torch is refused with both versions and the rebuild command; on
every real export pytorch-ir's IRExecutor can run, the installed program's
outputs are the executor's bit for bit, computed here and now; and the
Python API (debug, show, compare, run) opens, draws and runs programs.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import torch

import irscope
from irscope import _build_info, _launcher

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(REPO, "tests", "data")
BIN = os.path.dirname(sys.executable)


def command(*args, **kwargs):
    return subprocess.run([os.path.join(BIN, "irscope"), *args], capture_output=True, text=True, **kwargs)


class SmallModel(torch.nn.Module):
    """A block of the shape users debug: a projection, a norm, an activation, a residual."""

    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(16, 16)
        self.norm = torch.nn.LayerNorm(16)

    def forward(self, x):
        return x + torch.nn.functional.gelu(self.norm(self.proj(x)))


class TheInstalledCommand(unittest.TestCase):
    def test_version_names_the_torch_it_runs_on(self):
        done = command("--version")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(f"built with libtorch {torch.__version__.split('+')[0]}", done.stdout)
        self.assertIn(f"torch {torch.__version__} ({os.path.dirname(torch.__file__)})", done.stdout)

    def test_it_loads_this_environments_libtorch(self):
        module = os.path.join(os.path.dirname(irscope.__file__), "lib", "irscope", "libirscope_commands.so")
        self.assertTrue(os.path.exists(module), module)
        ldd = subprocess.run(["ldd", module], capture_output=True, text=True, check=True).stdout
        torch_lib = os.path.realpath(os.path.join(os.path.dirname(torch.__file__), "lib"))
        lines = [line for line in ldd.splitlines() if "libtorch_cpu.so" in line]
        self.assertEqual(len(lines), 1, ldd)
        resolved = os.path.realpath(lines[0].split("=>")[1].split("(")[0].strip())
        self.assertEqual(os.path.dirname(resolved), torch_lib, ldd)

    def test_a_light_command_runs(self):
        done = command("info", os.path.join(DATA, "programs", "mlp_float.pt2"))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("Nodes:", done.stdout)


    def test_the_window_opens_on_a_backend_check(self):
        # `irscope PROGRAM --backend NAME`: checked here first (the summary on
        # the terminal), then the window opens on the program with the report.
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "backend.png")
            done = command(os.path.join(DATA, "programs", "mlp_float.pt2"), "--backend", "eager", "--screenshot", png)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("compiled by eager", done.stdout)
            self.assertIn("no backend fault", done.stdout)
            self.assertTrue(os.path.getsize(png) > 0)


class AnotherTorchIsRefused(unittest.TestCase):
    def test_the_message_names_both_versions_and_the_rebuild(self):
        message = _launcher.torch_mismatch("2.9.1", "2.13.0+cpu", "/venv/torch", "/src/irscope")
        self.assertIn("built for torch 2.9.1", message)
        self.assertIn("has torch 2.13.0+cpu (/venv/torch)", message)
        self.assertIn("pip install --force-reinstall --no-deps --no-cache-dir /src/irscope", message)
        self.assertIsNone(_launcher.torch_mismatch("2.13.0", "2.13.0+cpu"))
        self.assertIn("has no torch", _launcher.torch_mismatch("2.13.0", None, source="/src"))

    def test_the_command_refuses_before_the_program_starts(self):
        # This installation's package with its build record saying torch 2.9.1.
        with tempfile.TemporaryDirectory() as tmp:
            package = os.path.join(tmp, "irscope")
            os.mkdir(package)
            installed = os.path.dirname(irscope.__file__)
            for entry in os.listdir(installed):
                source = os.path.join(installed, entry)
                if entry == "_build_info.py":
                    continue
                os.symlink(source, os.path.join(package, entry))
            with open(os.path.join(package, "_build_info.py"), "w") as f:
                f.write(f'IRSCOPE_VERSION = "{_build_info.IRSCOPE_VERSION}"\nTORCH_VERSION = "2.9.1"\n')
            code = "import sys; from irscope._launcher import main; sys.exit(main(sys.argv[1:]))"
            done = subprocess.run(
                [sys.executable, "-c", code, "info", os.path.join(DATA, "programs", "mlp_float.pt2")],
                capture_output=True,
                text=True,
                cwd=tmp,
                env={**os.environ, "PYTHONPATH": tmp},
            )
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertIn("built for torch 2.9.1", done.stderr)
        self.assertIn(f"has torch {torch.__version__}", done.stderr)
        self.assertIn("pip install --force-reinstall", done.stderr)
        self.assertEqual(done.stdout, "")


class BitIdenticalToTheExecutor(unittest.TestCase):
    def test_every_real_export_the_executor_runs(self):
        real = os.path.join(DATA, "real")
        with tempfile.TemporaryDirectory() as out:
            made = subprocess.run(
                [sys.executable, os.path.join(real, "make_executor_reference.py"), real, out],
                capture_output=True,
                text=True,
            )
            self.assertEqual(made.returncode, 0, made.stderr)
            cases = sorted(f[: -len(".executor.pt")] for f in os.listdir(out) if f.endswith(".executor.pt"))
            self.assertGreaterEqual(len(cases), 30)
            for name in cases:
                base = os.path.join(real, name)
                args = ["run", base + ".json", "--weights", base + ".weights.pt"]
                if os.path.exists(base + ".inputs.pt"):
                    args += ["--inputs", base + ".inputs.pt"]
                args += ["--expected", os.path.join(out, name + ".executor.pt"), "--rtol", "0", "--atol", "0"]
                done = command(*args)
                self.assertEqual(done.returncode, 0, f"{name}:\n{done.stdout}\n{done.stderr}")


class ThePythonApi(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="irscope-api-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def assertPng(self, path):
        self.assertTrue(os.path.exists(path), path)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertGreater(os.path.getsize(path), 20_000)  # a drawn window, not an empty frame

    def test_debug_runs_a_live_model_against_its_own_outputs(self):
        torch.manual_seed(0)
        png = os.path.join(self.tmp, "debug.png")
        report = irscope.debug(SmallModel().eval(), (torch.randn(2, 16),), screenshot=png)
        self.assertPng(png)
        self.assertIn("outputs match", report)

    def test_show_opens_an_archive(self):
        png = os.path.join(self.tmp, "show.png")
        program = os.path.join(DATA, "programs", "cond_branches.pt2")
        report = irscope.show(
            program, expected=os.path.join(DATA, "programs", "cond_branches.expected.pt"), screenshot=png, run=True
        )
        self.assertPng(png)
        self.assertIn("outputs match", report)

    def test_show_takes_an_exported_program_and_named_inputs(self):
        torch.manual_seed(1)
        model, x = SmallModel().eval(), torch.randn(3, 16)
        exported = torch.export.export(model, (x,), strict=False)
        png = os.path.join(self.tmp, "ep.png")
        with torch.no_grad():
            expected = model(x)
        name = [s.arg.name for s in exported.graph_signature.output_specs][0]
        report = irscope.show(exported, inputs=(x,), expected={name: expected}, screenshot=png, run=True)
        self.assertPng(png)
        self.assertIn("outputs match", report)

    def test_compare_draws_two_programs(self):
        torch.manual_seed(2)
        a = torch.export.export(SmallModel(), (torch.randn(1, 16),), strict=False)
        b = torch.export.export(torch.nn.Sequential(torch.nn.Linear(16, 16)), (torch.randn(1, 16),), strict=False)
        png = os.path.join(self.tmp, "compare.png")
        irscope.compare(a, b, screenshot=png)
        self.assertPng(png)

    def test_run_returns_the_verdict_and_the_per_node_report(self):
        torch.manual_seed(3)
        model, x = SmallModel().eval(), torch.randn(4, 16)
        exported = torch.export.export(model, (x,), strict=False)
        with torch.no_grad():
            y = model(x)
        name = [s.arg.name for s in exported.graph_signature.output_specs][0]
        result = irscope.run(exported, inputs=(x,), expected={name: y})
        self.assertEqual(result["exit_status"], 0, result["messages"])
        self.assertIsInstance(result["summary"], dict)
        json.dumps(result)  # plain Python objects
        self.assertTrue(result.ok)  # the same fields read as attributes
        self.assertEqual(result.nodes, result["nodes"])
        rows = result["nodes"]  # measured against the program run in float64
        self.assertIsInstance(rows, list)
        self.assertEqual({r["op_type"] for r in rows} >= {"aten.linear.default", "aten.layer_norm.default"}, True, rows)
        self.assertTrue(all(r["ok"] and r["sqnr_db"] > 60 for r in rows), rows)
        # A wrong reference is a mismatch (exit 1), not an error.
        wrong = irscope.run(exported, inputs=(x,), expected={name: y + 1})
        self.assertEqual(wrong["exit_status"], 1)

    def test_a_bad_argument_is_a_clear_error(self):
        with self.assertRaises(TypeError):
            irscope.show(42)
        with self.assertRaises(irscope.IrscopeError) as caught:
            irscope.run(os.path.join(self.tmp, "missing.pt2"))
        self.assertIn("missing.pt2", str(caught.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
