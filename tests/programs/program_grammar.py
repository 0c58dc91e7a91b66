"""A grammar of random torch.export programs that look like real models.

A program is a stack of blocks drawn from the families real models are made
of, each a piece of a model as people write it: projections with their
activations, norms (LayerNorm, RMSNorm, a hand-written one), attention with
explicit head reshapes and length-scaled scores, SwiGLU MLPs, rotary halves,
reductions and residuals, views and in-place writes through them, gathers and
scatters, top-k and sorting, casts through bfloat16 and float16, runtime sizes
(positions from arange(L) / L, first halves, data-dependent counts from
nonzero and .item()), control flow (cond, while_loop, scan, map, one inside
another), PT2E's int8 quantize / dequantize pieces, Linears quantized by
torchao's quantize_ (tensor-subclass weights), and, for image programs,
convolutions, batch norm, pooling and upsampling to twice the size.

`make_program(seed)` returns a Program: the module, its example inputs, the
dynamic shapes to export with, a second input set at another size (None for
a static program), and the blocks it was made of. Everything is drawn from
`random.Random(seed)` and torch's generator seeded with it, so a seed is a
program.
"""
import math
import random
from dataclasses import dataclass, field

import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

ACTIVATIONS = {
    "relu": torch.relu, "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu,
    "tanh": torch.tanh, "sigmoid": torch.sigmoid, "leaky_relu": lambda x: F.leaky_relu(x, 0.1), "elu": F.elu,
    "hardswish": F.hardswish, "softplus": F.softplus, "mish": F.mish,
}


@dataclass
class Program:
    seed: int
    module: nn.Module
    args: tuple
    dynamic_shapes: object
    args_b: tuple
    blocks: list = field(default_factory=list)
    dtype: torch.dtype = torch.float32


class Block(nn.Module):
    """One piece of a sequence model: [B, L, D] -> [B, L, D]."""

    def __init__(self, kind, fn, needs_even=False, **modules):
        super().__init__()
        self.kind = kind
        self.fn = fn
        self.needs_even = needs_even
        for name, m in modules.items():
            setattr(self, name, m)

    def forward(self, x):
        return self.fn(self, x)


# ---------------------------------------------------------------- sequence blocks


def linear_act(r, d):
    act = r.choice(sorted(ACTIVATIONS))
    return Block(f"linear_{act}", lambda s, x: ACTIVATIONS[act](s.lin(x)), lin=nn.Linear(d, d, bias=r.random() < 0.7))


def norm(r, d):
    kind = r.choice(["layer_norm", "rms_norm", "manual_rms"])
    if kind == "layer_norm":
        return Block(kind, lambda s, x: s.n(x), n=nn.LayerNorm(d))
    if kind == "rms_norm":
        return Block(kind, lambda s, x: s.n(x), n=nn.RMSNorm(d, eps=1e-6))
    w = nn.Parameter(1 + 0.1 * torch.randn(d))
    blk = Block(kind, lambda s, x: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * s.w)
    blk.w = w
    return blk


