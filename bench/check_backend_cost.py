"""What check-backend costs against what a user pays anyway, side by side in one run.

    PYTHONPATH=python build-torch2/venv/bin/python bench/check_backend_cost.py [--backend inductor] [--layers 2]

On a decoder of `--layers` Llama-style blocks (RMSNorm, attention, SwiGLU),
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
import sys
import tempfile
import time

import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


class Block(nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.heads = heads
        self.input_layernorm = RMSNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
        self.post_attention_layernorm = RMSNorm(d)
        self.gate, self.up = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False)
        self.down = nn.Linear(2 * d, d, bias=False)

    def forward(self, x):
        b, n, d = x.shape
        h = self.input_layernorm(x)
        q, k, v = (p(h).view(b, n, self.heads, -1).transpose(1, 2) for p in (self.q, self.k, self.v))
        a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, -1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(b, n, d))
        h = self.post_attention_layernorm(x)
        return x + self.down(nn.functional.silu(self.gate(h)) * self.up(h))


class Decoder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = nn.ModuleList([Block() for _ in range(layers)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def fresh_cache():
    folder = tempfile.mkdtemp(prefix="inductor_cache_")
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = folder
    torch._dynamo.reset()
    return folder


def timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--layers", type=int, default=2)
    a = ap.parse_args()
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import irscope
    from irscope.check_backend import _backend

    torch.manual_seed(0)
    x = torch.randn(1, 16, 64)
    program = torch.export.export(Decoder(a.layers).eval(), (x,))
    _, compile_fn = _backend(a.backend)

    def whole():
        gm = program.module()
        with torch.no_grad():
            compile_fn(gm, [x])(x)

    def analyze():
        whole()
        gm = program.module()
        gm64 = copy.deepcopy(gm).to(torch.float64)
        with torch.no_grad():
            torch.fx.Interpreter(gm).run(x)
            torch.fx.Interpreter(gm64).run(x.double())

    def check():
        report = irscope.check_backend(program, backend=a.backend)
        assert report.ok, report.summary()

    rows = []
    for name, fn in (("whole", whole), ("analyze", analyze), ("check", check)):
        cache = fresh_cache()
        rows.append((name, timed(fn)))
        shutil.rmtree(cache, ignore_errors=True)
    base = rows[0][1]
    print(f"{a.layers}-layer decoder, backend {a.backend}, {os.cpu_count()} cores")
    for name, seconds in rows:
        print(f"  {name:<8} {seconds:8.1f} s  {seconds / base:5.2f}x whole")


if __name__ == "__main__":
    main()
