"""A population of layout test graphs: random configurations of the model
families users open, built as real PyTorch modules and written by pytorch-ir's
own extract_ir (meta device, no values), so the graphs are what users have,
not imitations.

Families (each configuration drawn from the seed):
  llama    decoder LLMs: 1-16 layers, heads, grouped-query attention (kv heads
           dividing heads), RoPE or not, a KV cache in and out or none, tied
           or separate lm_head;
  moe      MoE decoders: 1-4 layers, 2-64 routed experts, 0-2 dense first
           layers, 0-2 shared experts, softmax or sigmoid routers with grouped
           top-k (DeepSeek-V3's n_group/topk_group), experts applied as a
           loop or stacked into one einsum;
  cnn      CNNs: residual stages (ResNet), dense blocks (DenseNet concat),
           multi-output heads (classification plus box regression plus an
           auxiliary head);
  encdec   encoder-decoder transformers: encoder self-attention, decoder
           self-attention with a causal mask and cross-attention over the
           encoder's memory.
  llama_rot decode steps of Llama decoders as served: rotary half-rotation
           spelled slice, neg, cat, its cos/sin rows computed per layer in the
           model's forward, a KV cache per layer read and extended;
  moe_step MoE decode steps: 2-3 layers, 4-32 experts, a top-k router whose
           weights are scattered into a zeros_like, one-hot expert counts,
           experts dispatched by index_add or a weighted loop, shared experts,
           dense first layers, a KV cache per layer;
  vit      vision transformers: patch embedding convolution, class token,
           learned positions, pre-norm encoder layers;
  unet     U-Nets: convolutions down, transposed convolutions up, each
           level's features concatenated back in (the skips);
  bert     BERT encoders as Hugging Face writes them: separate q, k, v
           projections with biases, post-norm layers, an attention mask;
  inception GoogLeNet-style CNNs: each block's input read by four branches
           of convolutions with batch norm, concatenated; an auxiliary head.
  llama_hf Llama decoders written as Hugging Face's modeling_llama writes
           them: the rotary cos/sin made once in the model from position_ids
           (a matmul with inv_freq) and handed to every layer, RoPE applied
           to q and to k separately (unsqueeze, rotate_half by slices, neg,
           cat), RMSNorm computed in float32 and cast back, GQA by repeat_kv
           (expand, reshape), eager attention (float32 softmax, additive
           mask) or SDPA, a KV cache or none.
The default --families are the first four (what the committed fixtures
were drawn from); bench/run_layout_population.sh draws the first eight
(FAMILIES= adds bert and inception, shapes no fixture or tuning used).
Only graphs of MIN-MAX nodes are kept (configurations outside are drawn again).
bench/run_layout_population.sh lays each one out with irscope and with dot;
tests/data/layout/generated/ holds 30 of them as fixtures.

Run with the venv that has torch 2.13.0+cpu and pytorch-ir (README: Building
against your own PyTorch):
    build-py/venv/bin/python bench/make_layout_population.py OUTDIR [--count 200]
        [--seed 1] [--min-nodes 100] [--max-nodes 3000] [--families llama,moe,cnn,encdec]
        [--depth-scale 1]
--depth-scale K draws up to K times as many layers, stages and blocks (1:
up to 16 decoder layers, 4 MoE layers, 4 CNN stages of depth 4, 6+6
encoder-decoder layers). At 1 most graphs have a few hundred nodes; the
population benchmark uses 3 so that they spread to 3,000. K = 1 draws
exactly what it drew before the option existed (the committed fixtures).
Writes OUTDIR/NAME.json and OUTDIR/configs.txt (NAME, node count, configuration).
"""
import argparse
import json
import math
import os
import random
import sys
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch_ir

warnings.filterwarnings("ignore")

DEPTH = 1  # --depth-scale


