#!/usr/bin/env python3
"""Writes a big transformer-style torch_ir JSON for benchmarks (no torch needed).

Two shapes, both written with json.dump(indent=2), as torch_ir writes files:

--shape llama (default): each layer is a Llama block as torch.export lowers it
(RMSNorm from pow/mean/add/rsqrt/mul, q/k/v projections, RoPE with
slice/neg/cat, scaled dot-product attention with a lifted causal mask,
SiLU-gated MLP, residual adds): 46 nodes. A lifted constant (the mask) and two
buffers (RoPE cos/sin) feed every layer, the high fan-out sources that make
layered layouts explode. Module names: layers.N.input_norm, layers.N.attn
(.q_proj ...), layers.N.post_norm, layers.N.mlp (.gate_proj ...).

    make_big_ir.py --nodes 100000 -o /tmp/big.json   (about 75 MB)
    make_big_ir.py --layers 4 --hidden 64 --seq 8 -o /tmp/small.json

--shape moe: one decode step (seq 1) of a Kimi-K2 / DeepSeek-V3-style MoE
model with Hugging Face names and tiny dims. embed_tokens (embedding of the
graph input input_ids), rotary_emb (rotary_emb.cos/.sin buffers indexed by the
graph input position_ids, once, shared by all layers), then per layer:
input_layernorm (RMSNorm), self_attn (q/k/v/o_proj, RoPE, the KV cache: graph
inputs past_key_N/past_value_N, each concatenated with the new k/v, the cat
results being graph outputs too, then scaled_dot_product_attention),
residual add, post_attention_layernorm, then either the dense mlp
(gate/up/down_proj, first --dense-layers layers) or the MoE mlp: router
mlp.gate (a linear with weight [E, H] and the e_score_correction_bias
buffer; the scoring with sigmoid, bias, topk + getitem, gather and
normalization is done by mlp itself), a dense [1, E] routing matrix
(zeros + scatter), the E experts applied at once (aten.stack of the E
experts.{i}.gate_proj/up_proj/down_proj weights, einsum), weighted by the
routing matrix and summed, plus mlp.shared_experts, residual add; finally
norm and lm_head (logits: graph output 0). Defaults (61 layers, 384
experts, top-8, first layer dense) give ~4,700 nodes and ~70,000 weights,
most of them fanning into 180 aten.stack nodes.

    make_big_ir.py --shape moe -o /tmp/moe.json      (Kimi-K2 layer/expert count)
    make_big_ir.py --shape moe --layers 3 --experts 16 -o /tmp/moe_small.json

--modules-out FILE (both shapes) writes {"nodes": {node name: module path}}:
for every node, the module whose forward creates the op (e.g. RMSNorm ops ->
layers.3.input_layernorm, q_proj's linear -> layers.3.self_attn.q_proj, RoPE
math -> layers.3.self_attn, residual adds -> layers.3, topk ->
layers.3.mlp, the router linear -> layers.3.mlp.gate), the ground truth for
module-recovery code.
"""
import argparse
import contextlib
import json

p = argparse.ArgumentParser(description="Write a big torch_ir JSON for benchmarks.")
p.add_argument("--shape", choices=("llama", "moe"), default="llama")
p.add_argument("--nodes", type=int, default=None, help="llama: approximate node count (sets --layers)")
p.add_argument("--layers", type=int, default=None, help="default: llama 2, moe 61")
p.add_argument("--hidden", type=int, default=None, help="default: llama 256, moe 64")
p.add_argument("--seq", type=int, default=32, help="llama: sequence length")
p.add_argument("--experts", type=int, default=384, help="moe: routed experts per MoE layer")
p.add_argument("--top-k", type=int, default=8, help="moe: experts per token")
p.add_argument("--expert-ff", type=int, default=32, help="moe: intermediate size of an expert")
p.add_argument("--dense-ff", type=int, default=128, help="moe: intermediate size of the dense MLP")
p.add_argument("--dense-layers", type=int, default=1, help="moe: leading layers with a dense MLP")
p.add_argument("--past", type=int, default=15, help="moe: tokens already in the KV cache")
p.add_argument("--vocab", type=int, default=1024, help="moe: vocabulary size")
p.add_argument("--modules-out", default=None, help="write {\"nodes\": {node: module path}} here")
p.add_argument("-o", "--output", required=True)
args = p.parse_args()

