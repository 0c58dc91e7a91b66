"""What check-backend costs against what a user pays anyway, side by side in one run.

    PYTHONPATH=python build-torch2/venv/bin/python bench/check_backend_cost.py [--backend inductor] [--layers 2]

On a decoder of `--layers` Llama-style blocks (RMSNorm, RoPE, GQA, SwiGLU;
bench/make_layout_population.py's),
each with a fresh Inductor cache (TORCHINDUCTOR_CACHE_DIR set per row, so no
row reuses another's kernels):
  whole        torch.compile's backend on the whole program, compiled and run once
  analyze      the same plus what PyTorch's accuracy minifier's `repro.py
               analyze` adds: an eager float32 and a float64 run of the whole
               graph, every intermediate compared (one fx.Interpreter pass each)
  check        irscope.check_backend: every group compiled alone, eager and
               float64 runs per group, the end-to-end compile
The issue's target: check <= 3x whole + the float64 runs.
"""
import argparse
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time

import torch


# The Llama-style decoder of the layout population (RoPE, GQA, SwiGLU, a KV cache).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_layout_population import Decoder, decoder_inputs  # noqa: E402


def llama_config(layers):
    return dict(family="llama", layers=layers, hidden=64, heads=4, kv_heads=2, ff=128, vocab=128, rope=True,
                cache=False, tied=False, sdpa=False, bias=False, seq=16, past=0, max_pos=32)


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--row", help=argparse.SUPPRESS)  # one row, in a process of its own
    a = ap.parse_args()
    if not a.row:
        return run_rows(a)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import irscope
    from irscope.check_backend import _backend

    torch.manual_seed(0)
    c = llama_config(a.layers)
    args = decoder_inputs(c)
    program = torch.export.export(Decoder(c).eval(), args)
    _, compile_fn = _backend(a.backend)

    def whole():
        gm = program.module()
        with torch.no_grad():
            compile_fn(gm, list(args))(*args)

    def analyze():
        whole()
        gm = program.module()
        gm64 = copy.deepcopy(gm).to(torch.float64)
        with torch.no_grad():
            torch.fx.Interpreter(gm).run(*args)
            torch.fx.Interpreter(gm64).run(*[t.double() if t.is_floating_point() else t for t in args])

    def check():
        report = irscope.check_backend(program, backend=a.backend)
        assert report.ok, report.summary()

    # The backend's own start-up (imports, its first compile) is paid once
    # by any use of it: not counted in any row.
    tiny = torch.export.export(torch.nn.Linear(4, 4), (torch.randn(2, 4),)).module()
    with torch.no_grad():
        compile_fn(tiny, [torch.randn(2, 4)])(torch.randn(2, 4))
    print(timed({"whole": whole, "analyze": analyze, "check": check}[a.row]))


def run_rows(a):
    """Each row in a fresh process with an empty Inductor cache: no row reuses another's kernels."""
    rows = []
    for name in ("whole", "analyze", "check"):
        cache = tempfile.mkdtemp(prefix="inductor_cache_")
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-W", "ignore", __file__, "--row", name, "--backend", a.backend,
                               "--layers", str(a.layers)], capture_output=True, text=True, env=env)
        shutil.rmtree(cache, ignore_errors=True)
        if done.returncode != 0:
            sys.exit(f"row {name} failed:\n{done.stderr[-2000:]}")
        rows.append((name, float(done.stdout.strip().splitlines()[-1])))
    base = rows[0][1]
    print(f"{a.layers}-layer decoder, backend {a.backend}, {os.cpu_count()} cores")
    for name, seconds in rows:
        print(f"  {name:<8} {seconds:8.1f} s  {seconds / base:5.2f}x whole")


if __name__ == "__main__":
    main()
