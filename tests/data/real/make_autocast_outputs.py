#!/usr/bin/env python3
"""What PyTorch's own torch.autocast computes for the LLM-shaped cases of this corpus, as the
truth for irscope's reduced-precision reference runs (`irscope run --reference-dtype bfloat16`,
the Differences dock's "Second run: bfloat16"), which cast each op's inputs the way autocast does
on the CPU.

For each case below (built exactly as make_real_exports.py builds it: same seed, same weights,
same inputs, checked against NAME.expected.pt), writes NAME.autocast_DTYPE.pt for DTYPE in
bfloat16 and float16: {graph output name: tensor} from
    with torch.no_grad(), torch.autocast("cpu", dtype=DTYPE): model(*inputs)
and autocast_sqnr.json: {case: {dtype: {output: SQNR in dB of autocast's output against the
float32 eager output, "inf" when equal}}}, so a test can hold irscope's reference run to within 1 dB of PyTorch's.

Run with PyTorch 2.x after make_real_exports.py:  python3 make_autocast_outputs.py
"""
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from real_cases import CASES  # noqa: E402
from make_real_exports import case_seed, clone_tree  # noqa: E402

CASE_NAMES = ["tiny_llama", "kimi_moe_layer", "sdpa_float_mask", "sdpa_causal", "sdpa_gqa", "rms_norm"]


def flat_outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat_outputs(o)]
    if isinstance(out, dict):
        return [t for o in out.values() for t in flat_outputs(o)]
    return []


def sqnr(ref, x):
    ref, x = ref.double(), x.double()
    noise = (ref - x).pow(2).sum().item()
    signal = ref.pow(2).sum().item()
    return math.inf if noise == 0 else 10 * math.log10(signal / noise)


def main():
    builders = {name: build for name, _, build in CASES}
    table = {}
    for name in CASE_NAMES:
        ir = json.load(open(os.path.join(HERE, name + ".json")))
        names = []
        for o in ir["graph_outputs"]:
            if o["name"] not in names:
                names.append(o["name"])
        torch.manual_seed(case_seed(name))
        model, inputs = builders[name]()
        model.eval()
        model.load_state_dict(torch.load(os.path.join(HERE, name + ".weights.pt")))
        expected = torch.load(os.path.join(HERE, name + ".expected.pt"))
        with torch.no_grad():
            eager = flat_outputs(model(*clone_tree(inputs)))
        # The outputs as the IR names them (an output returned twice is listed once).
        by_name = dict(zip([o["name"] for o in ir["graph_outputs"]], eager))
        for n in names:
            assert torch.equal(by_name[n], expected[n]), f"{name}: {n} is not NAME.expected.pt's"
        table[name] = {}
        for dtype in (torch.bfloat16, torch.float16):
            short = str(dtype).replace("torch.", "")
            with torch.no_grad(), torch.autocast("cpu", dtype=dtype):
                got = flat_outputs(model(*clone_tree(inputs)))
            got_by_name = dict(zip([o["name"] for o in ir["graph_outputs"]], got))
            torch.save({n: got_by_name[n] for n in names}, os.path.join(HERE, f"{name}.autocast_{short}.pt"))
            # JSON has no infinity: an exact match is the string "inf".
            table[name][short] = {n: (lambda v: "inf" if math.isinf(v) else round(v, 3))(sqnr(by_name[n], got_by_name[n]))
                                  for n in names if by_name[n].is_floating_point()}
        print(name, table[name])
    with open(os.path.join(HERE, "autocast_sqnr.json"), "w") as f:
        json.dump({"torch": torch.__version__, "cases": table}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
