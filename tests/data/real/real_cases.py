"""Tiny model zoo for make_real_exports.py (see that script's docstring).

Every case is a function decorated with @case(NAME, traits) that returns
(model, inputs): an nn.Module (put in eval() mode by the caller) and a tuple of
real CPU tensors. The caller seeds torch's RNG per case (from NAME) before the
function runs, so weights and inputs are reproducible. Sizes are kept tiny
(hidden 8-32, 1-2 layers, sequence 4-8) so the whole corpus stays a few MB.

Part 1 re-creates pytorch-ir's own test models (tests/models/*.py,
tests/test_models.py, tests/test_lifted_tensor.py, examples/basic_usage.py and
the Kimi-K2.5 MoE of examples/kimi_k25_text_local/model.py, all from
github.com/sweetcocoa/pytorch-ir) shrunk to tiny sizes; part 2, one probe per
IR trait that irscope has to handle, lives in real_probes.py, which registers into the same CASES
list (make_real_exports.py imports real_cases, then real_probes).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CASES = []   # [(name, traits, fn)] in definition order


def case(name, traits):
    def deco(fn):
        CASES.append((name, list(traits), fn))
        return fn
    return deco


def _randomize_bn(model):
    """Give eval-mode BatchNorms non-trivial running statistics."""
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 1.5)
    return model


def _proj(d_in, d_out, bias=True):
    return nn.Linear(d_in, d_out, bias=bias)


# ============================================================ part 1: pytorch-ir's models
class MLP(nn.Module):                       # tests/test_models.py::test_mlp_model
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = _proj(16, 32), _proj(32, 16), _proj(16, 8)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


class MultiTaskHead(nn.Module):             # tests/models/multi_io.py (CNN + BatchNorm, 2 outputs)
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.classifier = nn.Sequential(_proj(64, 16), nn.ReLU(), _proj(16, 10))
        self.aux_head = nn.Sequential(_proj(64, 8), nn.ReLU(), _proj(8, 4))

    def forward(self, x):
        f = self.backbone(x)
        return self.classifier(f), self.aux_head(f)


class ResidualBlock(nn.Module):             # tests/models/skip_connections.py
    def __init__(self, c):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c)
        self.conv2, self.bn2 = nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        return self.relu(self.bn2(self.conv2(out)) + x)


class TinyResNet(nn.Module):                # DeepResNet with one block
    def __init__(self):
        super().__init__()
        self.conv1, self.bn1, self.relu = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU()
        self.res_block1 = ResidualBlock(8)
        self.avgpool, self.fc = nn.AdaptiveAvgPool2d(1), _proj(8, 10)

    def forward(self, x):
        x = self.res_block1(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


class SelfAttention(nn.Module):             # tests/models/attention.py (matmul/softmax attention)
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.h, self.hd, self.scale = heads, d // heads, math.sqrt(d // heads)
        self.q_proj, self.k_proj, self.v_proj, self.out_proj = (_proj(d, d) for _ in range(4))

    def _heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.h, self.hd).transpose(1, 2)

    def forward(self, x, context=None):
        context = x if context is None else context
        q, k, v = self._heads(self.q_proj(x)), self._heads(self.k_proj(context)), self._heads(self.v_proj(context))
        probs = F.softmax(torch.matmul(q, k.transpose(-2, -1)) / self.scale, dim=-1)
        o = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return self.out_proj(o.view(x.shape[0], x.shape[1], -1))


class TransformerBlock(nn.Module):          # tests/models/attention.py
    def __init__(self, d=16):
        super().__init__()
        self.self_attn, self.norm1 = SelfAttention(d), nn.LayerNorm(d)
        self.ffn = nn.Sequential(_proj(d, 2 * d), nn.GELU(), _proj(2 * d, d))
        self.norm2 = nn.LayerNorm(d)

    def forward(self, x):
        x = self.norm1(x + self.self_attn(x))
        return self.norm2(x + self.ffn(x))


class CrossAttention(SelfAttention):        # tests/models/attention.py (2 inputs)
    def forward(self, query, context):
        return super().forward(query, context)


class SiameseEncoder(nn.Module):            # tests/models/multi_io.py (shared weights, 2 in / 2 out)
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, padding=1),
            nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), _proj(8, 8))

    def forward(self, x1, x2):
        return self.encoder(x1), self.encoder(x2)


class WeightTying(nn.Module):               # tests/models/shared_weights.py (F.linear on embedding.weight)
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        self.transform = nn.Sequential(_proj(d, d), nn.ReLU(), _proj(d, d))
        self.output_bias = nn.Parameter(torch.randn(vocab) * 0.1)

    def forward(self, x):
        return F.linear(self.transform(self.embedding(x)), self.embedding.weight, self.output_bias)


class TiedLMHead(nn.Module):                # HF-style tie_word_embeddings: two state_dict keys, one tensor
    def __init__(self, vocab=32, d=16):
        super().__init__()
        self.embed_tokens, self.norm = nn.Embedding(vocab, d), nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embed_tokens.weight

    def forward(self, input_ids):
        return self.lm_head(self.norm(self.embed_tokens(input_ids)))


class RecurrentUnroll(nn.Module):           # tests/models/shared_weights.py
    def __init__(self, d=16, steps=3):
        super().__init__()
        self.steps, self.cell, self.activation = steps, _proj(d, d), nn.Tanh()

    def forward(self, x):
        for _ in range(self.steps):
            x = self.activation(self.cell(x))
        return x


# --- tests/test_lifted_tensor.py, verbatim sizes (already tiny)
class GatherWithLiftedIndex(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)
        self.indices = torch.tensor([0, 2, 4, 6], dtype=torch.long)   # plain attribute -> lifted constant

    def forward(self, x):
        return self.linear(x)[:, self.indices]


class MaskWithLiftedTensor(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.mask = torch.tensor([1.0, 0.0, 1.0, 0.0])

    def forward(self, x):
        return self.linear(x) * self.mask


class BufferModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer("scale", torch.tensor([2.0, 2.0, 2.0, 2.0]))

    def forward(self, x):
        return self.linear(x) * self.scale


class MixedConstantAndBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer("scale", torch.tensor([2.0, 2.0, 2.0, 2.0]))
        self.offset = torch.tensor([0.1, 0.2, 0.3, 0.4])

    def forward(self, x):
        return self.linear(x) * self.scale + self.offset


class LiteralInForward(nn.Module):          # torch.tensor([...]) literals created inside forward()
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)

    def forward(self, x):
        y = self.linear(x) * torch.tensor([1.0, -1.0, 0.5, 2.0, 1.0, 0.0, 3.0, -0.5])
        return y.index_select(1, torch.tensor([7, 0, 3]))


class NonPersistentBuffer(nn.Module):       # register_buffer(persistent=False): in ep.constants, not state_dict
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)
        self.register_buffer("perm", torch.tensor([6, 4, 2, 0, 7, 5, 3, 1]), persistent=False)
        self.register_buffer("gain", torch.linspace(0.5, 1.5, 8), persistent=False)

    def forward(self, x):
        return torch.index_select(self.linear(x), 1, self.perm) * self.gain


class SimpleConvNet(nn.Module):             # examples/basic_usage.py
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), _proj(16 * 2 * 2, 32), nn.ReLU(), _proj(32, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


# --- Kimi K2.5 / DeepSeek-V3 style MoE decoder layer (frozen tiny config)
KIMI_CONFIG = dict(hidden_size=16, num_heads=2, head_dim=8, moe_intermediate_size=8, n_routed_experts=4,
                   num_experts_per_tok=2, n_group=2, topk_group=1, routed_scaling_factor=2.5,
                   n_shared_experts=1, norm_topk_prob=True, rms_norm_eps=1e-6, seq_len=6)


class KimiRMSNorm(nn.Module):               # upcast-to-float32 RMSNorm as in the Kimi example
    def __init__(self, d, eps):
        super().__init__()
        self.weight, self.eps = nn.Parameter(1 + 0.1 * torch.randn(d)), eps

    def forward(self, h):
        dt, h = h.dtype, h.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * h.to(dt)


class KimiMLP(nn.Module):
    def __init__(self, d, inter):
        super().__init__()
        self.gate_proj, self.up_proj, self.down_proj = _proj(d, inter, False), _proj(d, inter, False), _proj(inter, d, False)

    def forward(self, h):
        return self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class KimiMoEGate(nn.Module):               # sigmoid scores, noaux_tc grouped top-k routing
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.weight = nn.Parameter(torch.randn(c["n_routed_experts"], c["hidden_size"]) * 0.3)
        self.e_score_correction_bias = nn.Parameter(torch.randn(c["n_routed_experts"]) * 0.05)

    def forward(self, h):
        c, t = self.c, h.shape[0]
        scores = F.linear(h.to(torch.float32), self.weight.to(torch.float32), None).sigmoid()
        choice = scores + self.e_score_correction_bias.unsqueeze(0)
        group_scores = choice.view(t, c["n_group"], -1).topk(2, dim=-1)[0].sum(dim=-1)
        group_idx = torch.topk(group_scores, k=c["topk_group"], dim=-1, sorted=False)[1]
        group_mask = torch.zeros_like(group_scores)
        group_mask.scatter_(1, group_idx, 1)
        score_mask = group_mask.unsqueeze(-1).expand(t, c["n_group"], c["n_routed_experts"] // c["n_group"]).reshape(t, -1)
        tmp = choice.masked_fill(~score_mask.bool(), 0.0)
        _, topk_idx = torch.topk(tmp, k=c["num_experts_per_tok"], dim=-1, sorted=False)
        topk_weight = scores.gather(1, topk_idx)
        topk_weight = topk_weight / (topk_weight.sum(dim=-1, keepdim=True) + 1e-20)
        return topk_idx, topk_weight * c["routed_scaling_factor"]


class KimiMoE(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c, d, inter = c, c["hidden_size"], c["moe_intermediate_size"]
        self.experts = nn.ModuleList(KimiMLP(d, inter) for _ in range(c["n_routed_experts"]))
        self.gate = KimiMoEGate(c)
        self.shared_experts = KimiMLP(d, inter * c["n_shared_experts"])

    def forward(self, hidden_states):
        shape, d = hidden_states.shape, hidden_states.shape[-1]
        tokens = hidden_states.reshape(-1, d)
        topk_idx, topk_weight = self.gate(tokens)
        # every expert on every token, written by slice assignment into a new_empty buffer
        per_expert = tokens.new_empty(tokens.shape[0], len(self.experts), d)
        for e, expert in enumerate(self.experts):
            per_expert[:, e] = expert(tokens)
        picked = per_expert.gather(1, topk_idx.unsqueeze(-1).expand(-1, -1, d))
        # accumulate the top-k picks into a new_zeros buffer with index_add_
        out = tokens.new_zeros(tokens.shape)
        token_ids = torch.arange(tokens.shape[0], device=tokens.device)
        for k in range(topk_idx.shape[1]):
            out.index_add_(0, token_ids, picked[:, k] * topk_weight[:, k:k + 1].to(picked.dtype))
        return out.view(shape) + self.shared_experts(hidden_states)


class KimiDecoderLayer(nn.Module):
    def __init__(self, c=KIMI_CONFIG):
        super().__init__()
        d, self.h, self.hd = c["hidden_size"], c["num_heads"], c["head_dim"]
        self.input_layernorm = KimiRMSNorm(d, c["rms_norm_eps"])
        self.q_proj, self.k_proj, self.v_proj = (_proj(d, self.h * self.hd, False) for _ in range(3))
        self.o_proj = _proj(self.h * self.hd, d, False)
        self.post_attention_layernorm = KimiRMSNorm(d, c["rms_norm_eps"])
        self.mlp = KimiMoE(c)

    def forward(self, hidden_states):
        b, n, _ = hidden_states.shape
        x = self.input_layernorm(hidden_states)
        q, k, v = (p(x).view(b, n, self.h, self.hd).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        hidden_states = hidden_states + self.o_proj(a.transpose(1, 2).reshape(b, n, -1))
        return hidden_states + self.mlp(self.post_attention_layernorm(hidden_states))


# --- tiny Llama: embedding, rotary cos/sin non-persistent buffers, GQA by repeat_interleave, SwiGLU
class TinyLlama(nn.Module):
    def __init__(self, vocab=32, d=16, heads=4, kv_heads=2, max_pos=16):
        super().__init__()
        self.h, self.kvh, self.hd = heads, kv_heads, d // heads
        self.embed_tokens = nn.Embedding(vocab, d)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        emb = torch.cat([torch.outer(torch.arange(max_pos).float(), inv_freq)] * 2, dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)
        self.input_layernorm, self.post_attention_layernorm, self.norm = nn.RMSNorm(d), nn.RMSNorm(d), nn.RMSNorm(d)
        self.q_proj, self.o_proj = _proj(d, d, False), _proj(d, d, False)
        self.k_proj, self.v_proj = _proj(d, kv_heads * self.hd, False), _proj(d, kv_heads * self.hd, False)
        self.mlp = KimiMLP(d, 2 * d)
        self.lm_head = _proj(d, vocab, False)

    @staticmethod
    def _rotate_half(x):
        x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
        return torch.cat((-x2, x1), dim=-1)

    def forward(self, input_ids):
        b, n = input_ids.shape
        h = self.embed_tokens(input_ids)
        x = self.input_layernorm(h)
        q = self.q_proj(x).view(b, n, self.h, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(b, n, self.kvh, self.hd).transpose(1, 2)
        cos, sin = self.cos_cached[:n], self.sin_cached[:n]
        q, k = q * cos + self._rotate_half(q) * sin, k * cos + self._rotate_half(k) * sin
        rep = self.h // self.kvh
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        h = h + self.o_proj(a.transpose(1, 2).reshape(b, n, -1))
        h = h + self.mlp(self.post_attention_layernorm(h))
        return self.lm_head(self.norm(h))


def _x(*shape):
    return (torch.randn(*shape),)


def _ids(b=1, n=6, vocab=32):
    return (torch.randint(0, vocab, (b, n)),)


case("mlp", ["pytorch_ir_test", "linear", "relu"])(lambda: (MLP(), _x(2, 16)))
case("multitask_cnn_bn", ["pytorch_ir_test", "conv2d", "batch_norm", "maxpool", "adaptive_avgpool", "multi_output"])(
    lambda: (_randomize_bn(MultiTaskHead()), _x(1, 3, 8, 8)))
case("resnet_block", ["pytorch_ir_test", "conv2d", "batch_norm", "residual"])(
    lambda: (_randomize_bn(TinyResNet()), _x(1, 3, 8, 8)))
case("transformer_block", ["pytorch_ir_test", "attention", "matmul", "softmax", "layer_norm", "gelu", "view"])(
    lambda: (TransformerBlock(), _x(1, 6, 16)))
case("cross_attention", ["pytorch_ir_test", "attention", "multi_input"])(
    lambda: (CrossAttention(), (torch.randn(1, 4, 16), torch.randn(1, 6, 16))))
case("siamese_encoder", ["pytorch_ir_test", "shared_weights", "multi_input", "multi_output"])(
    lambda: (SiameseEncoder(), (torch.randn(1, 3, 8, 8), torch.randn(1, 3, 8, 8))))
case("weight_tying", ["pytorch_ir_test", "embedding", "shared_weights", "int_input"])(lambda: (WeightTying(), _ids()))
case("tied_lm_head", ["tied_weights", "embedding", "int_input"])(lambda: (TiedLMHead(), _ids()))
case("recurrent_unroll", ["pytorch_ir_test", "shared_weights", "tanh"])(lambda: (RecurrentUnroll(), _x(2, 16)))
case("lifted_gather_index", ["pytorch_ir_lifted", "lifted_constant", "index_tensor", "none_in_tensor_list"])(
    lambda: (GatherWithLiftedIndex(), _x(1, 8)))
case("lifted_mask", ["pytorch_ir_lifted", "lifted_constant"])(lambda: (MaskWithLiftedTensor(), _x(1, 4)))
case("lifted_buffer_model", ["pytorch_ir_lifted", "persistent_buffer"])(lambda: (BufferModel(), _x(1, 4)))
case("lifted_mixed_constant_buffer", ["pytorch_ir_lifted", "lifted_constant", "persistent_buffer"])(
    lambda: (MixedConstantAndBuffer(), _x(1, 4)))
case("literal_in_forward", ["lifted_constant", "tensor_literal", "lift_fresh_copy", "index_select"])(
    lambda: (LiteralInForward(), _x(2, 8)))
case("nonpersistent_buffer", ["nonpersistent_buffer", "index_select"])(lambda: (NonPersistentBuffer(), _x(2, 8)))
case("basic_usage_convnet", ["pytorch_ir_example", "conv2d", "maxpool", "flatten"])(
    lambda: (SimpleConvNet(), _x(1, 3, 8, 8)))
case("kimi_moe_layer", ["kimi_k25", "moe", "sigmoid_router", "topk_unsorted", "scatter_", "new_empty",
                        "slice_assign", "index_add_", "new_zeros", "arange", "sdpa_causal", "dtype_cast"])(
    lambda: (KimiDecoderLayer(), _x(1, KIMI_CONFIG["seq_len"], KIMI_CONFIG["hidden_size"])))
case("tiny_llama", ["llm", "embedding", "rotary", "nonpersistent_buffer", "rms_norm", "gqa_repeat_interleave",
                    "sdpa_causal", "swiglu", "int_input"])(lambda: (TinyLlama(), _ids()))
