#!/usr/bin/python3
"""Make torch_ir-format IR fixtures on PyTorch 1.13 (Debian's python3-torch).

torch_ir (PyTorch 2.x torch.export) is not available here, so this script is
a small stand-in for `torch_ir.extract_ir`:

* the model is traced with `make_fx` (1.13), parameters, buffers and lifted
  tensor constants passed as leading placeholders (p_/b_/c_ + dotted name with
  '.' -> '_'), graph inputs named after forward()'s arguments;
* ops that PyTorch 2.x exports but 1.13 does not have (or that 1.13's tracer
  would decompose) are emitted through small "marker" custom ops (namespace
  `irx`) whose schemas copy the 2.x schemas' argument names; the writer maps
  them back to the 2.x op_type (`aten.scaled_dot_product_attention.default`,
  `aten._native_batch_norm_legit_no_training.default`, `aten.rms_norm.default`,
  `aten.linear.default`, `aten.conv2d.default`, `aten.to.dtype`). Their
  implementations are plain PyTorch math, so eager outputs are PyTorch's;
* the JSON follows docs/ir-format.md §1-§4: key order, indent 2, producer
  fields, getitem nodes listing all producer outputs, _tensor_list_sizes /
  _tensor_list_none_masks, non-tensor args as attrs by schema name (dtypes,
  devices, layouts and memory formats as strings), Python scalars in Tensor
  slots as attrs.

For each fixture NAME it writes into tests/data/ir/:
  NAME.json            IR as extracted on a real device (with "constants")
  NAME.meta.json       IR as extracted on the meta device (no "constants"), when it has constants
  NAME.weights.pt      model.state_dict()
  NAME.inputs.pt       {graph input name: tensor}
  NAME.constants.pt    {original name: tensor} for lifted constants and non-persistent buffers
  NAME.expected.pt     {graph output name: tensor} from running the module eagerly
  NAME.modules.json    the true nn.Module of every IR node, for testing module-hierarchy inference:
                       {"model": NAME, "nodes": {IR node name: module path}}, in IR node order, every
                       IR node exactly once. The module path is the dotted name from
                       model.named_modules() of the innermost module whose forward() was running when
                       the tracer created the node ("" = the root module). It is recorded by
                       ModuleRecorder: forward pre-hooks / forward hooks on every module push / pop
                       its path, and torch.fx.Graph.create_node is wrapped during make_fx to store the
                       top of that stack in node.meta["irx_module"]. Marker ops and getitem nodes are
                       created inside the same forward as the op they belong to, so they get its
                       module; renaming and the dropped getitems/slices do not touch the meta. export()
                       checks that no IR node was created outside every forward, that linear / conv2d /
                       batch-norm nodes lie in the module owning their weight, and that a node reading
                       a parameter or buffer lies in that tensor's module or an ancestor of it (the
                       MoE's aten.stack of expert weights runs in `mlp`, not in `mlp.experts.N`).
and for llama_block also NAME.intermediates.pt (every node output by tensor
name, recorded while PyTorch ran the traced graph), NAME.intermediates_bad.pt
(one value changed) and NAME.intermediates_bad.json (which one).

Fixtures with a Hugging Face-style module hierarchy (for NAME.modules.json): tiny_llama (TinyDecoder:
embed_tokens, rotary_emb with non-persistent cos/sin buffers indexed by the lifted constant
position_ids, layers.0-1 with input_layernorm / self_attn.{q,k,v,o}_proj / post_attention_layernorm /
mlp.{gate,up,down}_proj, norm, lm_head) and tiny_moe (the same with layers.1.mlp a sparse MoE block:
gate router, sigmoid/topk/scatter routing matrix, 8 experts whose weights are torch.stack'ed and
applied with torch.einsum - which 1.13's make_fx lowers to unsqueeze/permute/_reshape_alias/bmm/view -
plus shared_experts). They are seeded separately and made after the older fixtures, whose files are
unchanged by their addition.

Run: /usr/bin/python3 tests/data/make_ir_fixtures.py [OUTDIR]
"""
import json
import math
import operator
import os
import sys
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils import stateless

torch.manual_seed(0)

# ---------------------------------------------------------------- marker ops
_lib = torch.library.Library("irx", "DEF")
_MARKERS = {}   # irx op name -> 2.x op_type


