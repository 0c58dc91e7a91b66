"""Part 2 of the corpus (see real_cases.py): one small probe model per IR trait.

Most probes are a Probe subclass - two 8x8 linears (lin, lin2) - whose forward() is the decorated
function, so graph input names are that function's argument names; the rest are small modules.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from real_cases import _ids, _proj, _randomize_bn, _x, case  # noqa: F401


class Probe(nn.Module):
    """Two small linears (lin, lin2); probe() subclasses it with the probe body as forward()."""

    def __init__(self, d=8):
        super().__init__()
        self.lin, self.lin2 = _proj(d, d), _proj(d, d)


def probe(name, traits, inputs, d=8, dtype=None):
    """Register fn(self, x, ...) as the forward() of a Probe subclass named after the case.

    fn's own signature becomes forward()'s, so the IR's graph inputs get fn's argument names and
    model_name (the class name) is the case name in CamelCase.
    """
    def deco(fn):
        cls = type("".join(w.capitalize() for w in name.split("_")), (Probe,), {"forward": fn})

        def build():
            m = cls(d)
            if dtype is not None:
                m = m.to(dtype)
            ins = inputs()
            return m, tuple(t.to(dtype) if dtype is not None and t.is_floating_point() else t for t in ins)
        case(name, traits)(build)
        return fn
    return deco


@probe("slice_assign_new_empty", ["new_empty", "slice_assign", "copy_", "view_mutation"], lambda: _x(2, 8))
def _slice_assign(m, x):
    buf = x.new_empty(x.shape[0], 16)
    buf[:, :8] = m.lin(x)
    buf[:, 8:] = torch.tanh(x)
    return buf.sum(-1), buf * 2


@probe("index_put", ["index_put_", "int_input"],
       lambda: (torch.randn(4, 8), torch.tensor([2, 0]), torch.tensor([1, 1, 3])))
def _index_put(m, x, idx, dup_idx):
    t = x.clone()
    t[idx] = m.lin(x[:2])
    u = torch.zeros_like(x)
    u.index_put_((dup_idx,), x[:3], accumulate=True)
    return t, u


@probe("scatter_", ["scatter_", "scatter_reduce_string"], lambda: _x(2, 8))
def _scatter(m, x):
    idx = x.argsort(dim=1)[:, :3]
    z = torch.zeros_like(x)
    z.scatter_(1, idx, m.lin(x))
    w = torch.ones_like(x)
    w.scatter_(1, idx, 2.0, reduce="add")
    return z, w


@probe("copy_into_view", ["copy_", "view_mutation", "multi_input"], lambda: (torch.randn(2, 8), torch.randn(2, 2)))
def _copy_into_view(m, x, z):
    y = m.lin(x)
    y[:, 1:3].copy_(z)
    return m.lin2(y)


@probe("add_on_view", ["add_", "view_mutation", "scalar_attr"], lambda: _x(2, 8))
def _add_on_view(m, x):
    y = m.lin(x)
    y[0].add_(1)
    return y * 2


@probe("no_grad_in_forward", ["hop_set_grad_enabled"], lambda: _x(2, 8))
def _no_grad(m, x):
    with torch.no_grad():
        h = m.lin(x).relu()
    return m.lin2(h) + x


@probe("autocast_in_forward", ["hop_autocast", "bfloat16", "dtype_cast"], lambda: _x(2, 8))
def _autocast(m, x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        h = m.lin(x)
    return h.float() + m.lin2(x)


def _ln_gelu_softmax(m, x):
    h = F.layer_norm(m.lin(x), (8,))
    return F.softmax(F.gelu(h) @ m.lin2.weight, dim=-1)


probe("half_model", ["float16", "layer_norm", "gelu", "softmax"], lambda: _x(2, 8), dtype=torch.float16)(_ln_gelu_softmax)
probe("bfloat16_model", ["bfloat16", "layer_norm", "gelu", "softmax"], lambda: _x(2, 8), dtype=torch.bfloat16)(_ln_gelu_softmax)


@probe("to_fp16_roundtrip", ["dtype_cast", "float16", "assert_tensor_metadata"], lambda: _x(2, 8))
def _to_fp16(m, x):
    h = m.lin(x).to(torch.float16)
    return (h * 3).to(torch.float32) + x


def _qkv(m, x, heads=2):
    b, n, d = x.shape
    return [t.view(b, n, heads, d // heads).transpose(1, 2) for t in (m.lin(x), m.lin2(x), x)]


@probe("sdpa_bool_mask", ["sdpa", "bool_input"], lambda: (torch.randn(1, 5, 8), torch.rand(1, 1, 5, 5) > 0.3))
def _sdpa_bool(m, x, mask):
    q, k, v = _qkv(m, x)
    mask = mask | torch.eye(5, dtype=torch.bool)     # every query sees at least itself
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@probe("sdpa_float_mask", ["sdpa", "additive_mask"], lambda: (torch.randn(1, 5, 8), torch.randn(1, 1, 5, 5)))
def _sdpa_float(m, x, mask):
    q, k, v = _qkv(m, x)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@probe("sdpa_causal", ["sdpa", "is_causal", "scale_kwarg"], lambda: _x(1, 5, 8))
def _sdpa_causal(m, x):
    q, k, v = _qkv(m, x)
    return F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3)


@probe("sdpa_gqa", ["sdpa", "enable_gqa"], lambda: _x(1, 5, 8))
def _sdpa_gqa(m, x):
    b, n, _ = x.shape
    q = m.lin(x).view(b, n, 4, 2).transpose(1, 2)
    k = m.lin2(x)[..., :4].view(b, n, 2, 2).transpose(1, 2)
    v = x[..., 4:].reshape(b, n, 2, 2).transpose(1, 2)
    return F.scaled_dot_product_attention(q, k, v, enable_gqa=True, is_causal=True)


class RMSNormProbe(nn.Module):
    def __init__(self):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(16), nn.RMSNorm(16, eps=1e-5, elementwise_affine=False)
        nn.init.normal_(self.n1.weight, 1.0, 0.1)

    def forward(self, x):
        return self.n2(self.n1(x) * 3)


class BNNoAffine(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(3, 4, 1), nn.BatchNorm2d(4, affine=False)

    def forward(self, x):
        return self.bn(self.conv(x))


case("rms_norm", ["rms_norm", "optional_tensor_none", "eps_none"])(lambda: (RMSNormProbe(), _x(2, 4, 16)))
case("batchnorm_no_affine", ["batch_norm", "optional_tensor_none", "dropped_none_ambiguous"])(
    lambda: (_randomize_bn(BNNoAffine()), _x(1, 3, 4, 4)))


@probe("clamp_tensor_max", ["clamp_tensor", "dropped_none_ambiguous"], lambda: _x(2, 8))
def _clamp(m, x):
    return torch.clamp(x, max=m.lin(x)), torch.clamp(x, min=m.lin2(x))


@probe("max_dim_and_binary", ["max_dim", "multi_output_op", "getitem", "int_output"], lambda: _x(2, 4, 8))
def _max(m, x):
    values, indices = torch.max(x, dim=1)
    return torch.max(values, m.lin(values)), indices


@probe("masked_fill_inf_softmax", ["masked_fill", "neg_inf_attr", "softmax", "triu", "ones_dtype_attr"], lambda: _x(1, 6, 8))
def _masked_fill(m, x):
    scores = m.lin(x) @ x.transpose(1, 2)
    mask = torch.ones(6, 6, dtype=torch.bool).triu(1)
    return scores.masked_fill(mask, float("-inf")).softmax(-1)


@probe("topk_unsorted", ["topk", "multi_output_op", "int_output"], lambda: _x(2, 8))
def _topk(m, x):
    v, i = torch.topk(m.lin(x), 3, dim=-1, sorted=False)
    return v.sum(-1), i


class EmbedLNGelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb, self.pos = nn.Embedding(20, 16, padding_idx=0), nn.Embedding(8, 16)
        self.ln, self.fc = nn.LayerNorm(16), _proj(16, 16)

    def forward(self, ids):
        h = self.emb(ids) + self.pos.weight[: ids.shape[1]]
        return F.gelu(self.fc(self.ln(h)), approximate="tanh")


class ConvGroups(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw, self.pw = nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.Conv2d(8, 16, 1)
        self.gn, self.up = nn.GroupNorm(4, 16), nn.ConvTranspose2d(16, 4, 2, stride=2)

    def forward(self, x):
        return self.up(F.silu(self.gn(self.pw(self.dw(x)))))


class TinyLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm, self.fc = nn.LSTM(8, 8, num_layers=1, batch_first=True), _proj(8, 4)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out), h, c


class MHA(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(16, 2, batch_first=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


case("embedding_ln_gelu", ["embedding", "padding_idx", "layer_norm", "gelu_tanh", "int_input"])(
    lambda: (EmbedLNGelu(), (torch.randint(0, 20, (2, 5)),)))
case("conv_groups", ["conv2d_groups", "group_norm", "silu", "conv_transpose2d"])(lambda: (ConvGroups(), _x(1, 8, 4, 4)))
case("lstm", ["lstm", "tensor_list_args", "multi_output"])(lambda: (TinyLSTM(), _x(1, 5, 8)))
case("multihead_attention", ["nn_multihead_attention"])(lambda: (MHA(), _x(1, 5, 16)))


@probe("split_chunk_unbind", ["split", "chunk", "unbind", "multi_output_op", "getitem"], lambda: _x(2, 3, 8))
def _split(m, x):
    a, b = x.split([3, 5], dim=-1)
    c, d = m.lin(x).chunk(2, dim=-1)
    r0, r1, r2 = x.unbind(1)
    return torch.cat([a * 2, b], -1) + torch.cat([d, c], -1), r0 + r1 - r2


@probe("arange_mask_in_forward", ["arange", "device_attr", "comparison", "where_scalar"], lambda: _x(1, 6, 8))
def _arange_mask(m, x):
    n = x.shape[1]
    pos = torch.arange(n, device=x.device)
    allowed = pos.unsqueeze(0) <= pos.unsqueeze(1)
    scores = m.lin(x) @ x.transpose(1, 2)
    return torch.where(allowed, scores, -1e4).softmax(-1)


@probe("dropout_eval", ["dropout"], lambda: _x(2, 8))
def _dropout(m, x):
    return F.dropout(m.lin(x), p=0.25, training=m.training) + nn.functional.dropout1d(x.unsqueeze(0), 0.5, False)[0]


@probe("interpolate", ["upsample_nearest", "upsample_bilinear", "scale_factor"], lambda: _x(1, 2, 3, 3))
def _interp(m, x):
    return F.interpolate(x, scale_factor=2, mode="nearest"), F.interpolate(x, size=(5, 4), mode="bilinear", align_corners=False)


@probe("passthrough_outputs", ["output_is_input", "duplicate_output", "unused_input"],
       lambda: (torch.randn(2, 8), torch.randn(3)))
def _passthrough(m, x, unused):
    y = m.lin(x)
    return x, y, y


@probe("int_mask_input", ["int_input", "dtype_cast", "additive_mask", "expand"],
       lambda: (torch.randn(2, 5, 8), torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]])))
def _int_mask(m, x, attention_mask):
    bias = (1.0 - attention_mask[:, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
    scores = m.lin(x) @ x.transpose(1, 2) + bias.expand(-1, 5, -1)
    return scores.softmax(-1) @ m.lin2(x)


@probe("einsum_bmm", ["einsum", "bmm", "baddbmm"], lambda: (torch.randn(2, 3, 8), torch.randn(2, 8, 4)))
def _einsum(m, a, b):
    return torch.einsum("bij,bjk->bik", m.lin(a), b), torch.baddbmm(torch.ones(2, 3, 4), a, b, alpha=0.5)


@probe("misc_shape_ops", ["pad", "cumsum", "flip", "roll", "permute", "expand", "repeat", "zeros_like"], lambda: _x(2, 3, 8))
def _misc(m, x):
    p = F.pad(x, (1, 2), value=0.5)
    c = torch.cumsum(m.lin(x), dim=1).flip(-1).roll(1, dims=2)
    e = x.mean(1, keepdim=True).expand(2, 3, 8).permute(0, 2, 1).repeat(1, 1, 2)
    return p, c + torch.zeros_like(c), e
