"""torch.export programs with the traits pytorch-ir's JSON cannot hold, saved by
PyTorch 2.13's own torch.export.save: PT2E quantization (torchao's X86
quantizer, static and dynamic), control flow (cond, while_loop, scan, map),
autocast and no_grad regions, dynamic shapes, float16 and bfloat16, an
explicit None, a custom op, and archives with a part removed or broken.

Writes, for each case NAME:
  NAME.pt2           torch.export.save of the program (its sample inputs inside)
  NAME.expected.pt   {graph output name: tensor}: the module's own outputs on the
                     sample inputs (the quantized module's, for PT2E: the fx
                     GraphModule convert_pt2e returns, which calls PyTorch's own
                     quantized_decomposed ops)
  NAME.inputs_b.pt   a second input set ({graph input name: tensor}), where the
                     case has one (the other branch of a cond, another size of
                     a dynamic dim), with NAME.expected_b.pt
  NAME.refused_*.pt  inputs a dynamic-shape program must refuse before running
                     (a size outside its Dim's range, a static dim changed)
and manifest.json: [{"name", "traits", "inputs": [graph input names],
"outputs": [graph output names]}].

Damaged archives (damaged_*.pt2) are copies of mlp_float.pt2 with one record
removed or broken; they have no expected outputs.

Run with PyTorch 2.13.0+cpu and torchao in a venv under the build tree:
  build-torch2/venv/bin/pip install torchao
  build-torch2/venv/bin/python tests/data/programs/make_programs.py [OUTDIR]
Every case is seeded by its name, so a rerun writes the same programs.
"""
import json
import os
import sys
import warnings
import zipfile
import zlib

import torch
from torch import nn

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))


def seed(name):
    torch.manual_seed(zlib.crc32(name.encode()))


# ---------------------------------------------------------------- models


class MLP(nn.Module):
    def __init__(self, dims=(16, 32, 8)):
        super().__init__()
        self.fc1 = nn.Linear(dims[0], dims[1])
        self.fc2 = nn.Linear(dims[1], dims[2])

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.conv2(x))
        return self.fc(torch.flatten(self.pool(x), 1))


class DecoderBlock(nn.Module):
    """Pre-norm attention and MLP, as a decoder layer has them (no rotary)."""

    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.up = nn.Linear(dim, 2 * dim)
        self.down = nn.Linear(2 * dim, dim)

    def forward(self, x):
        b, s, d = x.shape
        h = self.norm1(x)
        q = self.q_proj(h).view(b, s, self.heads, d // self.heads).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.heads, d // self.heads).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.heads, d // self.heads).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, dim=-1) @ v
        x = x + self.o_proj(a.transpose(1, 2).reshape(b, s, d))
        return x + self.down(torch.relu(self.up(self.norm2(x))))


class ClampExplicitNone(nn.Module):
    """clamp(min=None, max=tensor): pytorch-ir's JSON cannot say which bound the tensor is."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.register_buffer("hi", torch.full((8,), 0.25))

    def forward(self, x):
        return torch.clamp(self.lin(x), min=None, max=self.hi)


class CondBranches(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        def positive(x):
            return torch.relu(self.lin(x)) * 2.0

        def negative(x):
            return self.lin(x).sigmoid() - 1.0

        return torch.cond(x.sum() > 0, positive, negative, (x,))


class WhileLoopCount(nn.Module):
    def forward(self, x):
        def cond_fn(i, acc):
            return i < 5

        def body_fn(i, acc):
            return i + 1, acc * 0.5 + 1.0

        _, out = torch._higher_order_ops.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))
        return out


class ScanCumulative(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, xs):
        from torch._higher_order_ops.scan import scan

        def step(carry, x):
            new = torch.tanh(self.lin(x) + carry)
            return new, new * 2

        last, ys = scan(step, torch.zeros(2, 4), xs)
        return last + ys.sum(0)


class MapRows(nn.Module):
    def forward(self, xs, y):
        from torch._higher_order_ops.map import map as hop_map

        return hop_map(lambda x, y: x.exp() + y, xs, y)


class AutocastRegion(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(16, 16)
        self.out = nn.Linear(16, 4)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.lin(x)
        return self.out(h.float())


class NoGradRegion(nn.Module):
    """Hugging Face's rotary embeddings compute their tables under no_grad."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, 8, 2).float() / 8)))

    def forward(self, x):
        with torch.no_grad():
            t = torch.arange(x.shape[1], dtype=torch.float32)
            freqs = torch.outer(t, self.inv_freq)
            cos = torch.cat([freqs, freqs], dim=-1).cos()
        return self.lin(x) * cos


class TinyLlama(nn.Module):
    """Two decoder layers with RMSNorm, rotary half-rotation and a causal mask."""

    class Layer(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.heads = heads
            self.input_norm = nn.RMSNorm(dim)
            self.q_proj = nn.Linear(dim, dim, bias=False)
            self.k_proj = nn.Linear(dim, dim, bias=False)
            self.v_proj = nn.Linear(dim, dim, bias=False)
            self.o_proj = nn.Linear(dim, dim, bias=False)
            self.post_norm = nn.RMSNorm(dim)
            self.gate = nn.Linear(dim, 2 * dim, bias=False)
            self.up = nn.Linear(dim, 2 * dim, bias=False)
            self.down = nn.Linear(2 * dim, dim, bias=False)

        @staticmethod
        def rotate_half(x):
            half = x.shape[-1] // 2
            return torch.cat([-x[..., half:], x[..., :half]], dim=-1)

        def forward(self, x, cos, sin):
            b, s, d = x.shape
            hd = d // self.heads
            h = self.input_norm(x)
            q = self.q_proj(h).view(b, s, self.heads, hd).transpose(1, 2)
            k = self.k_proj(h).view(b, s, self.heads, hd).transpose(1, 2)
            v = self.v_proj(h).view(b, s, self.heads, hd).transpose(1, 2)
            q = q * cos + self.rotate_half(q) * sin
            k = k * cos + self.rotate_half(k) * sin
            a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.o_proj(a.transpose(1, 2).reshape(b, s, d))
            h = self.post_norm(x)
            return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))

    def __init__(self, vocab=64, dim=32, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([TinyLlama.Layer(dim, heads) for _ in range(layers)])
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        hd = dim // heads
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd)), persistent=False)

    def forward(self, ids):
        x = self.embed(ids)
        t = torch.arange(ids.shape[1], dtype=torch.float32)
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        cos, sin = emb.cos(), emb.sin()
        for layer in self.layers:
            x = layer(x, cos, sin)
        return self.lm_head(self.norm(x))


