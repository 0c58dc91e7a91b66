#!/usr/bin/python3
"""Writes a state_dict for a torch_ir JSON (e.g. one from make_big_ir.py):
one random tensor per weight, keyed by weight_name_mapping, with the IR's
shapes and dtypes. Needs Debian's python3-torch (1.13).

    make_big_weights.py /tmp/moe.json -o /tmp/moe.safetensors   (~70,000 tensors)
    make_big_weights.py /tmp/moe.json -o /tmp/moe.pt
    make_big_weights.py /tmp/moe.json --shards 8 -o /tmp/moe_repo   (a Hugging Face
        repository: model-0000K-of-0000N.safetensors and model.safetensors.index.json)
    make_big_weights.py --float32-gib 1 -o /tmp/one_gib.pt   (128 tensors of 8 MiB)
    make_big_weights.py --tensors 100000 -o /tmp/many.safetensors   (100,000 tensors of 512 bytes)
"""
import argparse
import collections
import json
import os
import struct
import sys

import torch

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("ir", nargs="?")
p.add_argument("-o", "--output", required=True, help=".pt, .safetensors, or a directory with --shards")
p.add_argument("--shards", type=int, default=0, help="write a sharded safetensors repository of N shards")
p.add_argument("--float32-gib", type=float, default=0, help="no IR: this many GiB of float32 tensors")
p.add_argument("--tensors", type=int, default=0, help="no IR: this many small float32 tensors ([128] each)")
args = p.parse_args()

ST_DTYPE = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16", torch.int64: "I64",
            torch.int32: "I32", torch.bool: "BOOL", torch.float64: "F64", torch.int8: "I8", torch.uint8: "U8"}


def state_dict():
    torch.manual_seed(0)
    sd = collections.OrderedDict()
    if args.tensors:
        for i in range(args.tensors):
            sd[f"layers.{i // 384}.mlp.experts.{i % 384}.weight"] = torch.randn(128)
        return sd
    if args.float32_gib:
        for i in range(int(args.float32_gib * 128)):
            sd[f"layers.{i}.weight"] = torch.randn(2048, 1024)
        return sd
    with open(args.ir) as f:
        ir = json.load(f)
    mapping = ir.get("weight_name_mapping", {})
    for w in ir["weights"]:
        key = mapping.get(w["name"], w["name"])
        dtype = getattr(torch, w.get("dtype", "float32"))
        shape = [max(d, 0) for d in w["shape"]]
        sd[key] = torch.randn(shape).to(dtype) if dtype.is_floating_point else torch.zeros(shape, dtype=dtype)
    return sd


def write_safetensors(tensors, path):
    header, off = collections.OrderedDict(), 0
    for k, t in tensors.items():
        n = t.numel() * t.element_size()
        header[k] = {"dtype": ST_DTYPE[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + n]}
        off += n
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for t in tensors.values():
            f.write(t.contiguous().view(torch.uint8).numpy().tobytes() if t.numel() else b"")


sd = state_dict()
if args.shards:
    os.makedirs(args.output, exist_ok=True)
    keys = list(sd)
    per = (len(keys) + args.shards - 1) // args.shards
    weight_map, total = {}, 0
    for s in range(args.shards):
        name = f"model-{s + 1:05d}-of-{args.shards:05d}.safetensors"
        part = collections.OrderedDict((k, sd[k]) for k in keys[s * per:(s + 1) * per])
        write_safetensors(part, os.path.join(args.output, name))
        for k, t in part.items():
            weight_map[k] = name
            total += t.numel() * t.element_size()
    with open(os.path.join(args.output, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
elif args.output.endswith(".safetensors"):
    write_safetensors(sd, args.output)
else:
    torch.save(sd, args.output)
print(f"{args.output}: {len(sd)} tensors", file=sys.stderr)
