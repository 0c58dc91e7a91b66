#!/usr/bin/env python3
"""Make B from an IR A by the edits a model change brings, for bench/run_diff.sh.

  * one node inserted: `mul(x, 0.5)` after the producer of the Nth `aten.mul.Tensor`'s
    first input, read by that mul; then every later node named mul_K is renumbered
    mul_{K+1}, as FX does (the new node takes the name of the first one it precedes);
  * one attr changed: the `eps` (or first numeric attr) of a node in the middle.

Prints what it did on stderr. Usage: make_diff_pair.py A.json -o B.json [--at FRACTION]
"""
import argparse
import json
import re
import sys

p = argparse.ArgumentParser()
p.add_argument("ir")
p.add_argument("-o", "--output", required=True)
p.add_argument("--at", type=float, default=0.5, help="where to insert, as a fraction of the node list")
args = p.parse_args()

with open(args.ir) as f:
    ir = json.load(f)
nodes = ir["nodes"]
node_names = {m["name"] for m in nodes}
muls = [i for i, n in enumerate(nodes) if n["op_type"] == "aten.mul.Tensor" and n["inputs"]
        and n["inputs"][0].get("producer_node") in node_names]
target = next(i for i in muls if i >= len(nodes) * args.at)
victim = nodes[target]
src = victim["inputs"][0]

def mul_index(name):
    m = re.fullmatch(r"mul(?:_(\d+))?", name)
    return None if m is None else int(m.group(1) or 0)

first = mul_index(victim["name"])
renames = {}
for n in nodes:
    k = mul_index(n["name"])
    if k is not None and k >= first:
        renames[n["name"]] = "mul" if k + 1 == 0 else "mul_%d" % (k + 1)
new_name = victim["name"]

def rename(t):
    if t.get("producer_node") in renames:
        t["producer_node"] = renames[t["producer_node"]]
    if t["name"] in renames:
        t["name"] = renames[t["name"]]

for n in nodes:
    n["name"] = renames.get(n["name"], n["name"])
    for t in n["inputs"] + n["outputs"]:
        rename(t)
for t in ir["graph_outputs"]:
    rename(t)
inserted = {"name": new_name, "op_type": "aten.mul.Tensor",
            "inputs": [dict(src)],
            "outputs": [{"name": new_name, "shape": src["shape"], "dtype": src["dtype"]}],
            "attrs": {"other": 0.5}}
victim["inputs"][0] = {"name": new_name, "shape": src["shape"], "dtype": src["dtype"],
                       "producer_node": new_name, "producer_output_idx": 0}
nodes.insert(target, inserted)

changed = None
for n in nodes[len(nodes) // 3:]:
    for k, v in n.get("attrs", {}).items():
        if isinstance(v, float):
            n["attrs"][k] = v * 2
            changed = (n["name"], k)
            break
    if changed:
        break
with open(args.output, "w") as f:
    json.dump(ir, f, indent=2)
print("inserted %s before %s (%d names renumbered); changed %s" % (new_name, victim["name"], len(renames), changed),
      file=sys.stderr)
