#!/usr/bin/python3
"""Fixtures for the numerical debugging checks, made by PyTorch from the IR
fixtures that make_ir_fixtures.py wrote (run that first).

llama_block (its NAME.intermediates.pt holds every node output PyTorch
computed with the true weights):
  llama_block.weights_perturbed.pt  the weights with up.weight[0, 0] += 0.5
  llama_block.weights_nan.pt        the weights with o.weight[1, 2] = NaN
  llama_block.weights_fp16.pt       the weights in float16 (the IR says float32):
                                    a half-precision checkpoint, cast on load
  llama_block.expected_fp16cast.pt  the block's output with those weights cast
                                    back to float32, as PyTorch computes it
tiny_llama:
  tiny_llama.expected_bf16.pt       the model's output when PyTorch runs it with
                                    every floating parameter, buffer and input
                                    in bfloat16 (model.to(torch.bfloat16))
numerics.json, what those should show:
  "perturbed": the weight, its placeholder, the IR nodes reading it (in order:
      local mode fails exactly these; cumulative fails first at the first),
      and for the first of them PyTorch's metrics of F.linear(reference input,
      perturbed weight) against the reference output;
  "nan": the weight and the first IR node reading it (where --break-on nan stops);
  "bf16": the graph output and PyTorch's metrics of the float32 output against
      the bfloat16 one (computed in float64 by the formulas of
      core/exec/error_metrics.h).

Run: /usr/bin/python3 tests/data/make_numerics_fixture.py
"""
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
IR = os.path.join(HERE, "ir")
sys.path.insert(0, HERE)


def metrics(actual, reference):
    a, r = actual.double().flatten(), reference.double().flatten()
    d = a - r
    sq = (d * d).sum().item()
    rr = (r * r).sum().item()
    return {
        "max_abs": d.abs().max().item(),
        "mean_abs": d.abs().mean().item(),
        "mse": (d * d).mean().item(),
        "cosine": (a @ r).item() / math.sqrt((a @ a).item() * rr),
        "sqnr_db": math.inf if sq == 0 else 10 * math.log10(rr / sq),
    }


def readers(ir, placeholder):
    return [n["name"] for n in ir["nodes"] if any(i["name"] == placeholder for i in n["inputs"])]


def node(ir, name):
    return next(n for n in ir["nodes"] if n["name"] == name)


def main():
    out = {}
    ir = json.load(open(os.path.join(IR, "llama_block.json")))
    weights = torch.load(os.path.join(IR, "llama_block.weights.pt"))
    ref = torch.load(os.path.join(IR, "llama_block.intermediates.pt"))

    perturbed = {k: v.clone() for k, v in weights.items()}
    perturbed["up.weight"][0, 0] += 0.5
    torch.save(perturbed, os.path.join(IR, "llama_block.weights_perturbed.pt"))
    consumers = readers(ir, "p_up_weight")
    first = node(ir, consumers[0])
    assert first["op_type"] == "aten.linear.default", first["op_type"]
    local = F.linear(ref[first["inputs"][0]["name"]], perturbed["up.weight"])
    out["perturbed"] = {"weight": "up.weight", "placeholder": "p_up_weight", "readers": consumers,
                        "first_local": metrics(local, ref[first["outputs"][0]["name"]])}

    nan = {k: v.clone() for k, v in weights.items()}
    nan["o.weight"][1, 2] = float("nan")
    torch.save(nan, os.path.join(IR, "llama_block.weights_nan.pt"))
    out["nan"] = {"weight": "o.weight", "placeholder": "p_o_weight", "stops_at": readers(ir, "p_o_weight")[0]}

    import make_ir_fixtures as fixtures  # the model classes
    half = {k: v.half() for k, v in weights.items()}
    torch.save(half, os.path.join(IR, "llama_block.weights_fp16.pt"))
    block = fixtures.LlamaBlock()
    block.load_state_dict({k: v.float() for k, v in half.items()})
    block.eval()
    x = torch.load(os.path.join(IR, "llama_block.inputs.pt"))
    expected = torch.load(os.path.join(IR, "llama_block.expected.pt"))
    (block_out, _), = expected.items()
    with torch.no_grad():
        y = block(*x.values())
    torch.save({block_out: y}, os.path.join(IR, "llama_block.expected_fp16cast.pt"))

    torch.manual_seed(2)
    model = fixtures.TinyDecoder()
    model.load_state_dict(torch.load(os.path.join(IR, "tiny_llama.weights.pt")))
    model.eval()
    inputs = torch.load(os.path.join(IR, "tiny_llama.inputs.pt"))
    expected = torch.load(os.path.join(IR, "tiny_llama.expected.pt"))
    (out_name, f32), = expected.items()
    with torch.no_grad():
        assert torch.allclose(model(inputs["input_ids"]), f32, rtol=1e-5, atol=1e-6)
        bf16 = model.to(torch.bfloat16)(inputs["input_ids"])
    torch.save({out_name: bf16}, os.path.join(IR, "tiny_llama.expected_bf16.pt"))
    out["bf16"] = {"output": out_name, "metrics": metrics(f32, bf16)}

    with open(os.path.join(IR, "numerics.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
