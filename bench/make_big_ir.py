#!/usr/bin/env python3
"""Writes a big transformer-style torch_ir JSON for benchmarks (no torch needed).

Each layer is a Llama block as torch.export lowers it (RMSNorm from pow/mean/
add/rsqrt/mul, q/k/v projections, RoPE with slice/neg/cat, scaled dot-product
attention with a lifted causal mask, SiLU-gated MLP, residual adds): 46 nodes.
A lifted constant (the mask) and two buffers (RoPE cos/sin) feed every layer,
the high fan-out sources that make layered layouts explode. Written with
json.dump(indent=2), as torch_ir writes files.

    make_big_ir.py --nodes 100000 -o /tmp/big.json   (about 75 MB)
"""
import argparse
import json

p = argparse.ArgumentParser()
p.add_argument("--nodes", type=int, default=None, help="approximate node count")
p.add_argument("--layers", type=int, default=2)
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--seq", type=int, default=32)
p.add_argument("-o", "--output", required=True)
args = p.parse_args()

H, S, NH = args.hidden, args.seq, 4
HD = H // NH
FF = H * 4
NODES_PER_LAYER = 46
layers = max(1, args.nodes // NODES_PER_LAYER) if args.nodes else args.layers

nodes, weights, mapping = [], [], {}
counts = {}
outputs_of = {}


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
    return meta(name, shape, dtype, producer=name)


def weight(placeholder, original, shape, dtype="float32"):
    if placeholder not in mapping:
        mapping[placeholder] = original
        weights.append(meta(original, shape, dtype))
    return meta(placeholder, shape, dtype)


def node(base, op, inputs, shape, attrs=None, dtype="float32"):
    name = fresh(base)
    nodes.append({"name": name, "op_type": op, "inputs": inputs,
                  "outputs": [meta(name, shape, dtype)], "attrs": attrs or {}})
    outputs_of[name] = (shape, dtype)
    return name


def rms_norm(x, w_placeholder, w_name):
    p = node("pow_1", "aten.pow.Tensor_Scalar", [act(x)], [1, S, H], {"exponent": 2})
    m = node("mean", "aten.mean.dim", [act(p)], [1, S, 1], {"dim": [-1], "keepdim": True})
    a = node("add", "aten.add.Tensor", [act(m)], [1, S, 1], {"other": 1e-06})
    r = node("rsqrt", "aten.rsqrt.default", [act(a)], [1, S, 1])
    y = node("mul", "aten.mul.Tensor", [act(x), act(r)], [1, S, H])
    return node("mul", "aten.mul.Tensor", [act(y), weight(w_placeholder, w_name, [H])], [1, S, H])


def linear(x, prefix, out_features, in_features, in_shape):
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
    n1 = rms_norm(h, f"p_layers_{layer}_input_norm_weight", f"{pre}.input_norm.weight")
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
    g = linear(n2, f"{pre}.mlp.gate_proj", FF, H, [1, S, H])
    s = node("silu", "aten.silu.default", [act(g)], [1, S, FF])
    u = linear(n2, f"{pre}.mlp.up_proj", FF, H, [1, S, H])
    m = node("mul", "aten.mul.Tensor", [act(s), act(u)], [1, S, FF])
    d = linear(m, f"{pre}.mlp.down_proj", H, FF, [1, S, FF])
    h = node("add", "aten.add.Tensor", [act(h), act(d)], [1, S, H])

ir = {"model_name": f"BigLlama{layers}", "pytorch_version": "2.5.1",
      "graph_inputs": [graph_input], "graph_outputs": [act(h)],
      "weights": weights, "weight_name_mapping": mapping, "nodes": nodes}
with open(args.output, "w") as f:
    json.dump(ir, f, indent=2)
print(f"{args.output}: {layers} layers, {len(nodes)} nodes")
