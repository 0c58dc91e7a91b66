"""The quantization debugger's work done in PyTorch, for bench/run_quantization_debugger.sh:
both programs run by an fx.Interpreter that keeps every node's value, the SQNR of every
paired tensor (paired as irscope pairs them), and one rerun of the quantized program per
activation kept in float (sensitivity), then the weights' SQNR per channel.

  python bench/quantization_debugger_torch.py QUANT.pt2 FLOAT.pt2
"""
import os
import sys

import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401 - registers quantized_decomposed

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "quantization"))
from make_quantization_cases import capture, compare, first_output, role, sqnr  # noqa: E402


def main(quant_path, float_path):
    quant_ep, float_ep = torch.export.load(quant_path), torch.export.load(float_path)
    args = quant_ep.example_inputs[0]
    qgm, fgm = quant_ep.module(), float_ep.module()
    rows, reference, qout, sensitivity = compare(qgm, fgm, args)
    fenv, _ = capture(fgm, args)
    qenv, _ = capture(qgm, args)
    weights = 0
    fnodes = {m.name: m for m in fgm.graph.nodes}
    for n in qgm.graph.nodes:  # weights read back (a dequantize of a get_attr) against the float ones, per channel
        if role(n) != "dequantize" or n.args[0].op != "get_attr":
            continue
        user = next(iter(n.users))
        f = fnodes.get(user.name)
        if f is None or n not in user.args:
            continue
        float_weight, weight = fenv[f.args[list(user.args).index(n)].name], qenv[n.name]
        sqnr(float_weight, weight)
        for c in range(weight.shape[0]):
            sqnr(float_weight[c], weight[c])
        weights += 1
    print(f"{len(rows)} tensors, {len(sensitivity)} activations, {weights} weights; output SQNR "
          f"{sqnr(reference, first_output(qout)):.1f} dB")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
