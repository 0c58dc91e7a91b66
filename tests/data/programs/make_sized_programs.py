"""torch.export programs that compute with their sizes, as real models do,
saved by PyTorch 2.13's own torch.export.save beside make_programs.py's: an
attention with explicit head reshapes (view(B * H, L, D // H)) scaled by
L ** -0.5, mean pooling that divides by a length (y * (1 / x.shape[1])),
first halves and arange(L) / L positions, a U-Net that upsamples to
(2 * H, 2 * W), a KV cache read up to a position taken with .item() behind
torch._check, and a MoE layer that gathers each expert's tokens with nonzero.

Every case is exported with dynamic dims and run by its module at the
example's size and at another one (NAME.inputs_b.pt, NAME.expected_b.pt), so
a run that used the export-time hint instead of the actual size fails.
Cases with refused inputs write NAME.refused_<why>.pt and list them in
refused.json: {"NAME.refused_<why>.pt": "words the refusal must contain"}.

Adds its cases to manifest.json (make_programs.py's format), replacing
entries of the same name and keeping the others.
  build-torch2/venv/bin/python tests/data/programs/make_sized_programs.py [OUTDIR]
Every case is seeded by its name, so a rerun writes the same programs.
"""
import json
import math
import os
import sys
import warnings

import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_programs import Manifest, named, save_outputs_at_two_sizes, seed, signature_names  # noqa: E402

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))