def _marker(schema, op_type, impl):
    name = schema.split("(")[0]
    _lib.define(schema)
    _lib.impl(name, impl, "CompositeExplicitAutograd")
    _MARKERS[name] = op_type


def _sdpa_math(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None, enable_gqa=False):
    # PyTorch 2.x's documented reference implementation of F.scaled_dot_product_attention.
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=0)
        attn_bias = attn_bias.masked_fill(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    attn_weight = attn_weight + attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    return attn_weight @ value


def _rms_norm_math(input, normalized_shape, weight=None, eps=None):
    dims = tuple(range(-len(normalized_shape), 0))
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    x = input.float()
    y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
    if weight is not None:
        y = y * weight
    return y.to(input.dtype)


def _bn_nt(input, weight, bias, running_mean, running_var, momentum, eps):
    out = torch.native_batch_norm(input, weight, bias, running_mean, running_var, False, momentum, eps)[0]
    return out, input.new_empty(0), input.new_empty(0)


_marker("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", "aten.linear.default",
        lambda input, weight, bias=None: torch._C._nn.linear(input, weight, bias))
_marker("conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
        "int[2] dilation=1, int groups=1) -> Tensor", "aten.conv2d.default",
        lambda input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1:
        torch.conv2d(input, weight, bias, stride, padding, dilation, groups))
_marker("bn_nt(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, "
        "float momentum, float eps) -> (Tensor, Tensor, Tensor)",
        "aten._native_batch_norm_legit_no_training.default", _bn_nt)
_marker("sdpa(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, "
        "bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
        "aten.scaled_dot_product_attention.default", _sdpa_math)
_marker("rms_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor",
        "aten.rms_norm.default", _rms_norm_math)
_marker("to_dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
        "MemoryFormat? memory_format=None) -> Tensor", "aten.to.dtype",
        lambda self, dtype, non_blocking=False, copy=False, memory_format=None: self.to(dtype).clone())


class Lowering:
    """While tracing, route nn.functional calls to the marker ops (what 2.x exports)."""

    def __init__(self, linear=True, conv2d=False, batch_norm=False):
        self.flags = dict(linear=linear, conv2d=conv2d, batch_norm=batch_norm)

    def __enter__(self):
        self.saved = (F.linear, F.conv2d, F.batch_norm)
        if self.flags["linear"]:
            F.linear = lambda i, w, b=None: torch.ops.irx.linear(i, w, b)
        if self.flags["conv2d"]:
            F.conv2d = lambda i, w, b=None, s=1, p=0, d=1, g=1: torch.ops.irx.conv2d(
                i, w, b, _pair(s), _pair(p), _pair(d), g)
        if self.flags["batch_norm"]:
            orig = F.batch_norm

            def bn(i, rm, rv, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
                if training:
                    return orig(i, rm, rv, weight, bias, training, momentum, eps)
                return torch.ops.irx.bn_nt(i, weight, bias, rm, rv, momentum, eps)[0]
            F.batch_norm = bn
        return self

    def __exit__(self, *exc):
        F.linear, F.conv2d, F.batch_norm = self.saved


def _pair(v):
    return list(v) if isinstance(v, (list, tuple)) else [v, v]


# ---------------------------------------------------------------- models
class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 8)
        self.linear_1 = nn.Linear(8, 2)

    def forward(self, x):
        return self.linear_1(torch.relu(self.linear(x)))


class MaskedLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.mask = torch.tensor([1.0, 0.0, 1.0, 0.0])  # lifted constant

    def forward(self, x):
        return self.linear(x) * self.mask


class GatherWithIndex(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)
        self.indices = torch.tensor([0, 2, 4, 6], dtype=torch.long)  # lifted constant

    def forward(self, x):
        out = self.linear(x)
        return out[:, self.indices]


class BufferVsConstant(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer('scale', torch.tensor([2.0, 2.0, 2.0, 2.0]))  # buffer
        self.offset = torch.tensor([0.1, 0.2, 0.3, 0.4])                   # lifted constant

    def forward(self, x):
        return self.linear(x) * self.scale + self.offset


def tiny_resnet():
    """torchvision's ResNet with its BasicBlock, narrowed to 8/16 channels so the fixture stays small."""
    from torchvision.models.resnet import ResNet, BasicBlock

    class TinyResNet(ResNet):
        def __init__(self):
            nn.Module.__init__(self)
            self._norm_layer = nn.BatchNorm2d
            self.inplanes, self.dilation, self.groups, self.base_width = 8, 1, 1, 64
            self.conv1 = nn.Conv2d(3, 8, kernel_size=7, stride=2, padding=3, bias=False)
            self.bn1 = nn.BatchNorm2d(8)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
            self.layer1 = self._make_layer(BasicBlock, 8, 1)
            self.layer2 = self._make_layer(BasicBlock, 16, 1, stride=2)
            self.layer3 = self._make_layer(BasicBlock, 16, 1, stride=2)
            self.layer4 = self._make_layer(BasicBlock, 16, 1, stride=1)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc = nn.Linear(16, 10)
    m = TinyResNet()
    _randomize_bn(m)
    return m


def _randomize_bn(m):
    # Fresh BatchNorm stats are 0/1: make them non-trivial so a wrong formula shows.
    with torch.no_grad():
        for mod in m.modules():
            if isinstance(mod, nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.5, 0.5)
                mod.running_var.uniform_(0.5, 1.5)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.2, 0.2)
                mod.num_batches_tracked.fill_(7)


class CnnBn(nn.Module):
    """Conv + eval BatchNorm (-> _native_batch_norm_legit_no_training) + max_pool2d_with_indices."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 4, 3, stride=2)
        self.fc = nn.Linear(4 * 2 * 2, 5)
        _randomize_bn(self)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y, idx = F.max_pool2d(y, kernel_size=2, stride=2, return_indices=True)
        z = self.conv2(y)
        return self.fc(torch.flatten(z, 1)), idx


class LlamaBlock(nn.Module):
    """One Llama-style decoder block, tiny: RMSNorm (pow/mean/rsqrt), fused QKV split,
    RoPE (slice/neg/cat), GQA causal attention, SiLU-gated MLP, a final rms_norm."""

    def __init__(self, dim=16, heads=4, kv_heads=2, seq=6, hidden=24):
        super().__init__()
        self.dim, self.heads, self.kv_heads, self.hd = dim, heads, kv_heads, dim // heads
        self.norm1_weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.norm2_weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.final_norm_weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.qkv = nn.Linear(dim, (heads + 2 * kv_heads) * self.hd, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.gate = nn.Linear(dim, hidden, bias=False)
        self.up = nn.Linear(dim, hidden, bias=False)
        self.down = nn.Linear(hidden, dim, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, self.hd, 2).float() / self.hd))
        t = torch.arange(16).float()
        freqs = torch.outer(t, inv)
        emb = torch.cat([freqs, freqs], -1)                 # [16, hd]
        # Non-persistent buffers: not in state_dict, exported with values in "constants".
        self.register_buffer("rope_cos", emb.cos()[None], persistent=False)  # [1, 16, hd]
        self.register_buffer("rope_sin", emb.sin()[None], persistent=False)
        # Lifted constant: positions of the sequence in the rope table (x[:, idx] -> index.Tensor with None).
        self.positions = torch.arange(2, 2 + seq)

    def rms(self, x, w):
        h = x.to(torch.float32)
        var = h.pow(2).mean(-1, keepdim=True)
        return w * (h * torch.rsqrt(var + 1e-6))

    @staticmethod
    def rot(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def forward(self, x):
        b, s, _ = x.shape
        h = self.rms(x, self.norm1_weight)
        q, k, v = self.qkv(h).split([self.heads * self.hd, self.kv_heads * self.hd, self.kv_heads * self.hd], -1)
        q = q.view(b, s, self.heads, self.hd).transpose(1, 2)
        k = k.view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        v = v.view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        cos = self.rope_cos[:, self.positions].unsqueeze(1)
        sin = self.rope_sin[:, self.positions].unsqueeze(1)
        q = q * cos + self.rot(q) * sin
        k = k * cos + self.rot(k) * sin
        a = torch.ops.irx.sdpa(q, k, v, is_causal=True, enable_gqa=True)
        a = a.transpose(1, 2).reshape(b, s, self.dim)
        x = x + self.o(a)
        h = self.rms(x, self.norm2_weight)
        h16 = torch.ops.irx.to_dtype(h, torch.float16)
        g = F.silu(self.gate(h16.to(torch.float32))) * self.up(h)
        x = x + self.down(g)
        return torch.ops.irx.rms_norm(x, [self.dim], self.final_norm_weight, 1e-5)


# Hugging Face-style decoder models (module names as in transformers' Llama / DeepSeek-V3),
# tiny, so that ops can be attributed to a real module hierarchy.
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(dim) + 0.5)
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim, max_pos=16, base=10000.0):
        super().__init__()
        inv = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        freqs = torch.outer(torch.arange(max_pos).float(), inv)
        emb = torch.cat([freqs, freqs], -1)                    # [max_pos, head_dim]
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, x, position_ids):
        return self.cos_cached[position_ids], self.sin_cached[position_ids]   # [1, seq, head_dim] each


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class Attention(nn.Module):
    def __init__(self, dim, heads, kv_heads):
        super().__init__()
        self.hd = dim // heads
        self.q_proj = nn.Linear(dim, heads * self.hd, bias=False)
        self.k_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(dim, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(heads * self.hd, dim, bias=False)

    def forward(self, hidden_states, position_embeddings):
        b, s, _ = hidden_states.shape
        shape = (b, s, -1, self.hd)
        q = self.q_proj(hidden_states).view(shape).transpose(1, 2)
        k = self.k_proj(hidden_states).view(shape).transpose(1, 2)
        v = self.v_proj(hidden_states).view(shape).transpose(1, 2)
        cos, sin = position_embeddings
        q, k = apply_rotary_pos_emb(q, k, cos, sin)
        a = torch.ops.irx.sdpa(q, k, v, is_causal=True, enable_gqa=True)
        a = a.transpose(1, 2).reshape(b, s, -1)
        return self.o_proj(a)


class MLP(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.gate_proj = nn.Linear(dim, hidden, bias=False)
        self.up_proj = nn.Linear(dim, hidden, bias=False)
        self.down_proj = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class MoE(nn.Module):
    """Sparse MoE block (DeepSeek-V3-like): sigmoid router, top-k, dense routing matrix via scatter,
    experts evaluated together from their stacked weights with einsum, plus shared experts.
    The experts' forward() never runs: their weights are read directly."""

    def __init__(self, dim, hidden, n_experts=8, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.gate = nn.Linear(dim, n_experts, bias=False)
        self.experts = nn.ModuleList([MLP(dim, hidden) for _ in range(n_experts)])
        self.shared_experts = MLP(dim, hidden)

    def forward(self, hidden_states):
        b, s, d = hidden_states.shape
        h = hidden_states.view(-1, d)                                   # [T, d]
        scores = torch.sigmoid(self.gate(h))                            # [T, E]
        top_w, top_i = torch.topk(scores, self.top_k, dim=-1)
        top_w = top_w / top_w.sum(-1, keepdim=True)
        routing = torch.zeros_like(scores).scatter(1, top_i, top_w)    # [T, E], zero off the top-k
        wg = torch.stack([e.gate_proj.weight for e in self.experts])   # [E, I, d]
        wu = torch.stack([e.up_proj.weight for e in self.experts])
        wd = torch.stack([e.down_proj.weight for e in self.experts])   # [E, d, I]
        act = F.silu(torch.einsum("td,eid->tei", h, wg)) * torch.einsum("td,eid->tei", h, wu)
        out = torch.einsum("tei,edi->ted", act, wd)
        y = (out * routing.unsqueeze(-1)).sum(1)                        # weighted sum over experts
        return (y + self.shared_experts(h)).view(b, s, d)


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads, kv_heads, hidden, moe=False):
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = Attention(dim, heads, kv_heads)
        self.post_attention_layernorm = RMSNorm(dim)
        self.mlp = MoE(dim, hidden // 4) if moe else MLP(dim, hidden)

    def forward(self, hidden_states, position_embeddings):
        residual = hidden_states
        hidden_states = self.self_attn(self.input_layernorm(hidden_states), position_embeddings)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.mlp(self.post_attention_layernorm(hidden_states))
        return residual + hidden_states


class TinyDecoder(nn.Module):
    """Llama-like causal LM: embed_tokens, layers.N.{input_layernorm, self_attn.{q,k,v,o}_proj,
    post_attention_layernorm, mlp}, norm, lm_head; RoPE tables are non-persistent buffers of
    rotary_emb, indexed by the lifted constant position_ids. moe_layers: indices of MoE layers."""

    def __init__(self, vocab=32, dim=16, heads=4, kv_heads=2, hidden=32, n_layers=2, seq=6, moe_layers=()):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, heads, kv_heads, hidden, i in moe_layers)
                                     for i in range(n_layers)])
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.rotary_emb = RotaryEmbedding(dim // heads)
        self.position_ids = torch.arange(seq)[None]      # lifted constant [1, seq]

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        position_embeddings = self.rotary_emb(hidden_states, self.position_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states, position_embeddings)
        return self.lm_head(self.norm(hidden_states))


# ---------------------------------------------------------------- exporter
def dtype_name(dt):
    return str(dt).replace("torch.", "")


def meta_of(name, t, producer=None, idx=0):
    d = OrderedDict(name=name, shape=list(t.shape), dtype=dtype_name(t.dtype))
    if producer is not None:
        d["producer_node"] = producer
        d["producer_output_idx"] = idx
    return d


def attr_value(v):
    if isinstance(v, (torch.dtype, torch.device, torch.layout, torch.memory_format)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [attr_value(x) for x in v]
    if isinstance(v, torch.SymInt if hasattr(torch, "SymInt") else ()):
        return int(v)
    return v


def lifted_constants(model):
    """Plain tensor attributes (neither parameter nor buffer), by dotted name: torch.export lifts these."""
    out = OrderedDict()
    for prefix, mod in model.named_modules():
        for k, v in vars(mod).items():
            if isinstance(v, torch.Tensor) and not isinstance(v, nn.Parameter) and k not in ("_parameters", "_buffers"):
                out[(prefix + "." if prefix else "") + k] = v
    return out


def set_attr(model, dotted, value):
    *path, last = dotted.split(".")
    mod = model
    for p in path:
        mod = getattr(mod, p)
    object.__setattr__(mod, last, value)


class ModuleRecorder:
    """While tracing, tag every fx node with the module whose forward() was running.

    Forward pre-hooks / forward hooks on every module of model.named_modules()
    push / pop its dotted path ("" for the root) on a stack, and
    torch.fx.Graph.create_node is wrapped so that each node it creates gets
    node.meta["irx_module"] = the top of that stack (None outside every
    forward, e.g. placeholders and the output node)."""

    def __init__(self, model):
        self.model = model

    def __enter__(self):
        stack, self.handles = [], []
        self.stack = stack
        for path, mod in self.model.named_modules():
            def pre(mod, inp, path=path):
                stack.append(path)

            def post(mod, inp, out, path=path):
                assert stack and stack[-1] == path, (stack, path)
                stack.pop()          # returns None: the output is left alone
            self.handles.append(mod.register_forward_pre_hook(pre))
            self.handles.append(mod.register_forward_hook(post))
        self.saved = torch.fx.Graph.create_node

        orig = self.saved

        def create_node(graph, *args, **kwargs):
            n = orig(graph, *args, **kwargs)
            n.meta["irx_module"] = stack[-1] if stack else None
            return n
        torch.fx.Graph.create_node = create_node
        return self

    def __exit__(self, *exc):
        torch.fx.Graph.create_node = self.saved
        for h in self.handles:
            h.remove()
        if exc[0] is None:
            assert not self.stack, self.stack


def _owner(dotted):
    """Module path owning a state_dict / constant name: 'layers.0.q_proj.weight' -> 'layers.0.q_proj'."""
    return dotted.rsplit(".", 1)[0] if "." in dotted else ""


def _within(path, ancestor):
    return ancestor == "" or path == ancestor or path.startswith(ancestor + ".")


def export(model, example_inputs, input_names, model_name, lowering):
    model.eval()
    params = OrderedDict(model.named_parameters())
    buffers = OrderedDict(model.named_buffers())
    state_keys = set(model.state_dict().keys())
    consts = lifted_constants(model)
    # Signature order as torch.export: parameters, buffers, lifted constants.
    entries = [("p_", n, t) for n, t in params.items()] + [("b_", n, t) for n, t in buffers.items()] + \
              [("c_", n, t) for n, t in consts.items()]
    n_w = len(entries)

    def flat_fn(*flat):
        wd = {n: flat[i] for i, (kind, n, _) in enumerate(entries) if kind != "c_"}
        saved = {}
        for i, (kind, n, _) in enumerate(entries):
            if kind == "c_":
                saved[n] = consts[n]
                set_attr(model, n, flat[i])
        try:
            return stateless.functional_call(model, wd, tuple(flat[n_w:]))
        finally:
            for n, v in saved.items():
                set_attr(model, n, v)

    flat_args = [t.detach() for _, _, t in entries] + list(example_inputs)
    with torch.no_grad(), lowering, ModuleRecorder(model):
        gm = make_fx(flat_fn)(*flat_args)

    # Run the traced graph once with real values: shapes/dtypes of every value
    # (tuple outputs carry no tensor_meta) and the intermediates reference.
    values = {}

    class Rec(torch.fx.Interpreter):
        def run_node(self, n):
            r = super().run_node(n)
            values[n] = tuple(x.clone() if isinstance(x, torch.Tensor) else x for x in r) \
                if isinstance(r, (tuple, list)) else (r.clone() if isinstance(r, torch.Tensor) else r)
            return r
    with torch.no_grad():
        Rec(gm).run(*flat_args)

    graph = gm.graph
    nodes = list(graph.nodes)
    # Drop getitems nobody reads (torch.export only emits used ones).
    for n in nodes:
        if n.op == "call_function" and n.target is operator.getitem and not n.users:
            graph.erase_node(n)
    # Drop slices that select everything (x[:, i] traces a slice on dim 0 in
    # 1.13; torch.export on 2.x does not emit it).
    for n in list(graph.nodes):
        if n.op == "call_function" and n.target is torch.ops.aten.slice.Tensor:
            src = n.args[0]
            dim = n.args[1] if len(n.args) > 1 else 0
            start = n.args[2] if len(n.args) > 2 else None
            end = n.args[3] if len(n.args) > 3 else None
            step = n.args[4] if len(n.args) > 4 else 1
            size = values[src].shape[dim]
            if start in (None, 0) and (end is None or end >= size) and step == 1:
                n.replace_all_uses_with(src)
                graph.erase_node(n)
    nodes = list(graph.nodes)

    # Names: placeholders p_/b_/c_/input names; ops named after the op, deduplicated as fx does.
    placeholders = [n for n in nodes if n.op == "placeholder"]
    names, used, counters = {}, set(), {}
    mapping = OrderedDict()
    for i, n in enumerate(placeholders):
        if i < n_w:
            kind, orig, _ = entries[i]
            names[n] = kind + orig.replace(".", "_")
            mapping[names[n]] = orig
        else:
            names[n] = input_names[i - n_w]
        used.add(names[n])

    def op_type_of(n):
        if n.target is operator.getitem:
            return "<built-in function getitem>"
        ns = n.target.namespace
        pkt = n.target._schema.name.split("::")[1]
        ovl = n.target._overloadname
        if ns == "irx":
            return _MARKERS[pkt]
        return f"aten.{pkt}.{ovl}"

    def base_name(op_type):
        if op_type.startswith("<"):
            return "getitem"
        return op_type.split(".")[1]

    for n in nodes:
        if n.op != "call_function":
            continue
        base = base_name(op_type_of(n))
        k = counters.get(base, 0)
        cand = base if k == 0 else f"{base}_{k}"
        while cand in used:
            k += 1
            cand = f"{base}_{k}"
        counters[base] = k + 1
        names[n] = cand
        used.add(cand)

    def out_names(n):
        v = values[n]
        if isinstance(v, tuple):
            return [f"{names[n]}_{i}" for i in range(len(v))]
        return [names[n]]

    def tensor_ref(arg):
        """TensorMeta of a node argument that is an fx Node."""
        if arg.op == "placeholder":
            i = placeholders.index(arg)
            if i < n_w:
                return meta_of(names[arg], values[arg])
            return meta_of(names[arg], values[arg], names[arg], 0)
        if arg.target is operator.getitem:
            return meta_of(names[arg], values[arg], names[arg], 0)
        return meta_of(names[arg], values[arg], names[arg], 0)

    ir_nodes, intermediates, modules = [], OrderedDict(), OrderedDict()
    for n in nodes:
        if n.op != "call_function":
            continue
        op_type = op_type_of(n)
        inputs, attrs = [], OrderedDict()
        if n.target is operator.getitem:
            src, index = n.args
            for i, t in enumerate(values[src]):
                inputs.append(meta_of(out_names(src)[i], t, names[src], i))
            attrs["index"] = index
        else:
            schema = n.target._schema
            sizes, masks = [], []
            for i, a in enumerate(schema.arguments):
                if i < len(n.args):
                    v = n.args[i]
                elif a.name in n.kwargs:
                    v = n.kwargs[a.name]
                else:
                    continue
                ty = str(a.type)
                if ty in ("List[Tensor]", "List[Optional[Tensor]]"):
                    sizes.append(sum(1 for x in v if x is not None))
                    if any(x is None for x in v):
                        masks.append([x is None for x in v])
                    inputs += [tensor_ref(x) for x in v if x is not None]
                elif isinstance(v, torch.fx.Node):
                    inputs.append(tensor_ref(v))
                elif ty in ("Tensor", "Optional[Tensor]") and v is None:
                    continue
                else:
                    if a.has_default_value() and _same(v, a.default_value):
                        continue
                    attrs[a.name] = attr_value(v)
            if sizes:
                attrs["_tensor_list_sizes"] = sizes
            if masks:
                attrs["_tensor_list_none_masks"] = masks
        v = values[n]
        outs = v if isinstance(v, tuple) else (v,)
        outputs = [meta_of(name, t) for name, t in zip(out_names(n), outs)]
        for name, t in zip(out_names(n), outs):
            intermediates[name] = t
        ir_nodes.append(OrderedDict(name=names[n], op_type=op_type, inputs=inputs, outputs=outputs, attrs=attrs))
        mod = n.meta.get("irx_module", "missing")
        assert mod is not None and mod != "missing", (model_name, names[n], mod)
        modules[names[n]] = mod
        # Consistency: an nn.Linear/Conv2d/BatchNorm op runs in the module owning its weight, and any
        # op reading a parameter or buffer runs in that parameter's module or one of its ancestors.
        for t in inputs:
            orig = mapping.get(t["name"])
            if orig is None or t["name"].startswith("c_"):
                continue
            if op_type in ("aten.linear.default", "aten.conv2d.default",
                           "aten._native_batch_norm_legit_no_training.default"):
                assert _owner(orig) == mod, (model_name, names[n], orig, mod)
            assert _within(_owner(orig), mod), (model_name, names[n], orig, mod)

    out_node = nodes[-1]
    out_args = out_node.args[0]
    out_args = out_args if isinstance(out_args, (tuple, list)) else (out_args,)
    graph_outputs = [meta_of(names[a], values[a]) for a in out_args]

    weights = [meta_of(orig, t) for _, orig, t in entries]
    constants = OrderedDict()
    for kind, orig, t in entries:
        if kind == "c_" or (kind == "b_" and orig not in state_keys):
            constants[orig] = OrderedDict(data=t.tolist(), dtype=dtype_name(t.dtype))
    ir = OrderedDict()
    ir["model_name"] = model_name
    ir["pytorch_version"] = torch.__version__
    ir["graph_inputs"] = [meta_of(nm, t) for nm, t in zip(input_names, example_inputs)]
    ir["graph_outputs"] = graph_outputs
    ir["weights"] = weights
    ir["weight_name_mapping"] = mapping
    ir["nodes"] = ir_nodes
    if constants:
        ir["constants"] = constants
    const_tensors = OrderedDict((k, t.clone()) for kind, k, t in entries
                                if kind == "c_" or (kind == "b_" and k not in state_keys))
    assert list(modules) == [nd["name"] for nd in ir_nodes]
    return ir, intermediates, const_tensors, modules


def _same(v, d):
    try:
        if isinstance(d, (list, tuple)) or isinstance(v, (list, tuple)):
            dl = list(d) if isinstance(d, (list, tuple)) else None
            vl = list(v) if isinstance(v, (list, tuple)) else None
            if dl is None:   # int[2] default written as a bare int (stride=1)
                return all(x == d for x in vl)
            return vl == dl
        return type(v) == type(d) and v == d
    except Exception:
        return False


def write_fixture(outdir, fname, model, inputs, input_names, model_name, lowering, intermediates=False):
    model.eval()
    with torch.no_grad():
        eager = model(*inputs)
    eager = eager if isinstance(eager, tuple) else (eager,)
    ir, inter, consts, modules = export(model, inputs, input_names, model_name, lowering)
    # The traced graph must reproduce eager, or the exporter is wrong.
    for meta, e in zip(ir["graph_outputs"], eager):
        got = inter[meta["name"]]
        assert got.dtype == e.dtype and got.shape == e.shape and torch.allclose(got, e, rtol=1e-5, atol=1e-6), \
            (fname, meta["name"])
    base = os.path.join(outdir, fname)
    with open(base + ".json", "w") as f:
        json.dump(ir, f, indent=2)
    if "constants" in ir:
        meta_ir = OrderedDict((k, v) for k, v in ir.items() if k != "constants")
        with open(base + ".meta.json", "w") as f:
            json.dump(meta_ir, f, indent=2)
        torch.save(consts, base + ".constants.pt")
    with open(base + ".modules.json", "w") as f:
        json.dump(OrderedDict(model=fname, nodes=modules), f, indent=2)
    torch.save(model.state_dict(), base + ".weights.pt")
    torch.save(OrderedDict(zip(input_names, inputs)), base + ".inputs.pt")
    torch.save(OrderedDict((m["name"], e) for m, e in zip(ir["graph_outputs"], eager)), base + ".expected.pt")
    if intermediates:
        torch.save(inter, base + ".intermediates.pt")
        bad = OrderedDict(inter)
        names = [n["outputs"][0]["name"] for n in ir["nodes"] if n["outputs"]
                 and inter[n["outputs"][0]["name"]].is_floating_point()]
        victim = names[len(names) // 2]
        node = next(n["name"] for n in ir["nodes"] if any(o["name"] == victim for o in n["outputs"]))
        t = bad[victim].clone(memory_format=torch.contiguous_format)
        t.view(-1)[0] += 1.0
        bad[victim] = t
        torch.save(bad, base + ".intermediates_bad.pt")
        with open(base + ".intermediates_bad.json", "w") as f:
            json.dump({"node": node, "tensor": victim}, f, indent=2)
    return ir


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ir")
    os.makedirs(outdir, exist_ok=True)
    torch.manual_seed(1)
    write_fixture(outdir, "simple_mlp", SimpleMLP(), (torch.randn(1, 4),), ["x"], "SimpleMLP", Lowering())
    write_fixture(outdir, "masked_linear", MaskedLinear(), (torch.randn(1, 4),), ["x"], "MaskedLinear", Lowering())
    write_fixture(outdir, "gather_with_index", GatherWithIndex(), (torch.randn(1, 8),), ["x"], "GatherWithIndex",
                  Lowering())
    write_fixture(outdir, "buffer_vs_constant", BufferVsConstant(), (torch.randn(1, 4),), ["x"], "BufferVsConstant",
                  Lowering())
    write_fixture(outdir, "resnet_tiny", tiny_resnet(), (torch.randn(1, 3, 32, 32),), ["x"], "ResNet",
                  Lowering(batch_norm=True))
    write_fixture(outdir, "cnn_bn", CnnBn(), (torch.randn(2, 3, 10, 10),), ["x"], "CnnBn",
                  Lowering(conv2d=True, batch_norm=True))
    write_fixture(outdir, "llama_block", LlamaBlock(), (torch.randn(1, 6, 16),), ["x"], "LlamaBlock",
                  Lowering(), intermediates=True)
    # Seeded on their own, after the others, so adding them changed no older fixture.
    torch.manual_seed(2)
    write_fixture(outdir, "tiny_llama", TinyDecoder(), (torch.randint(0, 32, (1, 6)),), ["input_ids"],
                  "TinyLlama", Lowering())
    torch.manual_seed(3)
    write_fixture(outdir, "tiny_moe", TinyDecoder(n_layers=2, moe_layers=(1,)), (torch.randint(0, 32, (1, 6)),),
                  ["input_ids"], "TinyMoE", Lowering())


if __name__ == "__main__":
    main()