def attention(r, d):
    heads = r.choice([h for h in (1, 2, 4) if d % h == 0])
    causal = r.random() < 0.6
    scale = r.choice(["length", "head_dim", "sqrt_length"])
    sdpa = r.random() < 0.3

    def fn(s, x):
        B, L, D = x.shape
        H = heads
        q, k, v = s.qkv(x).chunk(3, dim=-1)
        if sdpa:
            q, k, v = (t.view(B, L, H, D // H).transpose(1, 2) for t in (q, k, v))
            a = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            return s.out(a.transpose(1, 2).reshape(B, L, D))
        q, k, v = (t.reshape(B, L, H, D // H).transpose(1, 2).reshape(B * H, L, D // H) for t in (q, k, v))
        scores = torch.bmm(q, k.transpose(1, 2))
        if scale == "length":
            scores = scores * L ** -0.5
        elif scale == "sqrt_length":
            scores = scores / torch.sym_sqrt(torch.sym_float(L)) if hasattr(torch, "sym_sqrt") else scores
        else:
            scores = scores / math.sqrt(D // H)
        if causal:
            mask = torch.ones(L, L, dtype=torch.bool).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        a = torch.bmm(scores.softmax(-1), v).view(B, H, L, D // H).transpose(1, 2).reshape(B, L, D)
        return x + s.out(a)

    return Block(f"attention_h{heads}{'_sdpa' if sdpa else ''}", fn, qkv=nn.Linear(d, 3 * d), out=nn.Linear(d, d))


def swiglu(r, d):
    hidden = r.choice([2 * d, 3 * d])
    return Block("swiglu", lambda s, x: x + s.down(F.silu(s.gate(x)) * s.up(x)),
                 gate=nn.Linear(d, hidden, bias=False), up=nn.Linear(d, hidden, bias=False),
                 down=nn.Linear(hidden, d, bias=False))


def rotary(r, d):
    half = d // 2

    def fn(s, x):
        L = x.shape[1]
        t = torch.arange(L, dtype=torch.float32)
        inv = 1.0 / (10000 ** (torch.arange(0, half, dtype=torch.float32) / half))
        freqs = torch.outer(t, inv)
        emb = torch.cat([freqs, freqs], dim=-1)
        rot = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * emb.cos() + rot * emb.sin()

    return Block("rotary", fn)


def reduction(r, d):
    kind = r.choice(["mean_pool", "amax", "sum_length", "var", "logsumexp", "norm"])
    fns = {
        "mean_pool": lambda s, x: x + x.mean(1, keepdim=True),
        "amax": lambda s, x: x - x.amax(-1, keepdim=True),
        "sum_length": lambda s, x: x + x.sum(1, keepdim=True) * (1.0 / x.shape[1]),
        "var": lambda s, x: x / (x.var(-1, keepdim=True, unbiased=False) + 1).sqrt(),
        "logsumexp": lambda s, x: x - torch.logsumexp(x, -1, keepdim=True),
        "norm": lambda s, x: x / (torch.linalg.vector_norm(x, dim=-1, keepdim=True) + 1e-3),
    }
    return Block(f"reduce_{kind}", fns[kind])


def views(r, d):
    kind = r.choice(["inplace_slice", "transpose_view", "unsqueeze_expand", "flatten_split", "flip_roll"])

    def inplace_slice(s, x):
        y = x.clone()
        y[:, :, : d // 2].mul_(0.5)
        y[..., -1:].add_(1.0)
        return y

    fns = {
        "inplace_slice": inplace_slice,
        "transpose_view": lambda s, x: x.transpose(1, 2).contiguous().transpose(1, 2) * 2 - x,
        "unsqueeze_expand": lambda s, x: (x.unsqueeze(2).expand(-1, -1, 2, -1).sum(2)) * 0.5,
        "flatten_split": lambda s, x: torch.cat(list(x.split(d // 2, dim=-1))[::-1], dim=-1),
        "flip_roll": lambda s, x: x.flip(-1).roll(1, dims=-1) + x,
    }
    return Block(f"view_{kind}", fns[kind])


def gather_scatter(r, d):
    kind = r.choice(["gather_sorted", "scatter_add", "index_select", "index_add", "take_along"])
    k = max(1, d // 4)

    def gather_sorted(s, x):
        idx = x.argsort(-1)
        return x.gather(-1, idx) + x

    def scatter_add(s, x):
        idx = (torch.arange(d) % k).expand_as(x)
        return x + torch.zeros(x.shape[0], x.shape[1], k).scatter_add(-1, idx, x).mean(-1, keepdim=True)

    def index_select(s, x):
        idx = torch.tensor(list(range(0, d, 2)) + list(range(1, d, 2)))
        return x.index_select(-1, idx)

    def index_add(s, x):
        idx = torch.tensor([i % k for i in range(d)])
        return x + torch.zeros(k, x.shape[0], x.shape[1]).index_add(0, idx, x.permute(2, 0, 1)).sum(0).unsqueeze(-1)

    def take_along(s, x):
        idx = x.argmax(-1, keepdim=True)
        return x - torch.take_along_dim(x, idx, dim=-1)

    return Block(f"gather_{kind}", {"gather_sorted": gather_sorted, "scatter_add": scatter_add,
                                    "index_select": index_select, "index_add": index_add,
                                    "take_along": take_along}[kind])


def topk_sort(r, d):
    k = r.choice([1, 2, max(1, d // 4)])
    kind = r.choice(["topk", "sort", "argmax_onehot", "cummax"])

    def topk(s, x):
        vals, idx = x.topk(k, dim=-1)
        return x + vals.sum(-1, keepdim=True) * 0.1 + idx[..., :1].to(x.dtype) * 0.01

    def sort(s, x):
        vals, _ = x.sort(-1, descending=True)
        return vals.cumsum(-1) / d

    def argmax_onehot(s, x):
        return x + F.one_hot(x.argmax(-1), d).to(x.dtype)

    def cummax(s, x):
        return torch.cummax(x, dim=1).values - x

    return Block(f"decide_{kind}", {"topk": topk, "sort": sort, "argmax_onehot": argmax_onehot, "cummax": cummax}[kind])


def cast_roundtrip(r, d):
    low = r.choice([torch.bfloat16, torch.float16])
    return Block(f"cast_{str(low).split('.')[-1]}", lambda s, x: (s.lin(x.to(low).float())).to(low).float(),
                 lin=nn.Linear(d, d))


def elementwise(r, d):
    kind = r.choice(["where_clamp", "exp_log", "erf", "sin_cos", "pow_sqrt", "reciprocal", "sign_abs", "round_floor"])
    fns = {
        "where_clamp": lambda s, x: torch.where(x > 0, x, 0.1 * x).clamp(-3.0, 3.0),
        "exp_log": lambda s, x: torch.log1p(torch.exp(-x.abs())) + x,
        "erf": lambda s, x: torch.erf(x) * 0.5 + x,
        "sin_cos": lambda s, x: torch.sin(x) + torch.cos(x) * 0.5,
        "pow_sqrt": lambda s, x: torch.sqrt(x.pow(2) + 1.0) - 1.0,
        "reciprocal": lambda s, x: x * torch.reciprocal(x.abs() + 1.0),
        "sign_abs": lambda s, x: torch.sign(x) * x.abs().sqrt(),
        "round_floor": lambda s, x: x + torch.floor(x * 4) * 0.01 + torch.round(x * 3) * 0.01,
    }
    return Block(f"elementwise_{kind}", fns[kind])


def conv1d(r, d):
    return Block("conv1d", lambda s, x: x + s.conv(x.transpose(1, 2)).transpose(1, 2),
                 conv=nn.Conv1d(d, d, 3, padding=1, groups=r.choice([1, d // 2 if d >= 2 else 1])))


def positions(r, d):
    return Block("positions", lambda s, x: x + (torch.arange(x.shape[1], dtype=torch.float32) / x.shape[1])[None, :, None])


def halves(r, d):
    def fn(s, x):
        L = x.shape[1]
        first, second = x[:, : L // 2], x[:, L // 2:]
        return torch.cat([second * 0.5, first], dim=1)

    return Block("halves", fn, needs_even=True)


def nonzero_rows(r, d):
    def fn(s, x):
        rows = x.reshape(-1, x.shape[-1])
        idx = torch.nonzero(rows[:, 0] > 0).squeeze(-1)
        picked = s.lin(rows[idx])
        return rows.index_add(0, idx, picked).reshape(x.shape)

    return Block("nonzero_rows", fn, lin=nn.Linear(d, d))


def item_count(r, d):
    def fn(s, x):
        n = (x[0, :, 0] > 0).sum().item()
        torch._check(n >= 0)
        torch._check(n <= x.shape[1])
        return x + x[:, :n].sum(1, keepdim=True) * 0.1

    return Block("item_count", fn)


def quantize_dequantize(r, d):
    import torch.ao.quantization.fx._decomposed  # noqa: F401 - registers quantized_decomposed

    scale = r.choice([0.02, 0.05, 0.1])
    zero = r.choice([0, 3, -5])

    def fn(s, x):
        q = torch.ops.quantized_decomposed.quantize_per_tensor(x, scale, zero, -128, 127, torch.int8)
        return torch.ops.quantized_decomposed.dequantize_per_tensor(q, scale, zero, -128, 127, torch.int8)

    return Block("int8_qdq", fn)


def torchao_linear(r, d):
    """A Linear quantized by torchao's quantize_: its weight becomes a tensor
    subclass (Int8Tensor) the program reads by parts; int8 weight-only, or
    int8 dynamic activations with int8 weights (_int_mm)."""
    try:
        from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_
    except ImportError:  # without torchao, a plain projection
        return linear_act(r, d)
    dynamic = r.random() < 0.5
    act = r.choice(list(ACTIVATIONS))
    block = Block(f"torchao_{'dynamic' if dynamic else 'weight_only'}_linear_{act}",
                  lambda s, x: ACTIVATIONS[act](s.lin(x)), lin=nn.Linear(d, d, bias=r.random() < 0.7))
    quantize_(block, Int8DynamicActivationInt8WeightConfig() if dynamic else Int8WeightOnlyConfig())
    return block


# ---------------------------------------------------------------- control flow


def cond_block(r, d, depth):
    inner_t, inner_f = draw_plain(r, d), draw_plain(r, d)
    nested = depth < 1 and r.random() < 0.4
    deeper = control_flow(r, d, depth + 1) if nested else None

    def fn(s, x):
        def true_fn(x):
            y = s.t(x)
            return s.deeper(y) if s.deeper is not None else y

        def false_fn(x):
            return s.f(x) * 0.5

        return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))

    blk = Block("cond" + ("[" + deeper.kind + "]" if deeper is not None else ""), fn, t=inner_t, f=inner_f)
    blk.deeper = deeper
    return blk


def while_block(r, d, depth):
    steps = r.choice([2, 3, 4])
    # A loop whose body branches (a cond inside while_loop), now and then.
    body = cond_block(r, d, depth + 1) if depth < 1 and r.random() < 0.3 else draw_plain(r, d)

    def fn(s, x):
        def cond_fn(i, y):
            return i < steps

        def body_fn(i, y):
            return i + 1, torch.tanh(s.body(y)) * 0.9 + y * 0.1

        _, out = torch._higher_order_ops.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))
        return out

    return Block(f"while_loop{steps}[{body.kind}]", fn, body=body)


def scan_block(r, d, depth):
    from torch._higher_order_ops.scan import scan

    def fn(s, x):
        def step(carry, xt):
            new = torch.tanh(s.lin(xt) + carry)
            return new, new * 2

        last, ys = scan(step, torch.zeros(x.shape[0], x.shape[2]), x.transpose(0, 1))
        return ys.transpose(0, 1) + last.unsqueeze(1)

    return Block("scan", fn, lin=nn.Linear(d, d))


def map_block(r, d, depth):
    from torch._higher_order_ops.map import map as hop_map

    inner = draw_plain(r, d)

    def fn(s, x):
        return hop_map(lambda row: s.inner(row.unsqueeze(0)).squeeze(0), x)

    return Block("map", fn, inner=inner)


def control_flow(r, d, depth=0):
    return r.choice([cond_block, while_block, scan_block, map_block])(r, d, depth)


PLAIN = [linear_act, norm, attention, swiglu, rotary, reduction, views, gather_scatter, topk_sort, cast_roundtrip,
         elementwise, conv1d, positions, quantize_dequantize, torchao_linear]
DYNAMIC_ONLY = [halves, nonzero_rows, item_count]
LOW_PRECISION = [linear_act, norm, attention, swiglu, reduction, views, topk_sort, elementwise, conv1d]


def draw_plain(r, d):
    """A block for a control-flow body: torch.export lifts no tensor-subclass
    weight out of a subgraph, so torchao's Linears stay at the top level."""
    return r.choice([b for b in PLAIN if b is not torchao_linear])(r, d)


class SequenceModel(nn.Module):
    def __init__(self, blocks, d, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, d) if vocab else None
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Linear(d, d)

    def forward(self, x):
        if self.embed is not None:
            x = self.embed(x)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


# ---------------------------------------------------------------- image programs


class ImageModel(nn.Module):
    def __init__(self, r, c):
        super().__init__()
        self.kinds = []
        self.stem = nn.Conv2d(3, c, 3, padding=1)
        self.bn = nn.BatchNorm2d(c)
        self.bn.running_mean.normal_(0, 0.1)
        self.bn.running_var.uniform_(0.5, 1.5)
        self.mid = nn.Conv2d(c, c, 3, padding=1, groups=r.choice([1, c]))
        self.gn = nn.GroupNorm(2, c) if r.random() < 0.5 else None
        self.pool = r.choice(["max", "avg"])
        self.up = r.choice(["nearest", "bilinear"])
        self.head = nn.Linear(c, 5)
        self.kinds = ["conv", "batch_norm", self.pool + "_pool", "upsample_" + self.up] + (["group_norm"] if self.gn else [])

    def forward(self, x):
        e = torch.relu(self.bn(self.stem(x)))
        p = F.max_pool2d(e, 2) if self.pool == "max" else F.avg_pool2d(e, 2)
        m = self.mid(p)
        if self.gn is not None:
            m = self.gn(m)
        m = F.silu(m)
        H, W = m.shape[2], m.shape[3]
        up = F.interpolate(m, size=(2 * H, 2 * W), mode=self.up,
                           **({"align_corners": False} if self.up == "bilinear" else {}))
        y = e + up
        return self.head(F.adaptive_avg_pool2d(y, 1).flatten(1)), y.amax(1)


# ---------------------------------------------------------------- programs


def make_program(seed):
    r = random.Random(seed)
    torch.manual_seed(seed)
    if r.random() < 0.12:
        c = r.choice([4, 8])
        model = ImageModel(r, c).eval()
        h, w = r.choice([2, 3, 4]), r.choice([2, 3, 4])
        dynamic = r.random() < 0.6
        args = (torch.randn(1, 3, 2 * h, 2 * w),)
        args_b = (torch.randn(1, 3, 2 * (h + 1), 2 * (w + 2)),) if dynamic else None
        shapes = ({"x": {2: 2 * Dim("half_h", min=2, max=16), 3: 2 * Dim("half_w", min=2, max=16)}}
                  if dynamic else None)
        return Program(seed, model, args, shapes, args_b, model.kinds)
    d = r.choice([8, 16, 32])
    dynamic = r.random() < 0.6
    # A bfloat16 or float16 model: blocks that make float32 tensors of their
    # own (positions, rotary tables, scatter targets, casts) stay out.
    dtype = r.choice([torch.bfloat16, torch.float16]) if r.random() < 0.1 else torch.float32
    low = dtype != torch.float32
    menu = LOW_PRECISION if low else PLAIN
    blocks = [r.choice(menu)(r, d) for _ in range(r.randint(2, 5))]
    if dynamic and r.random() < 0.5:
        blocks.insert(r.randrange(len(blocks) + 1), (halves if low else r.choice(DYNAMIC_ONLY))(r, d))
    if not low and r.random() < 0.35:
        blocks.insert(r.randrange(len(blocks) + 1), control_flow(r, d))
    vocab = 50 if r.random() < 0.25 else 0
    model = SequenceModel(blocks, d, vocab).eval().to(dtype)
    even = any(b.needs_even for b in blocks)
    b, length = r.choice([1, 2]), r.choice([4, 6, 8])
    length_b = length + (4 if even else r.choice([3, 5]))

    def example(batch, l):
        if vocab:
            return (torch.randint(0, vocab, (batch, l)),)
        return (torch.randn(batch, l, d).to(dtype),)

    args = example(b, length)
    args_b = example(b, length_b) if dynamic else None
    shapes = None
    if dynamic:
        seq = 2 * Dim("half_seq", min=1, max=32) if even else Dim("seq", min=2, max=64)
        shapes = {"x": {1: seq}}
    return Program(seed, model, args, shapes, args_b, [blk.kind for blk in blocks], dtype)