nodes, weights, mapping = [], [], {}
counts = {}
outputs_of = {}     # tensor name -> (shape, dtype)
producer_of = {}    # tensor name -> (node, output index), for multi-output nodes
weight_meta = {}    # placeholder -> (shape, dtype)
module_of = {}      # node name -> module path
module_stack = [""]


@contextlib.contextmanager
def scope(path):
    """Nodes created inside belong to module `path`."""
    module_stack.append(path)
    try:
        yield
    finally:
        module_stack.pop()


def meta(name, shape, dtype="float32", producer=None, idx=0):
    m = {"name": name, "shape": list(shape), "dtype": dtype}
    if producer is not None:
        m["producer_node"] = producer
        m["producer_output_idx"] = idx
    return m


def fresh(base):
    n = counts.get(base, 0)
    counts[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def act(name):
    shape, dtype = outputs_of[name]
    producer, idx = producer_of.get(name, (name, 0))
    return meta(name, shape, dtype, producer=producer, idx=idx)


def weight(placeholder, original, shape, dtype="float32"):
    if placeholder not in mapping:
        mapping[placeholder] = original
        weights.append(meta(original, shape, dtype))
        weight_meta[placeholder] = (list(shape), dtype)
    return meta(placeholder, shape, dtype)


def wref(placeholder):
    """A node input for an already declared weight/buffer placeholder."""
    shape, dtype = weight_meta[placeholder]
    return meta(placeholder, shape, dtype)


def placeholder_of(original, prefix="p_"):
    return prefix + original.replace(".", "_")


def node(base, op, inputs, shape, attrs=None, dtype="float32"):
    name = fresh(base)
    nodes.append({"name": name, "op_type": op, "inputs": inputs,
                  "outputs": [meta(name, shape, dtype)], "attrs": attrs or {}})
    outputs_of[name] = (shape, dtype)
    module_of[name] = module_stack[-1]
    return name


def multi_node(base, op, inputs, outs, attrs=None):
    """A node with a tuple result: outputs name_0, name_1, ...; returns their names."""
    name = fresh(base)
    metas = []
    for i, (shape, dtype) in enumerate(outs):
        t = f"{name}_{i}"
        metas.append(meta(t, shape, dtype))
        outputs_of[t] = (shape, dtype)
        producer_of[t] = (name, i)
    nodes.append({"name": name, "op_type": op, "inputs": inputs, "outputs": metas, "attrs": attrs or {}})
    module_of[name] = module_stack[-1]
    return [m["name"] for m in metas]


def getitem(outs, index):
    shape, dtype = outputs_of[outs[index]]
    return node("getitem", "<built-in function getitem>", [act(t) for t in outs], shape, {"index": index}, dtype)


# ---------------------------------------------------------------------------
# --shape llama (output unchanged from the first version of this script)

def build_llama():
    H, S, NH = args.hidden or 256, args.seq, 4
    HD = H // NH
    FF = H * 4
    NODES_PER_LAYER = 46
    layers = max(1, args.nodes // NODES_PER_LAYER) if args.nodes else (args.layers or 2)

    def rms_norm(x, w_placeholder, w_name):
        with scope(w_name.rsplit(".", 1)[0]):
            p = node("pow_1", "aten.pow.Tensor_Scalar", [act(x)], [1, S, H], {"exponent": 2})
            m = node("mean", "aten.mean.dim", [act(p)], [1, S, 1], {"dim": [-1], "keepdim": True})
            a = node("add", "aten.add.Tensor", [act(m)], [1, S, 1], {"other": 1e-06})
            r = node("rsqrt", "aten.rsqrt.default", [act(a)], [1, S, 1])
            y = node("mul", "aten.mul.Tensor", [act(x), act(r)], [1, S, H])
            return node("mul", "aten.mul.Tensor", [act(y), weight(w_placeholder, w_name, [H])], [1, S, H])

    def linear(x, prefix, out_features, in_features, in_shape):
        with scope(prefix):
            w = weight(f"p_{prefix.replace('.', '_')}_weight", f"{prefix}.weight", [out_features, in_features])
            return node("linear", "aten.linear.default", [act(x), w], in_shape[:-1] + [out_features])

    def rope(x):
        cos = weight("b_rope_cos", "rope.cos", [S, HD])
        sin = weight("b_rope_sin", "rope.sin", [S, HD])
        shape = [1, NH, S, HD]
        half = shape[:-1] + [HD // 2]
        a = node("mul", "aten.mul.Tensor", [act(x), cos], shape)
        s1 = node("slice", "aten.slice.Tensor", [act(x)], half, {"dim": 3, "start": 0, "end": HD // 2})
        s2 = node("slice", "aten.slice.Tensor", [act(x)], half, {"dim": 3, "start": HD // 2, "end": 9223372036854775807})
        n = node("neg", "aten.neg.default", [act(s2)], half)
        c = node("cat", "aten.cat.default", [act(n), act(s1)], shape, {"dim": -1, "_tensor_list_sizes": [2]})
        b = node("mul", "aten.mul.Tensor", [act(c), sin], shape)
        return node("add", "aten.add.Tensor", [act(a), act(b)], shape)

    graph_input = meta("x", [1, S, H], producer="x")
    outputs_of["x"] = ([1, S, H], "float32")
    mask = weight("c_causal_mask", "causal_mask", [S, S], "bool")
    h = "x"
    for layer in range(layers):
        pre = f"layers.{layer}"
        with scope(pre):
            n1 = rms_norm(h, f"p_layers_{layer}_input_norm_weight", f"{pre}.input_norm.weight")
            with scope(f"{pre}.attn"):
                heads = []
                for proj in ("q", "k", "v"):
                    l = linear(n1, f"{pre}.attn.{proj}_proj", H, H, [1, S, H])
                    v = node("view", "aten.view.default", [act(l)], [1, S, NH, HD], {"size": [1, S, NH, HD]})
                    t = node("transpose", "aten.transpose.int", [act(v)], [1, NH, S, HD], {"dim0": 1, "dim1": 2})
                    heads.append(t)
                q, k = rope(heads[0]), rope(heads[1])
                attn = node("scaled_dot_product_attention", "aten.scaled_dot_product_attention.default",
                            [act(q), act(k), act(heads[2]), mask], [1, NH, S, HD])
                t = node("transpose", "aten.transpose.int", [act(attn)], [1, S, NH, HD], {"dim0": 1, "dim1": 2})
                v = node("view", "aten.view.default", [act(t)], [1, S, H], {"size": [1, S, H]})
                o = linear(v, f"{pre}.attn.o_proj", H, H, [1, S, H])
            h = node("add", "aten.add.Tensor", [act(h), act(o)], [1, S, H])
            n2 = rms_norm(h, f"p_layers_{layer}_post_norm_weight", f"{pre}.post_norm.weight")
            with scope(f"{pre}.mlp"):
                g = linear(n2, f"{pre}.mlp.gate_proj", FF, H, [1, S, H])
                s = node("silu", "aten.silu.default", [act(g)], [1, S, FF])
                u = linear(n2, f"{pre}.mlp.up_proj", FF, H, [1, S, H])
                m = node("mul", "aten.mul.Tensor", [act(s), act(u)], [1, S, FF])
                d = linear(m, f"{pre}.mlp.down_proj", H, FF, [1, S, FF])
            h = node("add", "aten.add.Tensor", [act(h), act(d)], [1, S, H])

    ir = {"model_name": f"BigLlama{layers}", "pytorch_version": "2.5.1",
          "graph_inputs": [graph_input], "graph_outputs": [act(h)],
          "weights": weights, "weight_name_mapping": mapping, "nodes": nodes}
    return ir, f"{layers} layers, {len(nodes)} nodes"


# ---------------------------------------------------------------------------
# --shape moe

def build_moe():
    L = args.layers or 61
    H = args.hidden or 64
    E, K = args.experts, args.top_k
    EFF, DFF = args.expert_ff, args.dense_ff
    DENSE = min(args.dense_layers, L)
    P, V = args.past, args.vocab
    NH, NKV = 4, 2
    if H % NH or (H // NH) % 2:
        p.error("--hidden must be a multiple of 8 for the moe shape (4 heads, even head dim)")
    if not 1 <= K <= E:
        p.error("--top-k must be between 1 and --experts")
    HD = H // NH
    MAXPOS = max(128, P + 1)
    SCALING = 2.827            # Kimi-K2's routed_scaling_factor
    EPS = 1e-06

    # Parameters in named_parameters() order, then buffers in named_buffers()
    # order: the placeholder order torch.export gives them, hence torch_ir's
    # `weights` and `weight_name_mapping` order.
    def param(name, shape):
        weight(placeholder_of(name), name, shape)

    param("embed_tokens.weight", [V, H])
    for layer in range(L):
        pre = f"layers.{layer}"
        for proj, out_f in (("q", NH * HD), ("k", NKV * HD), ("v", NKV * HD)):
            param(f"{pre}.self_attn.{proj}_proj.weight", [out_f, H])
        param(f"{pre}.self_attn.o_proj.weight", [H, NH * HD])
        if layer < DENSE:
            param(f"{pre}.mlp.gate_proj.weight", [DFF, H])
            param(f"{pre}.mlp.up_proj.weight", [DFF, H])
            param(f"{pre}.mlp.down_proj.weight", [H, DFF])
        else:
            for e in range(E):
                param(f"{pre}.mlp.experts.{e}.gate_proj.weight", [EFF, H])
                param(f"{pre}.mlp.experts.{e}.up_proj.weight", [EFF, H])
                param(f"{pre}.mlp.experts.{e}.down_proj.weight", [H, EFF])
            param(f"{pre}.mlp.gate.weight", [E, H])
            param(f"{pre}.mlp.shared_experts.gate_proj.weight", [EFF, H])
            param(f"{pre}.mlp.shared_experts.up_proj.weight", [EFF, H])
            param(f"{pre}.mlp.shared_experts.down_proj.weight", [H, EFF])
        param(f"{pre}.input_layernorm.weight", [H])
        param(f"{pre}.post_attention_layernorm.weight", [H])
    param("norm.weight", [H])
    param("lm_head.weight", [V, H])
    for layer in range(DENSE, L):
        name = f"layers.{layer}.mlp.gate.e_score_correction_bias"
        weight(placeholder_of(name, "b_"), name, [E])
    weight("b_rotary_emb_cos", "rotary_emb.cos", [MAXPOS, HD])
    weight("b_rotary_emb_sin", "rotary_emb.sin", [MAXPOS, HD])

    graph_inputs = []

    def graph_input(name, shape, dtype="float32"):
        graph_inputs.append(meta(name, shape, dtype))
        outputs_of[name] = (list(shape), dtype)
        return name

    input_ids = graph_input("input_ids", [1, 1], "int64")
    position_ids = graph_input("position_ids", [1, 1], "int64")
    cache_shape = [1, NKV, P, HD]
    past = [(graph_input(f"past_key_{i}", cache_shape), graph_input(f"past_value_{i}", cache_shape))
            for i in range(L)]

    def rms_norm(x, module):
        shape = outputs_of[x][0]
        red = shape[:-1] + [1]
        with scope(module):
            pw = node("pow", "aten.pow.Tensor_Scalar", [act(x)], shape, {"exponent": 2})
            m = node("mean", "aten.mean.dim", [act(pw)], red, {"dim": [-1], "keepdim": True})
            a = node("add", "aten.add.Tensor", [act(m)], red, {"other": EPS})
            r = node("rsqrt", "aten.rsqrt.default", [act(a)], red)
            y = node("mul", "aten.mul.Tensor", [act(x), act(r)], shape)
            return node("mul", "aten.mul.Tensor", [wref(placeholder_of(f"{module}.weight")), act(y)], shape)

    def linear(x, module):
        w = placeholder_of(f"{module}.weight")
        out_f = weight_meta[w][0][0]
        with scope(module):
            return node("linear", "aten.linear.default", [act(x), wref(w)], outputs_of[x][0][:-1] + [out_f])

    def gated_mlp(x, module):
        g = linear(x, f"{module}.gate_proj")
        with scope(module):
            s = node("silu", "aten.silu.default", [act(g)], outputs_of[g][0])
        u = linear(x, f"{module}.up_proj")
        with scope(module):
            m = node("mul", "aten.mul.Tensor", [act(s), act(u)], outputs_of[u][0])
        return linear(m, f"{module}.down_proj")

    def rope(x, cos, sin):
        shape = outputs_of[x][0]
        half = shape[:-1] + [HD // 2]
        a = node("mul", "aten.mul.Tensor", [act(x), act(cos)], shape)
        s1 = node("slice", "aten.slice.Tensor", [act(x)], half, {"dim": 3, "start": 0, "end": HD // 2})
        s2 = node("slice", "aten.slice.Tensor", [act(x)], half,
                  {"dim": 3, "start": HD // 2, "end": 9223372036854775807})
        n = node("neg", "aten.neg.default", [act(s2)], half)
        c = node("cat", "aten.cat.default", [act(n), act(s1)], shape, {"dim": -1, "_tensor_list_sizes": [2]})
        b = node("mul", "aten.mul.Tensor", [act(c), act(sin)], shape)
        return node("add", "aten.add.Tensor", [act(a), act(b)], shape)

    def attention(x, layer, cos_idx, sin_idx):
        mod = f"layers.{layer}.self_attn"
        with scope(mod):
            heads = []
            for proj, nh in (("q", NH), ("k", NKV), ("v", NKV)):
                l = linear(x, f"{mod}.{proj}_proj")
                v = node("view", "aten.view.default", [act(l)], [1, 1, nh, HD], {"size": [1, 1, nh, HD]})
                t = node("transpose", "aten.transpose.int", [act(v)], [1, nh, 1, HD], {"dim0": 1, "dim1": 2})
                heads.append(t)
            cos = node("unsqueeze", "aten.unsqueeze.default", [act(cos_idx)], [1, 1, 1, HD], {"dim": 1})
            sin = node("unsqueeze", "aten.unsqueeze.default", [act(sin_idx)], [1, 1, 1, HD], {"dim": 1})
            q, k = rope(heads[0], cos, sin), rope(heads[1], cos, sin)
            full = [1, NKV, P + 1, HD]
            k_all = node("cat", "aten.cat.default", [act(past[layer][0]), act(k)], full,
                         {"dim": -2, "_tensor_list_sizes": [2]})
            v_all = node("cat", "aten.cat.default", [act(past[layer][1]), act(heads[2])], full,
                         {"dim": -2, "_tensor_list_sizes": [2]})
            attn = node("scaled_dot_product_attention", "aten.scaled_dot_product_attention.default",
                        [act(q), act(k_all), act(v_all)], [1, NH, 1, HD],
                        {"scale": HD ** -0.5, "enable_gqa": True})
            t = node("transpose", "aten.transpose.int", [act(attn)], [1, 1, NH, HD], {"dim0": 1, "dim1": 2})
            v = node("view", "aten.view.default", [act(t)], [1, 1, NH * HD], {"size": [1, 1, NH * HD]})
            return linear(v, f"{mod}.o_proj"), k_all, v_all

    def moe(x, layer):
        mod = f"layers.{layer}.mlp"
        stacked = {}
        with scope(mod):
            x2 = node("view", "aten.view.default", [act(x)], [1, H], {"size": [-1, H]})
            # Hugging Face's MoEGate.forward: the router linear, scoring, top-k and
            # weight normalisation happen in the gate module; the mlp scatters and mixes.
            with scope(f"{mod}.gate"):
                logits = linear(x2, f"{mod}.gate")
                scores = node("sigmoid", "aten.sigmoid.default", [act(logits)], [1, E])
                bias = node("unsqueeze", "aten.unsqueeze.default",
                            [wref(placeholder_of(f"{mod}.gate.e_score_correction_bias", "b_"))], [1, E], {"dim": 0})
                choice = node("add", "aten.add.Tensor", [act(scores), act(bias)], [1, E])
                tk = multi_node("topk", "aten.topk.default", [act(choice)], [([1, K], "float32"), ([1, K], "int64")],
                                {"k": K, "dim": -1, "largest": True, "sorted": False})
                idx = getitem(tk, 1)
                w = node("gather", "aten.gather.default", [act(scores), act(idx)], [1, K], {"dim": 1})
                den = node("sum", "aten.sum.dim_IntList", [act(w)], [1, 1], {"dim": [-1], "keepdim": True})
                den = node("add", "aten.add.Tensor", [act(den)], [1, 1], {"other": 1e-20})
                w = node("div", "aten.div.Tensor", [act(w), act(den)], [1, K])
                w = node("mul", "aten.mul.Tensor", [act(w)], [1, K], {"other": SCALING})
            zeros = node("zeros", "aten.zeros.default", [], [1, E],
                         {"dtype": "torch.float32", "device": "meta", "pin_memory": False, "size": [1, E]})
            routing = node("scatter", "aten.scatter.src", [act(zeros), act(idx), act(w)], [1, E], {"dim": 1})
            for proj in ("gate_proj", "up_proj", "down_proj"):
                ws = [wref(placeholder_of(f"{mod}.experts.{e}.{proj}.weight")) for e in range(E)]
                stacked[proj] = node("stack", "aten.stack.default", ws, [E] + ws[0]["shape"],
                                     {"dim": 0, "_tensor_list_sizes": [E]})
            g = node("einsum", "aten.einsum.default", [act(x2), act(stacked["gate_proj"])], [1, E, EFF],
                     {"_tensor_list_sizes": [2], "equation": "th,efh->tef"})
            s = node("silu", "aten.silu.default", [act(g)], [1, E, EFF])
            u = node("einsum", "aten.einsum.default", [act(x2), act(stacked["up_proj"])], [1, E, EFF],
                     {"_tensor_list_sizes": [2], "equation": "th,efh->tef"})
            m = node("mul", "aten.mul.Tensor", [act(s), act(u)], [1, E, EFF])
            d = node("einsum", "aten.einsum.default", [act(m), act(stacked["down_proj"])], [1, E, H],
                     {"_tensor_list_sizes": [2], "equation": "tef,ehf->teh"})
            r = node("unsqueeze", "aten.unsqueeze.default", [act(routing)], [1, E, 1], {"dim": -1})
            wd = node("mul", "aten.mul.Tensor", [act(d), act(r)], [1, E, H])
            y = node("sum", "aten.sum.dim_IntList", [act(wd)], [1, H], {"dim": [1]})
            y = node("view", "aten.view.default", [act(y)], [1, 1, H], {"size": [1, 1, H]})
            shared = gated_mlp(x, f"{mod}.shared_experts")
            return node("add", "aten.add.Tensor", [act(y), act(shared)], [1, 1, H])

    with scope("embed_tokens"):
        h = node("embedding", "aten.embedding.default",
                 [wref("p_embed_tokens_weight"), act(input_ids)], [1, 1, H])
    with scope("rotary_emb"):
        cos_idx = node("index", "aten.index.Tensor", [wref("b_rotary_emb_cos"), act(position_ids)], [1, 1, HD],
                       {"_tensor_list_sizes": [1]})
        sin_idx = node("index", "aten.index.Tensor", [wref("b_rotary_emb_sin"), act(position_ids)], [1, 1, HD],
                       {"_tensor_list_sizes": [1]})
    present = []
    for layer in range(L):
        pre = f"layers.{layer}"
        with scope(pre):
            n1 = rms_norm(h, f"{pre}.input_layernorm")
            o, k_all, v_all = attention(n1, layer, cos_idx, sin_idx)
            present += [k_all, v_all]
            h = node("add", "aten.add.Tensor", [act(h), act(o)], [1, 1, H])
            n2 = rms_norm(h, f"{pre}.post_attention_layernorm")
            mlp_out = gated_mlp(n2, f"{pre}.mlp") if layer < DENSE else moe(n2, layer)
            h = node("add", "aten.add.Tensor", [act(h), act(mlp_out)], [1, 1, H])
    n = rms_norm(h, "norm")
    logits = linear(n, "lm_head")

    graph_outputs = [meta(t, *outputs_of[t]) for t in [logits] + present]
    ir = {"model_name": f"BigMoE{L}x{E}", "pytorch_version": "2.5.1",
          "graph_inputs": graph_inputs, "graph_outputs": graph_outputs,
          "weights": weights, "weight_name_mapping": mapping, "nodes": nodes}
    return ir, (f"{L} layers ({DENSE} dense), {E} experts, top-{K}: {len(nodes)} nodes, {len(weights)} weights, "
                f"{len(graph_inputs)} inputs, {len(graph_outputs)} outputs")


if args.shape == "llama":
    for flag in ("experts", "top_k", "expert_ff", "dense_ff", "dense_layers", "past", "vocab"):
        if getattr(args, flag) != p.get_default(flag):
            p.error(f"--{flag.replace('_', '-')} is for --shape moe")
    ir, summary = build_llama()
else:
    if args.nodes is not None:
        p.error("--nodes is for --shape llama; use --layers/--experts")
    ir, summary = build_moe()

with open(args.output, "w") as f:
    json.dump(ir, f, indent=2)
if args.modules_out:
    with open(args.modules_out, "w") as f:
        json.dump({"nodes": module_of}, f, indent=2)
print(f"{args.output}: {summary}")