@torch.library.custom_op("irscope_test::scaled_add", mutates_args=())
def scaled_add(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    return x + alpha * y


@scaled_add.register_fake
def _(x, y, alpha):
    return torch.empty_like(x)


class CustomOp(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return torch.relu(torch.ops.irscope_test.scaled_add(self.lin(x), x, 0.5))


# ---------------------------------------------------------------- export


def quantize_pt2e(model, args, dynamic):
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    ep = torch.export.export(model, args, strict=False)
    quantizer = xiq.X86InductorQuantizer()
    quantizer.set_global(xiq.get_default_x86_inductor_quantization_config(is_dynamic=dynamic))
    prepared = prepare_pt2e(ep.module(), quantizer)
    for _ in range(4):  # calibration on inputs like the example's
        prepared(*[a + 0.1 * torch.randn_like(a) for a in args])
    prepared(*args)
    converted = convert_pt2e(prepared)
    return torch.export.export(converted, args, strict=False), converted


def signature_names(ep):
    from torch.export.graph_signature import InputKind, OutputKind

    inputs = [s.arg.name for s in ep.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    outputs = [s.arg.name for s in ep.graph_signature.output_specs if s.kind == OutputKind.USER_OUTPUT]
    return inputs, outputs


class Manifest:
    """manifest.json of OUTDIR: cases written by another script stay; a case
    written again replaces its entry."""

    def __init__(self, outdir):
        self.path = os.path.join(outdir, "manifest.json")
        self.cases = json.load(open(self.path)) if os.path.exists(self.path) else []

    def add(self, name, traits, inputs, outputs):
        self.cases = [m for m in self.cases if m["name"] != name]
        self.cases.append({"name": name, "traits": traits, "inputs": inputs, "outputs": outputs})

    def save(self):
        with open(self.path, "w") as f:
            json.dump(self.cases, f, indent=2)
            f.write("\n")


def save_outputs_at_two_sizes(outdir, name, model, args, args_b, inputs, outputs):
    """NAME.expected.pt (the module's outputs on the example), and at the
    other size NAME.inputs_b.pt / NAME.expected_b.pt."""
    with torch.no_grad():
        torch.save(named(outputs, model(*args)), os.path.join(outdir, name + ".expected.pt"))
        torch.save(named(inputs, args_b), os.path.join(outdir, name + ".inputs_b.pt"))
        torch.save(named(outputs, model(*args_b)), os.path.join(outdir, name + ".expected_b.pt"))


def named(names, values):
    if isinstance(values, torch.Tensor):
        values = (values,)
    return {n: v.detach().clone() for n, v in zip(names, values)}


def cases():
    """(name, traits, build) where build() -> (module, args, dynamic_shapes, second args or None, quantize)."""
    return [
        ("pt2e_static_cnn", ["pt2e", "static", "cnn"],
         lambda: (SmallCNN(), (torch.randn(2, 3, 16, 16),), None, None, "static")),
        ("pt2e_static_decoder", ["pt2e", "static", "decoder"],
         lambda: (DecoderBlock(), (torch.randn(1, 6, 32),), None, None, "static")),
        ("pt2e_dynamic_mlp", ["pt2e", "dynamic", "mlp"],
         lambda: (MLP((16, 32, 8)), (torch.randn(4, 16),), None, None, "dynamic")),
        ("pt2e_static_mlp", ["pt2e", "static", "mlp"],
         lambda: (MLP((16, 32, 8)), (torch.randn(4, 16),), None, None, "static")),
        ("mlp_float", ["float32"], lambda: (MLP(), (torch.randn(3, 16),), None, None, None)),
        ("clamp_explicit_none", ["explicit_none"],
         lambda: (ClampExplicitNone(), (torch.randn(4, 8),), None, None, None)),
        ("cond_branches", ["cond"],
         lambda: (CondBranches(), (torch.rand(3, 8) + 0.1,), None, (-torch.rand(3, 8) - 0.1,), None)),
        ("while_loop_count", ["while_loop"], lambda: (WhileLoopCount(), (torch.randn(3, 4),), None, None, None)),
        ("scan_cumulative", ["scan"], lambda: (ScanCumulative(), (torch.randn(5, 2, 4),), None, None, None)),
        ("map_rows", ["map"], lambda: (MapRows(), (torch.randn(3, 4), torch.randn(4)), None, None, None)),
        ("autocast_region", ["autocast"], lambda: (AutocastRegion(), (torch.randn(2, 16),), None, None, None)),
        ("no_grad_region", ["no_grad"], lambda: (NoGradRegion(), (torch.randn(2, 6, 8),), None, None, None)),
        ("dynamic_batch_mlp", ["dynamic_shapes"],
         lambda: (MLP(), (torch.randn(3, 16),),
                  {"x": {0: torch.export.Dim("batch", min=1, max=64)}}, (torch.randn(7, 16),), None)),
        ("dynamic_seq_llama", ["dynamic_shapes", "decoder", "rotary"],
         lambda: (TinyLlama(), (torch.randint(0, 64, (1, 6)),),
                  {"ids": {1: torch.export.Dim("seq", min=2, max=256)}}, (torch.randint(0, 64, (1, 11)),), None)),
        ("float16_mlp", ["float16"],
         lambda: (MLP().half(), (torch.randn(3, 16).half(),), None, None, None)),
        ("bfloat16_mlp", ["bfloat16"],
         lambda: (MLP().bfloat16(), (torch.randn(3, 16).bfloat16(),), None, None, None)),
        ("custom_op", ["custom_op"], lambda: (CustomOp(), (torch.randn(2, 8),), None, None, None)),
    ]


def damage(outdir):
    """Copies of mlp_float.pt2 with one record removed or broken."""
    src = os.path.join(outdir, "mlp_float.pt2")
    with zipfile.ZipFile(src) as z:
        records = [(i, z.read(i)) for i in z.infolist()]
    variants = {
        "damaged_weight_file": lambda n, b: None if n.endswith("/data/weights/weight_0") else b,
        "damaged_weights_config": lambda n, b: None if n.endswith("_weights_config.json") else b,
        "damaged_config_json": lambda n, b: b[: len(b) // 2] if n.endswith("_weights_config.json") else b,
    }
    for name, change in variants.items():
        path = os.path.join(outdir, name + ".pt2")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as out:
            for info, data in records:
                data = change(info.filename, data)
                if data is not None:
                    out.writestr(info, data)
        print(f"written  {name}")


def main():
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    manifest = []
    for name, traits, build in cases():
        seed(name)
        model, args, dynamic_shapes, args_b, quantize = build()
        model.eval()
        if quantize:
            ep, module = quantize_pt2e(model, args, quantize == "dynamic")
        else:
            ep = torch.export.export(model, args, dynamic_shapes=dynamic_shapes, strict=False)
            module = model
        inputs, outputs = signature_names(ep)
        torch.export.save(ep, os.path.join(outdir, name + ".pt2"))
        with torch.no_grad():
            torch.save(named(outputs, module(*args)), os.path.join(outdir, name + ".expected.pt"))
            if args_b is not None:
                torch.save(named(inputs, args_b), os.path.join(outdir, name + ".inputs_b.pt"))
                torch.save(named(outputs, module(*args_b)), os.path.join(outdir, name + ".expected_b.pt"))
        if name == "dynamic_seq_llama":
            torch.save({inputs[0]: torch.randint(0, 64, (1, 300))}, os.path.join(outdir, name + ".refused_long.pt"))
            torch.save({inputs[0]: torch.randint(0, 64, (2, 6))}, os.path.join(outdir, name + ".refused_batch.pt"))
        manifest.append({"name": name, "traits": traits, "inputs": inputs, "outputs": outputs})
        print(f"written  {name}")
    damage(outdir)
    with open(os.path.join(outdir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
