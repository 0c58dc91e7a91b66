"""Quantized programs with their float programs, and PyTorch's own numbers for
the quantization debugger (core/exec/reference/quantization_compare.h),
compared by tests/exec/test_quantization_compare.cpp.

The models are the PT2E cases of tests/data/programs/make_programs.py (a CNN,
a decoder block, an MLP, static and dynamic int8 with torchao's X86
quantizer), built with the same seeds. For each NAME it writes:
  NAME.pt2          the quantized program (convert_pt2e, then torch.export)
  NAME.float.pt2    the float program it was quantized from
  NAME.torch.json   PyTorch's numbers: every node of both programs run by an
                    fx.Interpreter, paired as irscope pairs them (a compute node
                    with the float node of its name, or with the batch norm after it
                    that PT2E folded into it; an activation's dequantize
                    with the float tensor its quantize read), and
                      "nodes": {quantized tensor: SQNR dB},
                      "output_sqnr_db": the first output's,
                      "sensitivity": [[quantize node, output SQNR dB with that
                                       activation kept in float], ...], best first.
SQNR is 10*log10(sum(ref^2) / sum((ref - q)^2)) in float64, the float value as
the signal (torchao's compute_sqnr). Values in dB agree across processors far
within the test's 0.1 dB.

  build-torch2/venv/bin/python tests/data/quantization/make_quantization_cases.py
(the venv needs torchao: pip install torchao)
"""
import copy
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "programs"))
import make_programs  # noqa: E402

CASES = ["pt2e_static_cnn", "pt2e_static_decoder", "pt2e_static_mlp", "pt2e_dynamic_mlp"]


def role(node):
    t = str(node.target)
    if node.op != "call_function":
        return "other"
    if "quantized_decomposed.quantize_" in t or "torchao.quantize_affine" in t:
        return "quantize"
    if "quantized_decomposed.dequantize_" in t or "torchao.dequantize_affine" in t:
        return "dequantize"
    if "choose_qparams" in t:
        return "qparams"
    return "compute"


def capture(gm, args):
    env = {}

    class Capture(torch.fx.Interpreter):
        def run_node(self, n):
            result = super().run_node(n)
            env[n.name] = result
            return result

    with torch.no_grad():
        out = Capture(gm).run(*args)
    return env, out


def first_output(out):
    leaves = torch.utils._pytree.tree_leaves(out)
    return leaves[0]


def sqnr(ref, q):
    ref, q = ref.double(), q.double()
    noise = ((ref - q) ** 2).sum().item()
    signal = (ref**2).sum().item()
    return math.inf if noise == 0 else 10 * math.log10(signal / noise)


def number(v):
    return "inf" if math.isinf(v) else v


def pairs(qgm, fgm):
    """{quantized node name: float node name} as irscope pairs them."""
    fnodes = {n.name: n for n in fgm.graph.nodes}
    qnames = {n.name for n in qgm.graph.nodes}
    out = {}
    paired = {}
    for n in qgm.graph.nodes:
        r = role(n)
        if n.op == "placeholder" and n.name in fnodes:
            paired[n.name] = n.name
        if r == "compute":
            f = fnodes.get(n.name)
            if f is not None and f.op == "call_function" and str(f.target) == str(n.target):
                paired[n.name] = n.name
                out[n.name] = n.name
                # A conv or linear that absorbed the batch norm after it stands for the norm's output.
                users = list(f.users)
                if len(users) == 1 and "batch_norm" in str(users[0].target) and users[0].name not in qnames:
                    norm = users[0]
                    if "_native_batch_norm_legit" in str(norm.target):
                        norm = next(u for u in norm.users if u.args[1] == 0)
                    out[n.name] = norm.name
        elif r == "dequantize":
            src = n.args[0]
            if isinstance(src, torch.fx.Node) and role(src) == "quantize":
                x = src.args[0]
                if isinstance(x, torch.fx.Node) and x.name in paired:
                    out[n.name] = paired[x.name]
    return out


def compare(qgm, fgm, args):
    """PyTorch's numbers: ({quantized tensor: SQNR dB}, the float output, the quantized output,
    [[quantize node, output SQNR dB with that activation kept in float], ...] best first)."""
    qenv, qout = capture(qgm, args)
    fenv, fout = capture(fgm, args)
    nodes = {}
    for qn, fn in pairs(qgm, fgm).items():
        a, r = qenv.get(qn), fenv.get(fn)
        if isinstance(a, torch.Tensor) and isinstance(r, torch.Tensor) and a.shape == r.shape \
                and a.is_floating_point() and r.is_floating_point():
            nodes[qn] = sqnr(r, a)
    reference = first_output(fout)
    sensitivity = []
    for n in qgm.graph.nodes:
        if role(n) != "quantize" or n.args[0].op == "get_attr":
            continue
        gm = copy.deepcopy(qgm)
        q = next(m for m in gm.graph.nodes if m.name == n.name)
        for user in list(q.users):
            if role(user) == "dequantize":
                user.replace_all_uses_with(q.args[0])
        gm.recompile()
        _, out = capture(gm, args)
        sensitivity.append([n.name, sqnr(reference, first_output(out))])
    sensitivity.sort(key=lambda e: -e[1])
    return nodes, reference, qout, sensitivity


def main():
    torch.set_num_threads(1)
    cases = {c[0]: c for c in make_programs.cases()}
    for name in CASES:
        _, _, build = cases[name]
        make_programs.seed(name)
        model, args, _, _, quantize = build()
        # Batch norms with statistics of their own (a trained model's): PT2E folds
        # them into the conv before them, whose output then stands for the norm's.
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.running_mean.uniform_(-0.5, 0.5)
                    m.running_var.uniform_(0.5, 2.0)
                    m.weight.uniform_(0.5, 1.5)
                    m.bias.uniform_(-0.2, 0.2)
        model.eval()
        float_ep = torch.export.export(model, args, strict=False)
        quant_ep, _ = make_programs.quantize_pt2e(model, args, quantize == "dynamic")
        torch.export.save(quant_ep, os.path.join(HERE, name + ".pt2"))
        torch.export.save(float_ep, os.path.join(HERE, name + ".float.pt2"))

        nodes, reference, qout, sensitivity = compare(quant_ep.module(), float_ep.module(), args)
        nodes = {k: number(v) for k, v in nodes.items()}
        result = {
            "nodes": nodes,
            "output_sqnr_db": number(sqnr(reference, first_output(qout))),
            "sensitivity": [[s[0], number(s[1])] for s in sensitivity],
        }
        with open(os.path.join(HERE, name + ".torch.json"), "w") as f:
            json.dump(result, f, indent=1)
        print(f"written  {name}: {len(nodes)} paired tensors, {len(sensitivity)} activations")


if __name__ == "__main__":
    main()