class HeadReshapeAttention(nn.Module):
    """Self-attention written with explicit reshapes (GPT-2 / BERT style):
    heads folded into the batch, scores scaled by the sequence length."""

    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        B, L, D = x.shape
        H = self.heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)

        def fold(t):
            return t.reshape(B, L, H, D // H).transpose(1, 2).reshape(B * H, L, D // H)

        q, k, v = fold(q), fold(k), fold(v)
        scores = torch.bmm(q, k.transpose(1, 2)) * L ** -0.5
        a = torch.bmm(scores.softmax(-1), v).view(B, H, L, D // H).transpose(1, 2).reshape(B, L, D)
        return self.out(a) / math.sqrt(D)


class MeanPoolHead(nn.Module):
    """A classifier over a variable-length sequence: the sum of its tokens
    times the length's reciprocal, plus a length feature."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)
        self.cls = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.tanh(self.proj(x))
        pooled = h.sum(1) * (1.0 / x.shape[1])
        return self.cls(pooled) + x.shape[1] // 3 - (x.shape[1] % 3) * 0.25


class HalvesAndPositions(nn.Module):
    """Positions as arange(L) / L added to the input; the first and second
    halves of the sequence through separate projections."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = nn.Linear(8, 8)

    def forward(self, x):
        L = x.shape[1]
        pos = torch.arange(L, dtype=torch.float32) / L
        x = x + pos[None, :, None]
        first, second = x[:, : L // 2], x[:, L // 2 :]
        return self.a(first).sum(1) + self.b(second).mean(1) * torch.sym_float(L // 2)


class TinyUNet(nn.Module):
    """One level of a U-Net: down by pooling, up by interpolating to twice the
    pooled size, the skip concatenated."""

    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.mid = nn.Conv2d(8, 8, 3, padding=1)
        self.dec = nn.Conv2d(16, 4, 3, padding=1)

    def forward(self, x):
        e = torch.relu(self.enc(x))
        m = torch.relu(self.mid(F.max_pool2d(e, 2)))
        H, W = m.shape[2], m.shape[3]
        up = F.interpolate(m, size=(2 * H, 2 * W), mode="bilinear", align_corners=False)
        return self.dec(torch.cat([up, e], dim=1))


class KVCacheRead(nn.Module):
    """Decoding reads the cache up to a position held in a tensor: .item(),
    checked against the cache's length as models do with torch._check."""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(16, 16, bias=False)

    def forward(self, x, cache, position):
        n = position.item()
        torch._check(n >= 1)
        torch._check(n <= cache.shape[1])
        keys = cache[:, :n]
        scores = torch.einsum("bd,bnd->bn", self.q(x), keys) / math.sqrt(16)
        return torch.einsum("bn,bnd->bd", scores.softmax(-1), keys)


class NonzeroMoE(nn.Module):
    """A top-1 MoE layer that gathers each expert's tokens with nonzero and
    scatters their outputs back with index_add (Switch / Mixtral style)."""

    def __init__(self, dim=16, experts=4):
        super().__init__()
        self.gate = nn.Linear(dim, experts, bias=False)
        self.experts = nn.ModuleList(nn.Sequential(nn.Linear(dim, 32), nn.SiLU(), nn.Linear(32, dim))
                                     for _ in range(experts))

    def forward(self, x):
        tokens = x.reshape(-1, x.shape[-1])
        probs = self.gate(tokens).softmax(-1)
        weight, choice = probs.max(-1)
        out = torch.zeros_like(tokens)
        for e, expert in enumerate(self.experts):
            idx = torch.nonzero(choice == e).squeeze(-1)
            routed = expert(tokens[idx]) * weight[idx, None]
            out = out.index_add(0, idx, routed)
        return out.reshape(x.shape)


def cases():
    """(name, traits, build): build() -> (module, args, dynamic_shapes, second args, {refused name: (args, says)})."""
    batch, seq = Dim("batch", min=1, max=8), Dim("seq", min=2, max=64)
    return [
        ("sized_head_attention", ["dynamic_shapes", "symbolic", "attention"],
         lambda: (HeadReshapeAttention(), (torch.randn(2, 6, 32),), {"x": {0: batch, 1: seq}},
                  (torch.randn(3, 11, 32),),
                  {"long": ((torch.randn(1, 65, 32),), "[2, 64]")})),
        ("sized_mean_pool", ["dynamic_shapes", "symbolic"],
         lambda: (MeanPoolHead(), (torch.randn(2, 5, 16),), {"x": {0: batch, 1: seq}}, (torch.randn(4, 13, 16),),
                  {})),
        ("sized_halves_positions", ["dynamic_shapes", "symbolic"],
         lambda: (HalvesAndPositions(), (torch.randn(2, 8, 8),), {"x": {1: 2 * Dim("half", min=2, max=32)}},
                  (torch.randn(2, 14, 8),), {"odd": ((torch.randn(2, 13, 8),), "13 at dim 1 is 2*s")})),
        ("sized_unet_upsample", ["dynamic_shapes", "symbolic", "cnn"],
         lambda: (TinyUNet(), (torch.randn(1, 3, 8, 12),),
                  {"x": {2: 2 * Dim("half_h", min=2, max=32), 3: 2 * Dim("half_w", min=2, max=32)}},
                  (torch.randn(1, 3, 10, 6),),
                  {"odd": ((torch.randn(1, 3, 9, 12),), "9 at dim 2 is 2*s")})),
        ("sized_kv_cache_item", ["data_dependent", "symbolic", "decoder"],
         lambda: (KVCacheRead(), (torch.randn(2, 16), torch.randn(2, 10, 16), torch.tensor(4)),
                  {"x": None, "cache": {1: Dim("cache_len", min=2, max=128)}, "position": None},
                  (torch.randn(2, 16), torch.randn(2, 24, 16), torch.tensor(17)),
                  {"position_zero": ((torch.randn(2, 16), torch.randn(2, 10, 16), torch.tensor(0)), "u0 >= 1"),
                   "past_cache": ((torch.randn(2, 16), torch.randn(2, 10, 16), torch.tensor(12)), "u0 <=")})),
        ("sized_nonzero_moe", ["data_dependent", "symbolic", "moe"],
         lambda: (NonzeroMoE(), (torch.randn(2, 5, 16),), {"x": {1: seq}}, (torch.randn(2, 9, 16),), {})),
    ]


def main():
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(1)
    manifest = Manifest(outdir)
    refused_path = os.path.join(outdir, "refused.json")
    refused_all = json.load(open(refused_path)) if os.path.exists(refused_path) else {}
    for name, traits, build in cases():
        seed(name)
        model, args, dynamic_shapes, args_b, refused = build()
        model.eval()
        ep = torch.export.export(model, args, dynamic_shapes=dynamic_shapes, strict=False)
        inputs, outputs = signature_names(ep)
        torch.export.save(ep, os.path.join(outdir, name + ".pt2"))
        save_outputs_at_two_sizes(outdir, name, model, args, args_b, inputs, outputs)
        for why, (bad_args, says) in refused.items():
            file = f"{name}.refused_{why}.pt"
            torch.save(named(inputs, bad_args), os.path.join(outdir, file))
            refused_all[file] = says
        manifest.add(name, traits, inputs, outputs)
        print(f"written  {name}")
    manifest.save()
    with open(refused_path, "w") as f:
        json.dump(dict(sorted(refused_all.items())), f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