# ------------------------------------------------------------------ decoder LLM
class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def rotate_half_sliced(x):
    """Hugging Face Llama's spelling: slice, neg, cat."""
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Attention(nn.Module):
    def __init__(self, c, cross=False):
        super().__init__()
        self.h, self.kv, self.d = c["heads"], c["kv_heads"], c["hidden"] // c["heads"]
        self.q_proj = nn.Linear(c["hidden"], self.h * self.d, bias=c.get("bias", False))
        self.k_proj = nn.Linear(c["hidden"], self.kv * self.d, bias=c.get("bias", False))
        self.v_proj = nn.Linear(c["hidden"], self.kv * self.d, bias=c.get("bias", False))
        self.o_proj = nn.Linear(self.h * self.d, c["hidden"], bias=False)
        self.rope = c.get("rope", False) and not cross
        self.sliced = c.get("rotate") == "slice"
        self.sdpa = c.get("sdpa", True)

    def forward(self, x, memory=None, cos=None, sin=None, past=None, causal=True):
        b, s, _ = x.shape
        src = x if memory is None else memory
        q = self.q_proj(x).view(b, s, self.h, self.d).transpose(1, 2)
        k = self.k_proj(src).view(b, src.shape[1], self.kv, self.d).transpose(1, 2)
        v = self.v_proj(src).view(b, src.shape[1], self.kv, self.d).transpose(1, 2)
        if self.rope:
            rot = rotate_half_sliced if self.sliced else rotate_half
            q = q * cos + rot(q) * sin
            k = k * cos + rot(k) * sin
        new = None
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
            new = (k, v)
        if self.kv != self.h:
            k = k.repeat_interleave(self.h // self.kv, dim=1)
            v = v.repeat_interleave(self.h // self.kv, dim=1)
        if self.sdpa:
            o = F.scaled_dot_product_attention(q, k, v, is_causal=causal and past is None and memory is None)
        else:
            w = (q @ k.transpose(-1, -2)) / math.sqrt(self.d)
            o = w.softmax(-1) @ v
        o = self.o_proj(o.transpose(1, 2).reshape(b, s, self.h * self.d))
        return o, new


class GatedMLP(nn.Module):
    def __init__(self, hidden, ff):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, ff, bias=False)
        self.up_proj = nn.Linear(hidden, ff, bias=False)
        self.down_proj = nn.Linear(ff, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class MoE(nn.Module):
    """Routed experts plus shared ones; the router scores with softmax or
    sigmoid (+ correction bias), optionally picks groups first (n_group /
    topk_group), then top-k; experts applied in a loop over all tokens
    weighted by their column of the routing matrix, or stacked (einsum)."""

    def __init__(self, c):
        super().__init__()
        e, h = c["experts"], c["hidden"]
        self.c = c
        self.gate = nn.Linear(h, e, bias=False)
        if c["router"] == "sigmoid":
            self.register_buffer("e_score_correction_bias", torch.zeros(e))
        self.experts = nn.ModuleList(GatedMLP(h, c["expert_ff"]) for _ in range(e))
        self.shared_experts = nn.ModuleList(GatedMLP(h, c["expert_ff"]) for _ in range(c["shared"]))

    def forward(self, x):
        c = self.c
        b, s, h = x.shape
        t = x.reshape(-1, h)
        logits = self.gate(t)
        scores = logits.sigmoid() if c["router"] == "sigmoid" else logits.softmax(-1)
        choose = scores + self.e_score_correction_bias if c["router"] == "sigmoid" else scores
        if c["groups"] > 1:
            g = choose.view(-1, c["groups"], c["experts"] // c["groups"])
            group_scores = g.topk(2 if g.shape[-1] >= 2 else 1, dim=-1)[0].sum(-1)
            keep = group_scores.topk(c["topk_groups"], dim=-1)[1]
            mask = torch.zeros_like(group_scores).scatter_(1, keep, 1.0)
            choose = (g * mask.unsqueeze(-1)).reshape(-1, c["experts"])
        idx = choose.topk(c["top_k"], dim=-1)[1]
        weights = scores.gather(1, idx)
        weights = weights / weights.sum(-1, keepdim=True)
        routing = torch.zeros_like(scores).scatter(1, idx, weights)
        if c.get("dispatch") == "index_add":
            # Each expert's tokens gathered, run, weighted and added back by
            # index (the decode-step kernels' form), with per-expert counts.
            counts = F.one_hot(idx, c["experts"]).sum(dim=(0, 1))
            tokens = torch.arange(t.shape[0]).repeat_interleave(c["top_k"])
            flat_idx = idx.reshape(-1)
            flat_w = weights.reshape(-1, 1)
            out = torch.zeros_like(t)
            for i, ex in enumerate(self.experts):
                sel = (flat_idx == i).to(t.dtype).unsqueeze(-1) * flat_w
                out = out.index_add(0, tokens, ex(t[tokens]) * sel)
            out = out + 0 * counts.sum().to(t.dtype)
        elif c["stacked"]:
            gw = torch.stack([ex.gate_proj.weight for ex in self.experts])
            uw = torch.stack([ex.up_proj.weight for ex in self.experts])
            dw = torch.stack([ex.down_proj.weight for ex in self.experts])
            a = F.silu(torch.einsum("th,efh->tef", t, gw)) * torch.einsum("th,efh->tef", t, uw)
            y = torch.einsum("tef,ehf->teh", a, dw)
            out = (y * routing.unsqueeze(-1)).sum(1)
        else:
            out = torch.zeros_like(t)
            for i, ex in enumerate(self.experts):
                out = out + ex(t) * routing[:, i : i + 1]
        for sh in self.shared_experts:
            out = out + sh(t)
        return out.view(b, s, h)


class DecoderLayer(nn.Module):
    def __init__(self, c, moe):
        super().__init__()
        self.input_layernorm = RMSNorm(c["hidden"])
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c["hidden"])
        self.mlp = MoE(c) if moe else GatedMLP(c["hidden"], c["ff"])

    def forward(self, x, cos, sin, past):
        a, new = self.self_attn(self.input_layernorm(x), cos=cos, sin=sin, past=past)
        x = x + a
        return x + self.mlp(self.post_attention_layernorm(x)), new


class Decoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.embed_tokens = nn.Embedding(c["vocab"], c["hidden"])
        dense = c.get("dense_layers", c["layers"])
        self.layers = nn.ModuleList(DecoderLayer(c, moe=i >= dense) for i in range(c["layers"]))
        self.norm = RMSNorm(c["hidden"])
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)
        if c["tied"]:
            self.lm_head.weight = self.embed_tokens.weight
        if c["rope"]:
            d = c["hidden"] // c["heads"]
            pos = torch.arange(c["max_pos"]).float()[:, None] / (10000 ** (torch.arange(0, d, 2).float() / d))
            self.register_buffer("cos_cached", torch.cat([pos.cos(), pos.cos()], -1), persistent=False)
            self.register_buffer("sin_cached", torch.cat([pos.sin(), pos.sin()], -1), persistent=False)

    def forward(self, input_ids, position_ids, *past):
        x = self.embed_tokens(input_ids)
        cos = sin = None
        if self.c["rope"]:
            cos = self.cos_cached[position_ids].unsqueeze(1)
            sin = self.sin_cached[position_ids].unsqueeze(1)
        cache = []
        for i, layer in enumerate(self.layers):
            p = (past[2 * i], past[2 * i + 1]) if past else None
            x, new = layer(x, cos, sin, p)
            if new is not None:
                cache += list(new)
        logits = self.lm_head(self.norm(x))
        return (logits, *cache) if cache else logits


def decoder_inputs(c):
    s = 1 if c["cache"] else c["seq"]
    ids = torch.zeros(1, s, dtype=torch.long)
    pos = torch.arange(c["past"], c["past"] + s).unsqueeze(0) if c["cache"] else torch.arange(s).unsqueeze(0)
    past = []
    if c["cache"]:
        d = c["hidden"] // c["heads"]
        for _ in range(c["layers"]):
            past += [torch.zeros(1, c["kv_heads"], c["past"], d), torch.zeros(1, c["kv_heads"], c["past"], d)]
    return (ids, pos, *past)


def heads_config(rng, hidden):
    heads = rng.choice([h for h in (2, 4, 8) if hidden % h == 0 and (hidden // h) % 2 == 0])
    kv = rng.choice([k for k in (1, 2, heads) if heads % k == 0])
    return heads, kv


def draw_llama(rng):
    hidden = rng.choice([32, 64, 128])
    heads, kv = heads_config(rng, hidden)
    c = dict(family="llama", layers=rng.randint(1, 16 * DEPTH), hidden=hidden, heads=heads, kv_heads=kv,
             ff=hidden * 2, vocab=rng.choice([64, 128]), rope=rng.random() < 0.7, cache=rng.random() < 0.5,
             tied=rng.random() < 0.3, sdpa=rng.random() < 0.7, bias=rng.random() < 0.3, seq=8, past=7, max_pos=32)
    return c, Decoder(c), decoder_inputs(c)


def draw_moe(rng):
    hidden = rng.choice([32, 64])
    heads, kv = heads_config(rng, hidden)
    layers = rng.randint(1, 4 * DEPTH)
    experts = rng.choice([2, 4, 8, 16, 32, 64])
    groups = rng.choice([g for g in (1, 2, 4, 8) if experts % g == 0 and experts // g >= 1])
    c = dict(family="moe", layers=layers, dense_layers=rng.randint(0, min(2, layers - 1)), hidden=hidden,
             heads=heads, kv_heads=kv, ff=hidden * 2, expert_ff=16, experts=experts,
             shared=rng.randint(0, 2), router=rng.choice(["softmax", "sigmoid"]), groups=groups,
             topk_groups=rng.randint(1, groups), top_k=1, stacked=rng.random() < 0.5, vocab=64,
             rope=rng.random() < 0.8, cache=rng.random() < 0.6, tied=False, sdpa=True, seq=4, past=5, max_pos=32)
    c["top_k"] = rng.randint(1, min(8, (experts // groups) * c["topk_groups"]))
    return c, Decoder(c), decoder_inputs(c)


# ------------------------------------------------------------------ CNNs
class Basic(nn.Module):
    def __init__(self, cin, cout, stride, bn):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=not bn)
        self.bn1 = nn.BatchNorm2d(cout) if bn else nn.Identity()
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=not bn)
        self.bn2 = nn.BatchNorm2d(cout) if bn else nn.Identity()
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        return F.relu(y + (self.downsample(x) if self.downsample is not None else x))


class DenseLayer(nn.Module):
    def __init__(self, cin, growth):
        super().__init__()
        self.norm = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, growth, 3, 1, 1, bias=False)

    def forward(self, feats):
        return self.conv(F.relu(self.norm(torch.cat(feats, 1))))


class DenseBlock(nn.Module):
    def __init__(self, cin, growth, n):
        super().__init__()
        self.layers = nn.ModuleList(DenseLayer(cin + i * growth, growth) for i in range(n))
        self.out_channels = cin + n * growth

    def forward(self, x):
        feats = [x]
        for layer in self.layers:
            feats.append(layer(feats))
        return torch.cat(feats, 1)


class CNN(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        ch = c["width"]
        self.stem = nn.Sequential(nn.Conv2d(3, ch, 3, 1, 1, bias=False), nn.BatchNorm2d(ch), nn.ReLU())
        stages = []
        for i, kind in enumerate(c["stages"]):
            if kind == "res":
                blocks = [Basic(ch, ch * (2 if i else 1), 2 if i else 1, c["bn"])]
                ch = ch * (2 if i else 1)
                blocks += [Basic(ch, ch, 1, c["bn"]) for _ in range(c["depth"] - 1)]
                stages.append(nn.Sequential(*blocks))
            else:
                block = DenseBlock(ch, c["growth"], c["depth"])
                stages.append(nn.Sequential(block, nn.Conv2d(block.out_channels, ch, 1), nn.AvgPool2d(2)))
        self.stages = nn.ModuleList(stages)
        self.classifier = nn.Linear(ch, 10)
        self.heads = c["heads"]
        if "box" in self.heads:
            self.box_head = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, 1), nn.ReLU(), nn.Conv2d(ch, 4, 1))
        if "aux" in self.heads:
            self.aux_head = nn.Linear(c["width"] * (2 if len(c["stages"]) > 1 and c["stages"][1] == "res" else 1), 10)

    def forward(self, x):
        x = self.stem(x)
        outs = []
        aux_in = None
        for i, stage in enumerate(self.stages):
            x = stage(x)
            if i == min(1, len(self.stages) - 1):
                aux_in = x
        outs.append(self.classifier(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)))
        if "box" in self.heads:
            outs.append(self.box_head(x))
        if "aux" in self.heads and aux_in is not None and aux_in.shape[1] == self.aux_head.in_features:
            outs.append(self.aux_head(torch.flatten(F.adaptive_avg_pool2d(aux_in, 1), 1)))
        return tuple(outs) if len(outs) > 1 else outs[0]


def draw_cnn(rng):
    n = rng.randint(1, 4 * DEPTH)
    c = dict(family="cnn", width=rng.choice([8, 16]), stages=[rng.choice(["res", "dense"]) for _ in range(n)],
             depth=rng.randint(1, 4 * DEPTH), growth=rng.choice([4, 8]), bn=rng.random() < 0.8,
             heads=[h for h in ("box", "aux") if rng.random() < 0.5])
    # Each stage halves the image: 32 px take four stages; more need more.
    side = max(32, 2 ** (n + 1))
    return c, CNN(c), (torch.zeros(1, 3, side, side),)


# ------------------------------------------------------------------ encoder-decoder
class EncoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = Attention(c)
        self.norm1 = nn.LayerNorm(c["hidden"])
        self.ff = nn.Sequential(nn.Linear(c["hidden"], c["ff"]), nn.GELU(), nn.Linear(c["ff"], c["hidden"]))
        self.norm2 = nn.LayerNorm(c["hidden"])

    def forward(self, x):
        x = self.norm1(x + self.self_attn(x, causal=False)[0])
        return self.norm2(x + self.ff(x))


class DecoderCrossLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self_attn = Attention(c)
        self.norm1 = nn.LayerNorm(c["hidden"])
        self.cross_attn = Attention(c, cross=True)
        self.norm2 = nn.LayerNorm(c["hidden"])
        self.ff = nn.Sequential(nn.Linear(c["hidden"], c["ff"]), nn.GELU(), nn.Linear(c["ff"], c["hidden"]))
        self.norm3 = nn.LayerNorm(c["hidden"])

    def forward(self, x, memory):
        x = self.norm1(x + self.self_attn(x, causal=True)[0])
        x = self.norm2(x + self.cross_attn(x, memory=memory)[0])
        return self.norm3(x + self.ff(x))


class EncoderDecoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.src_embed = nn.Embedding(c["vocab"], c["hidden"])
        self.tgt_embed = nn.Embedding(c["vocab"], c["hidden"])
        self.encoder = nn.ModuleList(EncoderLayer(c) for _ in range(c["enc_layers"]))
        self.decoder = nn.ModuleList(DecoderCrossLayer(c) for _ in range(c["dec_layers"]))
        self.out = nn.Linear(c["hidden"], c["vocab"])

    def forward(self, src, tgt):
        m = self.src_embed(src)
        for layer in self.encoder:
            m = layer(m)
        x = self.tgt_embed(tgt)
        for layer in self.decoder:
            x = layer(x, m)
        return self.out(x)


def draw_encdec(rng):
    hidden = rng.choice([32, 64])
    heads, kv = heads_config(rng, hidden)
    c = dict(family="encdec", enc_layers=rng.randint(1, 6 * DEPTH), dec_layers=rng.randint(1, 6 * DEPTH), hidden=hidden,
             heads=heads, kv_heads=kv, ff=hidden * 2, vocab=64, sdpa=rng.random() < 0.7, bias=True)
    return c, EncoderDecoder(c), (torch.zeros(1, 8, dtype=torch.long), torch.zeros(1, 6, dtype=torch.long))


# ------------------------------------------------------------------ families of the held-out graphs
class StepDecoder(Decoder):
    """A decode step as served models run it: the model's forward computes the
    rotary rows per layer from the positions (outer product with inv_freq, cat,
    cos/sin), each layer reads and extends its own KV cache."""

    def __init__(self, c):
        super().__init__(dict(c, rope=False))
        self.c = c
        d = c["hidden"] // c["heads"]
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d)), persistent=False)
        for layer in self.layers:
            layer.self_attn.rope = True

    def forward(self, input_ids, position_ids, *past):
        x = self.embed_tokens(input_ids)
        cache = []
        for i, layer in enumerate(self.layers):
            freqs = torch.outer(position_ids[0].float(), self.inv_freq)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos, sin = emb.cos()[None, None], emb.sin()[None, None]
            x, new = layer(x, cos, sin, (past[2 * i], past[2 * i + 1]))
            cache += list(new)
        return (self.lm_head(self.norm(x)), *cache)


def draw_llama_rot(rng):
    hidden = rng.choice([32, 64, 128])
    heads, kv = heads_config(rng, hidden)
    c = dict(family="llama_rot", layers=rng.randint(1, 16 * DEPTH), hidden=hidden, heads=heads, kv_heads=kv,
             ff=hidden * 2, vocab=rng.choice([64, 128]), rope=True, rotate="slice", cache=True,
             tied=rng.random() < 0.3, sdpa=rng.random() < 0.7, bias=rng.random() < 0.3, seq=1, past=7, max_pos=32)
    return c, StepDecoder(c), decoder_inputs(c)


def draw_moe_step(rng):
    hidden = rng.choice([32, 64])
    heads, kv = heads_config(rng, hidden)
    layers = rng.randint(2, 3 * DEPTH)
    experts = rng.choice([4, 8, 16, 32])
    c = dict(family="moe_step", layers=layers, dense_layers=rng.randint(0, min(2, layers - 1)), hidden=hidden,
             heads=heads, kv_heads=kv, ff=hidden * 2, expert_ff=16, experts=experts, shared=rng.randint(1, 2),
             router="softmax", groups=1, topk_groups=1, top_k=rng.randint(1, 2), stacked=False,
             dispatch=rng.choice(["index_add", "loop"]), vocab=64, rope=True, rotate="slice", cache=True,
             tied=False, sdpa=True, seq=1, past=5, max_pos=32)
    return c, StepDecoder(c), decoder_inputs(c)


class VitLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.norm1 = nn.LayerNorm(c["hidden"])
        self.attn = Attention(c)
        self.norm2 = nn.LayerNorm(c["hidden"])
        self.mlp = nn.Sequential(nn.Linear(c["hidden"], c["ff"]), nn.GELU(), nn.Linear(c["ff"], c["hidden"]))

    def forward(self, x):
        x = x + self.attn(self.norm1(x), causal=False)[0]
        return x + self.mlp(self.norm2(x))


class Vit(nn.Module):
    """Vision transformer: a patch embedding convolution, the class token
    concatenated in front, learned positions, pre-norm encoder layers."""

    def __init__(self, c):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, c["hidden"], c["patch"], c["patch"])
        self.cls_token = nn.Parameter(torch.zeros(1, 1, c["hidden"]))
        self.pos_embed = nn.Parameter(torch.zeros(1, (c["image"] // c["patch"]) ** 2 + 1, c["hidden"]))
        self.blocks = nn.ModuleList(VitLayer(c) for _ in range(c["layers"]))
        self.norm = nn.LayerNorm(c["hidden"])
        self.head = nn.Linear(c["hidden"], 10)

    def forward(self, img):
        x = self.patch_embed(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1) + self.pos_embed
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x)[:, 0])


def draw_vit(rng):
    hidden = rng.choice([32, 64])
    heads, kv = heads_config(rng, hidden)
    c = dict(family="vit", layers=rng.randint(1, 8 * DEPTH), hidden=hidden, heads=heads, kv_heads=heads,
             ff=hidden * 2, patch=rng.choice([4, 8]), image=32, sdpa=rng.random() < 0.7, bias=True)
    return c, Vit(c), (torch.zeros(1, 3, 32, 32),)


class ResBlock(nn.Module):
    """A diffusion U-Net's block: GroupNorm, SiLU, convolution, twice, and a
    1x1 shortcut when the width changes."""

    def __init__(self, cin, cout):
        super().__init__()
        self.norm1 = nn.GroupNorm(2, cin)
        self.conv1 = nn.Conv2d(cin, cout, 3, 1, 1)
        self.norm2 = nn.GroupNorm(2, cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x):
        h = self.conv1(F.silu(self.norm1(x)))
        return self.skip(x) + self.conv2(F.silu(self.norm2(h)))


class UNet(nn.Module):
    """Encoder blocks down, decoder blocks up with each level's features
    concatenated back in (the skips), as segmentation and diffusion nets do."""

    def __init__(self, c):
        super().__init__()
        ch = c["width"]
        widths = [ch * 2**i for i in range(c["levels"])]
        self.stem = nn.Conv2d(3, ch, 3, 1, 1)
        self.down = nn.ModuleList()
        cin = ch
        for w in widths:
            self.down.append(nn.Sequential(*[ResBlock(cin if i == 0 else w, w) for i in range(c["blocks"])]))
            cin = w
        self.mid = nn.Sequential(ResBlock(cin, cin), ResBlock(cin, cin))
        self.up = nn.ModuleList()
        self.fuse = nn.ModuleList()
        for w in reversed(widths):
            self.up.append(nn.ConvTranspose2d(cin, w, 2, 2))
            self.fuse.append(nn.Sequential(*[ResBlock(2 * w if i == 0 else w, w) for i in range(c["blocks"])]))
            cin = w
        self.out = nn.Conv2d(cin, 2, 1)

    def forward(self, x):
        x = self.stem(x)
        skips = []
        for block in self.down:
            x = block(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.mid(x)
        for up, fuse, skip in zip(self.up, self.fuse, reversed(skips)):
            x = fuse(torch.cat([up(x), skip], dim=1))
        return self.out(x)


def draw_unet(rng):
    levels = rng.randint(2, 3 + DEPTH)
    c = dict(family="unet", levels=levels, width=rng.choice([4, 8]), blocks=rng.randint(1, 2 * DEPTH))
    side = 2 ** (levels + 2)
    return c, UNet(c), (torch.zeros(1, 3, side, side),)


class BertLayer(nn.Module):
    """BERT's encoder layer as Hugging Face writes it: separate query, key and
    value projections with biases, and LayerNorm after each residual add
    (post-norm), so the norm's output feeds the projections and the next add."""

    def __init__(self, c):
        super().__init__()
        h = c["hidden"]
        self.heads = c["heads"]
        self.query, self.key, self.value = nn.Linear(h, h), nn.Linear(h, h), nn.Linear(h, h)
        self.attn_out = nn.Linear(h, h)
        self.attn_norm = nn.LayerNorm(h)
        self.intermediate = nn.Linear(h, c["ff"])
        self.output = nn.Linear(c["ff"], h)
        self.out_norm = nn.LayerNorm(h)

    def forward(self, x, mask):
        b, t, h = x.shape
        q, k, v = (m(x).view(b, t, self.heads, h // self.heads).transpose(1, 2) for m in (self.query, self.key, self.value))
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(h // self.heads) + mask, dim=-1) @ v
        x = self.attn_norm(x + self.attn_out(a.transpose(1, 2).reshape(b, t, h)))
        return self.out_norm(x + self.output(F.gelu(self.intermediate(x))))


class Bert(nn.Module):
    """Token, position and segment embeddings summed and normed, post-norm
    encoder layers with an attention mask from the input, a pooler and a
    classifier on the first token."""

    def __init__(self, c):
        super().__init__()
        h = c["hidden"]
        self.word, self.position, self.segment = nn.Embedding(c["vocab"], h), nn.Embedding(64, h), nn.Embedding(2, h)
        self.norm = nn.LayerNorm(h)
        self.layers = nn.ModuleList(BertLayer(c) for _ in range(c["layers"]))
        self.pooler = nn.Linear(h, h)
        self.classifier = nn.Linear(h, 2)

    def forward(self, ids, segments, attention_mask):
        t = ids.shape[1]
        x = self.norm(self.word(ids) + self.position(torch.arange(t)) + self.segment(segments))
        mask = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, mask)
        return self.classifier(torch.tanh(self.pooler(x[:, 0])))


def draw_bert(rng):
    hidden = rng.choice([32, 64])
    heads = rng.choice([h for h in (2, 4, 8) if hidden % h == 0])
    c = dict(family="bert", layers=rng.randint(1, 6 * DEPTH), hidden=hidden, heads=heads, ff=hidden * rng.choice([2, 4]),
             vocab=64)
    ids = torch.zeros(1, 16, dtype=torch.long)
    return c, Bert(c), (ids, torch.zeros_like(ids), torch.ones_like(ids))


class InceptionBlock(nn.Module):
    """GoogLeNet's block: the input read by four branches (1x1; 1x1 then 3x3;
    1x1 then 5x5; pooling then 1x1), each convolution with its weight and bias
    and batch norm, concatenated."""

    def __init__(self, cin, w):
        super().__init__()

        def conv(a, b, k):
            return nn.Sequential(nn.Conv2d(a, b, k, padding=k // 2), nn.BatchNorm2d(b), nn.ReLU())

        self.b1 = conv(cin, w, 1)
        self.b2 = nn.Sequential(conv(cin, w, 1), conv(w, w, 3))
        self.b3 = nn.Sequential(conv(cin, w // 2, 1), conv(w // 2, w, 5))
        self.b4 = nn.Sequential(nn.MaxPool2d(3, 1, 1), conv(cin, w, 1))

    def forward(self, x):
        return torch.cat([self.b1(x), self.b2(x), self.b3(x), self.b4(x)], dim=1)


class Inception(nn.Module):
    def __init__(self, c):
        super().__init__()
        w = c["width"]
        self.stem = nn.Sequential(nn.Conv2d(3, w * 4, 3, padding=1), nn.BatchNorm2d(w * 4), nn.ReLU())
        self.blocks = nn.ModuleList(InceptionBlock(w * 4, w) for _ in range(c["blocks"]))
        self.aux = nn.Linear(w * 4, 10) if c["aux"] else None
        self.fc = nn.Linear(w * 4, 10)

    def forward(self, x):
        x = self.stem(x)
        aux = None
        for i, block in enumerate(self.blocks):
            x = block(x)
            if i == 1:
                x = F.max_pool2d(x, 2)
            if self.aux is not None and i == len(self.blocks) // 2:
                aux = self.aux(x.mean((2, 3)))
        out = self.fc(x.mean((2, 3)))
        return out if aux is None else (out, aux)


def draw_inception(rng):
    c = dict(family="inception", blocks=rng.randint(2, 5 * DEPTH), width=rng.choice([4, 8]), aux=rng.random() < 0.5)
    return c, Inception(c), (torch.zeros(1, 3, 16, 16),)



# ------------------------------------------------------------------ Llama as Hugging Face writes it
class HfRMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        dtype = x.dtype
        x = x.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        return self.weight * x.to(dtype)


def hf_apply_rotary(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def hf_repeat_kv(h, n):
    if n == 1:
        return h
    b, kv, s, d = h.shape
    return h[:, :, None, :, :].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)


class HfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        h = c["hidden"]
        self.heads, self.kv, self.d, self.sdpa = c["heads"], c["kv_heads"], h // c["heads"], c["sdpa"]
        self.q_proj = nn.Linear(h, self.heads * self.d, bias=c["bias"])
        self.k_proj = nn.Linear(h, self.kv * self.d, bias=c["bias"])
        self.v_proj = nn.Linear(h, self.kv * self.d, bias=c["bias"])
        self.o_proj = nn.Linear(self.heads * self.d, h, bias=False)

    def forward(self, x, cos, sin, mask, past):
        b, n, _ = x.shape
        q = self.q_proj(x).view(b, n, -1, self.d).transpose(1, 2)
        k = self.k_proj(x).view(b, n, -1, self.d).transpose(1, 2)
        v = self.v_proj(x).view(b, n, -1, self.d).transpose(1, 2)
        q, k = hf_apply_rotary(q, k, cos, sin)
        if past is not None:
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        new = (k, v)
        k, v = hf_repeat_kv(k, self.heads // self.kv), hf_repeat_kv(v, self.heads // self.kv)
        if self.sdpa:
            o = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        else:
            w = torch.matmul(q, k.transpose(2, 3)) * self.d**-0.5 + mask
            o = torch.matmul(F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype), v)
        return self.o_proj(o.transpose(1, 2).contiguous().reshape(b, n, -1)), new


class HfLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = HfRMSNorm(c["hidden"])
        self.self_attn = HfAttention(c)
        self.post_attention_layernorm = HfRMSNorm(c["hidden"])
        self.mlp = GatedMLP(c["hidden"], c["ff"])

    def forward(self, x, cos, sin, mask, past):
        a, new = self.self_attn(self.input_layernorm(x), cos, sin, mask, past)
        x = x + a
        return x + self.mlp(self.post_attention_layernorm(x)), new


class HfLlama(nn.Module):
    def __init__(self, c):
        super().__init__()
        d = c["hidden"] // c["heads"]
        self.embed_tokens = nn.Embedding(c["vocab"], c["hidden"])
        self.layers = nn.ModuleList(HfLayer(c) for _ in range(c["layers"]))
        self.norm = HfRMSNorm(c["hidden"])
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d)), persistent=False)
        self.lm_head = nn.Linear(c["hidden"], c["vocab"], bias=False)

    def forward(self, input_ids, position_ids, mask, *past):
        x = self.embed_tokens(input_ids)
        inv = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        freqs = (inv @ position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().to(x.dtype), emb.sin().to(x.dtype)
        cache = []
        for i, layer in enumerate(self.layers):
            x, new = layer(x, cos, sin, mask, (past[2 * i], past[2 * i + 1]) if past else None)
            cache += list(new)
        logits = self.lm_head(self.norm(x))
        return (logits, *cache) if past else logits


def draw_llama_hf(rng):
    hidden = rng.choice([32, 64, 128])
    heads, kv = heads_config(rng, hidden)
    c = dict(family="llama_hf", layers=rng.randint(1, 16 * DEPTH), hidden=hidden, heads=heads, kv_heads=kv,
             ff=hidden * 2, vocab=rng.choice([64, 128]), cache=rng.random() < 0.5, sdpa=rng.random() < 0.5,
             bias=rng.random() < 0.3, past=5)
    seq = 1 if c["cache"] else 6
    start = c["past"] if c["cache"] else 0
    d = hidden // heads
    inputs = (torch.randint(0, c["vocab"], (1, seq)), torch.arange(start, start + seq)[None],
              torch.zeros(1, 1, seq, start + seq))
    if c["cache"]:
        inputs += tuple(torch.randn(1, kv, c["past"], d) for _ in range(2 * c["layers"]))
    return c, HfLlama(c), inputs

DRAW = {"llama_hf": draw_llama_hf, "llama": draw_llama, "moe": draw_moe, "cnn": draw_cnn, "encdec": draw_encdec, "llama_rot": draw_llama_rot,
        "moe_step": draw_moe_step, "vit": draw_vit, "unet": draw_unet, "bert": draw_bert, "inception": draw_inception}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("outdir")
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--min-nodes", type=int, default=100)
    p.add_argument("--max-nodes", type=int, default=3000)
    p.add_argument("--families", default="llama,moe,cnn,encdec")
    p.add_argument("--depth-scale", type=int, default=1)
    a = p.parse_args()
    global DEPTH
    DEPTH = a.depth_scale
    families = a.families.split(",")
    os.makedirs(a.outdir, exist_ok=True)
    rng = random.Random(a.seed)
    written = tries = 0
    with open(os.path.join(a.outdir, "configs.txt"), "w") as log:
        while written < a.count and tries < a.count * 10:
            tries += 1
            family = families[written % len(families)]
            config, model, inputs = DRAW[family](rng)
            torch.manual_seed(rng.randint(0, 2**31))
            try:
                ir = torch_ir.extract_ir(model.eval(), inputs, strict=False)
            except Exception as e:  # noqa: BLE001 - a configuration torch.export rejects is drawn again
                print(f"skipped {family}: {type(e).__name__}: {str(e).splitlines()[0][:120]}", file=sys.stderr)
                continue
            n = len(ir.nodes)
            if not a.min_nodes <= n <= a.max_nodes:
                continue
            name = f"gen{written:03d}_{family}"
            for node in ir.nodes:  # attrs json cannot write (a dtype): as pytorch-ir's own examples clean them
                for key, value in list(node.attrs.items()):
                    try:
                        json.dumps(value)
                    except (TypeError, ValueError):
                        node.attrs[key] = str(value)
            ir.save(os.path.join(a.outdir, name + ".json"))
            print(name, n, json.dumps(config, sort_keys=True), file=log, flush=True)
            print(f"{name} {n} nodes", flush=True)
            written += 1


if __name__ == "__main__":
    main()
