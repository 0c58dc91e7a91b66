"""An NPU-style dump of a small CNN, for `irscope check-dump` (tests/cli/test_check_dump.cpp).

    build-torch2/venv/bin/python tests/data/backend_dumps/make_npu_dump.py

Writes cnn.pt2 (torch.export.save, with its example input) and what an NPU
runtime that compiled it group by group would dump: one value per module
(stem, block1, block2, head), each computed, as the device does, from the
previous group's dumped value:
  stem    NHWC float32, right;
  block1  NHWC float32, WRONG (its conv's bias dropped, as a miscompile would);
  block2  int8 with a scale, right on block1's (wrong) value: inherits;
  head    float32, right on block2's int8 value: inherits.
npu_dump.pt is the dump, npu_groups.json says what each key is; a folder
variant (npu_dump/, one .npy per group) holds the same values.
"""
import json
import os

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))


def save_npy(path, t):
    """NumPy's .npy (format 1.0), written by hand: no numpy in this environment."""
    descr = {torch.float32: "<f4", torch.int8: "|i1"}[t.dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, tuple(t.shape))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        f.write(bytes(t.contiguous().untyped_storage()))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 6, 3, padding=1), nn.ReLU())
        self.block1 = nn.Sequential(nn.Conv2d(6, 6, 3, padding=1), nn.ReLU())
        self.block2 = nn.Sequential(nn.Conv2d(6, 12, 3, padding=1, stride=2), nn.ReLU())
        self.head = nn.Linear(12, 10)

    def forward(self, x):
        x = self.block2(self.block1(self.stem(x)))
        return self.head(x.mean(dim=(2, 3)))


def main():
    torch.manual_seed(0)
    model = CNN().eval()
    x = torch.randn(2, 3, 8, 8)
    program = torch.export.export(model, (x,))
    torch.export.save(program, os.path.join(HERE, "cnn.pt2"))

    with torch.no_grad():
        stem = model.stem(x)
        conv = model.block1[0]
        block1 = torch.relu(nn.functional.conv2d(stem, conv.weight, None, padding=1))  # bias dropped
        block2 = model.block2(block1)
        scale = float(block2.abs().max()) / 127
        q = torch.clamp(torch.round(block2 / scale), -128, 127).to(torch.int8)
        head = model.head((q.float() * scale).mean(dim=(2, 3)))
    dump = {
        "stem": stem.permute(0, 2, 3, 1).contiguous(),
        "block1": block1.permute(0, 2, 3, 1).contiguous(),
        "block2": q,
        "head": head,
    }
    torch.save(dump, os.path.join(HERE, "npu_dump.pt"))
    folder = os.path.join(HERE, "npu_dump")
    os.makedirs(folder, exist_ok=True)
    for name, value in dump.items():
        save_npy(os.path.join(folder, name + ".npy"), value)
    groups = {
        "groups": {
            "stem": {"module": "stem", "layout": "NHWC"},
            "block1": {"module": "block1", "layout": "NHWC"},
            "block2": {"module": "block2", "dtype": "int8", "scale": scale, "zero_point": 0},
            "head": {"module": "head"},
        }
    }
    with open(os.path.join(HERE, "npu_groups.json"), "w") as f:
        json.dump(groups, f, indent=2)


if __name__ == "__main__":
    main()
