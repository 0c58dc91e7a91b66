#!/usr/bin/python3
"""Make pairs of torch_ir IRs for `irscope diff` and the window's Compare view.

Each pair differs by one known edit, made in the model's source, so a test
can require that the diff reports exactly that edit and nothing else. The IRs
are traced with make_ir_fixtures.export() (the stand-in for torch_ir on
PyTorch 1.13), so names, producers and attrs are what a real extraction
writes: inserting a node renumbers every later node of its op, as FX does.

Written into tests/data/ir/diff/:
  diffnet.json          DiffNet: linear, leaky_relu(0.1), *scale, linear, tanh, residual, mean, two outputs
  diffnet_attr.json     leaky_relu's negative_slope 0.1 -> 0.2 (one attr of one node)
  diffnet_op.json       tanh -> sigmoid (one node's op; FX names it `sigmoid`)
  diffnet_insert.json   `h * 0.5` inserted after fc1: every later mul is renumbered (mul -> mul_1, ...)
  diffnet_weight.json   the parameter `scale` is [1, 16] instead of [16] (same values)
  diffnet.weights.pt, diffnet.inputs.pt, diffnet_attr.weights.pt: values for both sides of the attr pair
  diffnet.intermediates.pt   every node output of DiffNet as PyTorch computed it (B's values for A = diffnet_attr)
  diffnet_attr.vs_diffnet.json  max abs difference of leaky_relu, linear and linear_2 between the two (PyTorch)
  tiny_llama_seq4.json  make_ir_fixtures' TinyLlama extracted with a 4-token input instead of 6
                        (compare with ../tiny_llama.json: shapes, shape attrs and the lifted
                        position_ids constant change; no node is added or removed)

Run: /usr/bin/python3 tests/data/make_diff_fixtures.py [OUTDIR]
"""
import importlib.util
import json
import os
import sys
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_ir_fixtures", os.path.join(HERE, "make_ir_fixtures.py"))
fx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fx)


class DiffNet(nn.Module):
    def __init__(self, slope=0.1, squash="tanh", insert=False, scale_shape=(16,)):
        super().__init__()
        self.slope, self.squash, self.insert = slope, squash, insert
        self.fc1 = nn.Linear(8, 16)
        self.scale = nn.Parameter(torch.linspace(0.5, 1.5, 16).reshape(scale_shape))
        self.fc2 = nn.Linear(16, 16)
        self.fc3 = nn.Linear(16, 4)

    def forward(self, x):
        h = self.fc1(x)
        if self.insert:
            h = h * 0.5
        h = F.leaky_relu(h, self.slope)
        h = h * self.scale
        g = self.fc2(h)
        g = torch.tanh(g) if self.squash == "tanh" else torch.sigmoid(g)
        h = h + g * 2.0
        h = h * h.mean(-1, keepdim=True)
        return self.fc3(h), h.sum(-1)


def write_ir(outdir, fname, model, inputs, input_names, model_name):
    ir, inter, _, _ = fx.export(model, inputs, input_names, model_name, fx.Lowering())
    with open(os.path.join(outdir, fname + ".json"), "w") as f:
        json.dump(ir, f, indent=2)
    return inter


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "ir", "diff")
    os.makedirs(outdir, exist_ok=True)
    x = torch.randn(2, 8, generator=torch.Generator().manual_seed(4))
    values = {}
    variants = [("diffnet", {}), ("diffnet_attr", {"slope": 0.2}), ("diffnet_op", {"squash": "sigmoid"}),
                ("diffnet_insert", {"insert": True}), ("diffnet_weight", {"scale_shape": (1, 16)})]
    for fname, kwargs in variants:
        torch.manual_seed(5)  # the same weights in every variant
        model = DiffNet(**kwargs)
        inter = write_ir(outdir, fname, model, (x,), ["x"], "DiffNet")
        if fname in ("diffnet", "diffnet_attr"):
            torch.save(model.state_dict(), os.path.join(outdir, fname + ".weights.pt"))
            values[fname] = inter
    torch.save(OrderedDict(x=x), os.path.join(outdir, "diffnet.inputs.pt"))
    torch.save(values["diffnet"], os.path.join(outdir, "diffnet.intermediates.pt"))
    # What the slope change does to leaky_relu's own output (the same input on
    # both sides), and to the first output: the figures a value comparison of
    # the pair must find.
    a, b = values["diffnet_attr"], values["diffnet"]
    with open(os.path.join(outdir, "diffnet_attr.vs_diffnet.json"), "w") as f:
        json.dump({"leaky_relu_max_abs": float((a["leaky_relu"] - b["leaky_relu"]).abs().max()),
                   "linear_max_abs": float((a["linear"] - b["linear"]).abs().max()),
                   "linear_2_max_abs": float((a["linear_2"] - b["linear_2"]).abs().max())}, f, indent=2)
    torch.manual_seed(2)  # as make_ir_fixtures seeds tiny_llama
    model = fx.TinyDecoder(seq=4)
    ids = torch.randint(0, 32, (1, 4), generator=torch.Generator().manual_seed(6))
    write_ir(outdir, "tiny_llama_seq4", model, (ids,), ["input_ids"], "TinyLlama")


if __name__ == "__main__":
    main()
