"""Programs quantized the way torchao recommends (quantize_ with
Int8WeightOnlyConfig, and Int8DynamicActivationInt8WeightConfig), exported
and saved by PyTorch 2.13's torch.export.save beside make_programs.py's.

Each quantized weight is saved pickled, as the tensor subclass
torchao.quantization.Int8Tensor (qdata, scale, zero_point, block_size), and
the graph reads its parts with export.access_subclass_inner_tensor, then
computes with aten._int_mm (dynamic activations) or mm on the dequantized
weight (weight-only) and torchao.choose_qparams_affine / quantize_affine.

For each NAME it writes NAME.pt2 (the quantized program), NAME.float.pt2 (the
float program it was quantized from, the same weights before quantize_, for
the quantization debugger), NAME.expected.pt and, at another size of its
dynamic dims, NAME.inputs_b.pt / NAME.expected_b.pt (the module's outputs),
NAME.intermediates.pt / NAME.intermediates_b.pt (every tensor the exported
program computes, by node name, as torch.fx runs it), NAME.weights.json
({state_dict name: {"sqnr_db": torchao's compute_error of the dequantized
weight against the float one, "block_size": [...]}}) with NAME.dequantized.pt
(each quantized weight's own dequantize()), and adds NAME to manifest.json
(make_programs.py's format).

Dynamic int8 activations round x / scale where the row's largest element
lands exactly on 127.5: a last-bit difference before it (another libtorch's
RMSNorm reduction) flips that element to -127. cli.pt2_programs accepts such
a mismatch on Debian's libtorch only when irscope, given the intermediates,
names it a flipped decision.

  build-torch2/venv/bin/python tests/data/programs/make_torchao_programs.py [OUTDIR]
(the venv needs torchao: pip install torchao==0.18.0). Seeded by name.
"""
import copy
import json
import os
import sys
import warnings

import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_programs import Manifest, save_outputs_at_two_sizes, seed, signature_names  # noqa: E402

warnings.filterwarnings("ignore")
from torchao.quantization import (  # noqa: E402
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    quantize_,
)
from torchao.quantization.utils import compute_error  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class GeluMLP(nn.Module):
    """A transformer MLP: up-projection, GELU, down-projection."""

    def __init__(self, dim=32, hidden=64):
        super().__init__()
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x):
        return self.down(F.gelu(self.up(x)))


class LlamaStyleBlock(nn.Module):
    """A pre-norm decoder block as Llama writes it: RMSNorm, causal attention
    with separate q/k/v/o projections (no bias) in its "eager" form (scores,
    mask, softmax: the same kernels on every libtorch, so the int8 rounding of
    the activations after it is decided alike), SwiGLU MLP; every linear is
    one torchao quantizes."""

    def __init__(self, dim=32, heads=4, hidden=64):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.RMSNorm(dim)
        self.norm2 = nn.RMSNorm(dim)
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        B, L, D = x.shape
        h = self.norm1(x)

        def heads(t):
            return t.view(B, L, self.heads, D // self.heads).transpose(1, 2)

        q, k, v = heads(self.q(h)), heads(self.k(h)), heads(self.v(h))
        scores = q @ k.transpose(-1, -2) * (D // self.heads) ** -0.5
        causal = torch.ones(L, L, dtype=torch.bool, device=x.device).tril()
        a = scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v
        x = x + self.o(a.transpose(1, 2).reshape(B, L, D))
        h = self.norm2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


def cases():
    """(name, traits, build): build() -> (module, config, args, dynamic_shapes, second args)."""
    batch, seq = Dim("batch", min=2, max=16), Dim("seq", min=2, max=64)
    return [
        ("torchao_int8_weight_only_mlp", ["torchao", "quantized", "dynamic_shapes", "mlp"],
         lambda: (GeluMLP(), Int8WeightOnlyConfig(), (torch.randn(4, 32),), {"x": {0: batch}},
                  (torch.randn(7, 32),))),
        ("torchao_int8_dynamic_decoder", ["torchao", "quantized", "dynamic_shapes", "decoder"],
         lambda: (LlamaStyleBlock(), Int8DynamicActivationInt8WeightConfig(), (torch.randn(2, 6, 32),),
                  {"x": {1: seq}}, (torch.randn(2, 11, 32),))),
    ]


def intermediates(ep, args):
    """Every tensor the program computes, by node name."""
    values = {}

    class Capture(torch.fx.Interpreter):
        def run_node(self, n):
            result = super().run_node(n)
            if isinstance(result, torch.Tensor):
                values[n.name] = result.detach().clone()
            return result

    with torch.no_grad():
        Capture(ep.module()).run(*args)
    return values


def main():
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    manifest = Manifest(outdir)
    for name, traits, build in cases():
        seed(name)
        model, config, args, dynamic_shapes, args_b = build()
        model.eval()
        float_model = copy.deepcopy(model)
        quantize_(model, config)
        ep = torch.export.export(model, args, dynamic_shapes=dynamic_shapes, strict=False)
        inputs, outputs = signature_names(ep)
        torch.export.save(ep, os.path.join(outdir, name + ".pt2"))
        float_ep = torch.export.export(float_model, args, dynamic_shapes=dynamic_shapes, strict=False)
        torch.export.save(float_ep, os.path.join(outdir, name + ".float.pt2"))
        save_outputs_at_two_sizes(outdir, name, model, args, args_b, inputs, outputs)
        torch.save(intermediates(ep, args), os.path.join(outdir, name + ".intermediates.pt"))
        torch.save(intermediates(ep, args_b), os.path.join(outdir, name + ".intermediates_b.pt"))
        dequantized, weights = {}, {}
        float_state = float_model.state_dict()
        for key, w in model.state_dict().items():
            if hasattr(w, "dequantize") and type(w) is not torch.Tensor and type(w) is not nn.Parameter:
                dequantized[key] = w.dequantize().detach().clone()
                weights[key] = {"sqnr_db": float(compute_error(float_state[key], dequantized[key])),
                                "block_size": list(w.block_size), "type": type(w).__name__}
        torch.save(dequantized, os.path.join(outdir, name + ".dequantized.pt"))
        with open(os.path.join(outdir, name + ".weights.json"), "w") as f:
            json.dump(weights, f, indent=2)
            f.write("\n")
        manifest.add(name, traits, inputs, outputs)
        print(f"written  {name}")
    manifest.save()


if __name__ == "__main__":
    main()
