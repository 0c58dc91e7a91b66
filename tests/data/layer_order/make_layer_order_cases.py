"""Decoders drawn in the order they run: three small models written the way real ones are, each
exported twice, as torch.export.save writes a .pt2 and as pytorch-ir's extract_ir writes JSON:

  llama_decoder  3 layers: rotary half-rotation (slice, neg, cat) whose cos/sin rows the model's own
                 forward computes per layer, grouped-query attention, a KV cache per layer given as
                 inputs and concatenated in the model's forward, the residual stream scaled between
                 layers there too (what nn_module_stack records in the model, not in a layer).
  moe_decoder    3 layers: a dense first layer, then MoE layers with 4 experts, a top-2 router whose
                 weights are scattered into a zeros_like, one-hot expert counts, index_add_ of each
                 expert's tokens, and a shared expert; KV cache inputs per layer.
  gpt2_style     2 blocks h.0, h.1 with wte/wpe, fused c_attn split in three, ln_f, tied lm_head.

The tests check that layer i+1 is drawn wholly below layer i, in both files of each model
(tests/modules/test_layer_order.cpp, tests/widgets/test_module_view.cpp).

Run with the venv that has torch 2.13.0+cpu and pytorch-ir (README: Building against your own
PyTorch):  build-torch2/venv/bin/python tests/data/layer_order/make_layer_order_cases.py
"""
import json
import os
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "real"))
import make_real_exports as real  # noqa: E402 - the same capture of the ExportedProgram pytorch-ir made

warnings.filterwarnings("ignore")
D, HEADS, KV_HEADS, VOCAB, PAST, SEQ = 32, 4, 2, 64, 3, 4
HEAD = D // HEADS


class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d) + 0.1 * torch.randn(d))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(D, HEADS * HEAD, bias=False)
        self.k_proj = nn.Linear(D, KV_HEADS * HEAD, bias=False)
        self.v_proj = nn.Linear(D, KV_HEADS * HEAD, bias=False)
        self.o_proj = nn.Linear(HEADS * HEAD, D, bias=False)

    def forward(self, x, cos, sin, past_k, past_v):
        b, t, _ = x.shape
        q = self.q_proj(x).view(b, t, HEADS, HEAD).transpose(1, 2)
        k = self.k_proj(x).view(b, t, KV_HEADS, HEAD).transpose(1, 2)
        v = self.v_proj(x).view(b, t, KV_HEADS, HEAD).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)
        k = k.repeat_interleave(HEADS // KV_HEADS, dim=1)
        v = v.repeat_interleave(HEADS // KV_HEADS, dim=1)
        y = F.scaled_dot_product_attention(q, k, v)
        return self.o_proj(y.transpose(1, 2).reshape(b, t, D))


class Mlp(nn.Module):
    def __init__(self, hidden=2 * D):
        super().__init__()
        self.gate_proj = nn.Linear(D, hidden, bias=False)
        self.up_proj = nn.Linear(D, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, D, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Moe(nn.Module):
    def __init__(self, experts=4, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(D, experts, bias=False)
        self.experts = nn.ModuleList([Mlp(D) for _ in range(experts)])
        self.shared_experts = Mlp(D)

    def forward(self, x):
        b, t, d = x.shape
        flat = x.reshape(-1, d)
        logits = self.gate(flat)
        weights, chosen = torch.topk(logits.softmax(-1), self.top_k, dim=-1)
        routing = torch.zeros_like(logits).scatter(1, chosen, weights)
        counts = F.one_hot(chosen, len(self.experts)).sum(dim=(0, 1))
        out = torch.zeros_like(flat)
        rows = torch.arange(flat.shape[0])  # every token, weighted by its routing (0 where not chosen):
        for e, expert in enumerate(self.experts):  # a static graph, as a meta-device export needs
            out = out.index_add(0, rows, expert(flat[rows]) * routing[rows, e:e + 1])
        return (out + self.shared_experts(flat)).reshape(b, t, d), counts


class DecoderLayer(nn.Module):
    def __init__(self, moe=False):
        super().__init__()
        self.input_layernorm = RMSNorm(D)
        self.self_attn = Attention()
        self.post_attention_layernorm = RMSNorm(D)
        self.mlp = Moe() if moe else Mlp()

    def forward(self, x, cos, sin, past_k, past_v):
        x = x + self.self_attn(self.input_layernorm(x), cos, sin, past_k, past_v)
        h = self.mlp(self.post_attention_layernorm(x))
        if isinstance(h, tuple):
            h = h[0]
        return x + h


class Decoder(nn.Module):
    """The model's forward does per-layer work: the rotary rows and the residual scaling."""

    def __init__(self, layers, moe_from=None):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, D)
        self.layers = nn.ModuleList(
            [DecoderLayer(moe=moe_from is not None and i >= moe_from) for i in range(layers)])
        self.norm = RMSNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, HEAD, 2).float() / HEAD)),
                             persistent=False)

    def forward(self, ids, positions, *past):
        x = self.embed_tokens(ids)
        for i, layer in enumerate(self.layers):
            freqs = torch.outer(positions.float(), self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            x = layer(x, emb.cos(), emb.sin(), past[2 * i], past[2 * i + 1]) * 1.0
        return self.lm_head(self.norm(x))


class Gpt2Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(D)
        self.c_attn = nn.Linear(D, 3 * D)
        self.c_proj = nn.Linear(D, D)
        self.ln_2 = nn.LayerNorm(D)
        self.c_fc = nn.Linear(D, 4 * D)
        self.mlp_proj = nn.Linear(4 * D, D)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(D, dim=2)
        q, k, v = (z.view(b, t, HEADS, HEAD).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.c_proj(y.transpose(1, 2).reshape(b, t, D))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class Gpt2(nn.Module):
    def __init__(self, layers=2):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, D)
        self.wpe = nn.Embedding(16, D)
        self.h = nn.ModuleList([Gpt2Block() for _ in range(layers)])
        self.ln_f = nn.LayerNorm(D)
        self.lm_head = nn.Linear(D, VOCAB, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, ids):
        x = self.wte(ids) + self.wpe(torch.arange(ids.shape[1]))
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def decoder_inputs(layers):
    ids = torch.randint(0, VOCAB, (1, SEQ))
    positions = torch.arange(PAST, PAST + SEQ)
    past = tuple(torch.randn(1, KV_HEADS, PAST, HEAD) for _ in range(2 * layers))
    return (ids, positions, *past)


CASES = {
    "llama_decoder": lambda: (Decoder(3), decoder_inputs(3)),
    "moe_decoder": lambda: (Decoder(3, moe_from=1), decoder_inputs(3)),
    "gpt2_style": lambda: (Gpt2(2), (torch.randint(0, VOCAB, (1, 6)),)),
}


def main():
    for name, build in CASES.items():
        torch.manual_seed(real.case_seed(name))
        model, inputs = build()
        model.eval()
        with torch.no_grad():
            ir, ep = real.extract(model, inputs, strict=False)
        real.save_ir_json(ir, os.path.join(HERE, name + ".json"), [], name)
        torch.export.save(ep, os.path.join(HERE, name + ".pt2"))
        print(f"written  {name}: {len(ir.nodes)} nodes")


if __name__ == "__main__":
    main()
