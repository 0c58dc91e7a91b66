"""A two-layer decoder quantized with torchao's X86 quantizer (PT2E, static int8
linear layers), saved with its float program, for bench/run_quantization_debugger.sh.

  python bench/make_quantized_decoder.py OUTDIR   (writes decoder.pt2, decoder.float.pt2)
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "programs"))
import make_programs  # noqa: E402


def main(outdir):
    torch.manual_seed(0)
    model = nn.Sequential(make_programs.DecoderBlock(64, 4), make_programs.DecoderBlock(64, 4)).eval()
    args = (torch.randn(1, 32, 64),)
    torch.export.save(torch.export.export(model, args, strict=False), os.path.join(outdir, "decoder.float.pt2"))
    quantized, _ = make_programs.quantize_pt2e(model, args, False)
    torch.export.save(quantized, os.path.join(outdir, "decoder.pt2"))


if __name__ == "__main__":
    main(sys.argv[1])
