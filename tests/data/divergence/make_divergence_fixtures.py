"""A first divergence of each kind, for `irscope run --reference-intermediates`
(cli.divergence_kinds): a gate that scales its input and keeps what passes a
threshold, and three reference dumps of it.

  gate.json            x -> mul = x * 3 -> gt = mul > 0.3 (torch_ir's IR, by hand)
  gate.weights.pt      an empty state_dict
  gate.inputs.pt       x = 0.1 (float32): mul is 0.3f in float32, exactly the
                       threshold as float32 compares it, so gt is False
  decision.pt          mul one float up (within tolerance), gt True: a flipped
                       decision on a tie
  noise.pt             mul 0.300001 (float32), gt False: farther from the
                       float64 value 0.30000000447 than this run's 0.30000001192
  value.pt             mul 0.5, gt False: a reference far from float64's
                       0.30000000447 where this run is near it: the
                       reference's value is wrong

Run with any PyTorch (Debian's python3-torch writes them):
  /usr/bin/python3 tests/data/divergence/make_divergence_fixtures.py
"""
import json
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def meta(name, dtype, producer=None):
    m = {"name": name, "shape": [1], "dtype": dtype}
    if producer:
        m.update(producer_node=producer, producer_output_idx=0)
    return m


def main():
    ir = {
        "model_name": "Gate",
        "pytorch_version": "2.13.0",
        "graph_inputs": [meta("x", "float32")],
        "graph_outputs": [meta("gt", "bool")],
        "weights": [],
        "weight_name_mapping": {},
        "nodes": [
            {"name": "mul", "op_type": "aten.mul.Scalar", "inputs": [meta("x", "float32", "x")],
             "outputs": [meta("mul", "float32")], "attrs": {"other": 3.0}},
            {"name": "gt", "op_type": "aten.gt.Scalar", "inputs": [meta("mul", "float32", "mul")],
             "outputs": [meta("gt", "bool")], "attrs": {"other": 0.3}},
        ],
    }
    with open(os.path.join(HERE, "gate.json"), "w") as f:
        json.dump(ir, f, indent=2)
        f.write("\n")
    torch.save({}, os.path.join(HERE, "gate.weights.pt"))  # the gate has no weights
    x = torch.tensor([0.1], dtype=torch.float32)
    torch.save({"x": x}, os.path.join(HERE, "gate.inputs.pt"))
    mul = x * 3
    assert not bool((mul > 0.3).item())
    up = torch.nextafter(mul, torch.tensor([1.0]))
    torch.save({"mul": up, "gt": torch.tensor([True])}, os.path.join(HERE, "decision.pt"))
    torch.save({"mul": torch.tensor([0.300001]), "gt": torch.tensor([False])}, os.path.join(HERE, "noise.pt"))
    torch.save({"mul": torch.tensor([0.5]), "gt": torch.tensor([False])}, os.path.join(HERE, "value.pt"))


if __name__ == "__main__":
    main()
