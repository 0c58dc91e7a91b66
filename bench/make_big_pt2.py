#!/usr/bin/env python3
"""Writes a torch.export archive (.pt2, the PyTorch 2.8+ layout) of a torch_ir
JSON from make_big_ir.py, for benchmarks: exporting a 61-layer x 384-expert
MoE with torch.export itself takes the better part of an hour, and the
archive's size and shape are what the benchmark needs.

What it writes is what torch.export.save writes for such a program: per node
the target, the named arguments read off the op's PyTorch schema, the output
names (a multi-output op names its getitem results directly), metadata with a
stack trace and the nn_module_stack (from --modules, make_big_ir.py's
--modules-out), tensor_values for every tensor, the graph signature, and the
weights as raw per-tensor files with the weights config. Weights hold random
bytes unless --weights gives a .safetensors to copy them from.

Needs the PyTorch 2.x of build-py/venv (for the op schemas only).

    make_big_ir.py --shape moe -o /tmp/moe.json --modules-out /tmp/moe.modules.json
    make_big_pt2.py /tmp/moe.json --modules /tmp/moe.modules.json -o /tmp/moe.pt2
"""
import argparse
import json
import os
import struct
import zipfile

import torch

DTYPES = {"uint8": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "float16": 6, "float32": 7, "float64": 8,
          "bool": 12, "bfloat16": 13}
SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 2, 7: 4, 8: 8, 12: 1, 13: 2}
GETITEM = "<built-in function getitem>"

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("ir")
p.add_argument("-o", "--output", required=True)
p.add_argument("--modules", help="make_big_ir.py --modules-out: node -> module path")
p.add_argument("--weights", help=".safetensors with the weights' values (else random bytes)")
args = p.parse_args()

ir = json.load(open(args.ir))
modules = json.load(open(args.modules))["nodes"] if args.modules else {}


def dtype_code(d):
    return DTYPES[d.replace("torch.", "")]


def tensor_meta(t, requires_grad=False):
    sizes = t["shape"]
    strides, s = [], 1
    for d in reversed(sizes):
        strides.insert(0, s)
        s *= max(d, 1)
    return {"dtype": dtype_code(t["dtype"]), "sizes": [{"as_int": d} for d in sizes], "requires_grad": requires_grad,
            "device": {"type": "cpu", "index": None}, "strides": [{"as_int": d} for d in strides],
            "storage_offset": {"as_int": 0}, "layout": 7}


def schema_of(op_type):
    ns, name, overload = op_type.split(".")
    return getattr(getattr(getattr(torch.ops, ns), name), overload)._schema


def argument(value, type_str):
    t = type_str.replace("?", "").replace("Optional[", "").rstrip("]")
    if value is None:
        return {"as_none": True}
    if isinstance(value, str) and value.replace("torch.", "") in DTYPES:
        return {"as_scalar_type": dtype_code(value)}
    if isinstance(value, str) and value.endswith("_format"):
        return {"as_memory_format": 1}
    if value == "torch.strided":
        return {"as_layout": 7}
    if t == "ScalarType":
        return {"as_scalar_type": dtype_code(value)}
    if t == "Device":
        return {"as_device": {"type": str(value), "index": None}}
    if t == "MemoryFormat":
        return {"as_memory_format": 1}
    if t == "Layout":
        return {"as_layout": 7}
    if t == "str":
        return {"as_string": value}
    if isinstance(value, bool):
        return {"as_bool": value}
    if isinstance(value, int):
        return {"as_int": value}
    if isinstance(value, float):
        return {"as_float": value}
    if isinstance(value, list):
        if all(isinstance(v, bool) for v in value):
            return {"as_bools": value}
        if all(isinstance(v, int) for v in value):
            return {"as_ints": value}
        return {"as_floats": [float(v) for v in value]}
    raise SystemExit(f"cannot write {value!r} as {type_str}")


def nn_module_stack(path):
    # "L__self___layers_0,layers.0,mod.DecoderLayer;..." from the root down.
    entries = ["L__self__,,model.Model"]
    parts = path.split(".") if path else []
    for i in range(1, len(parts) + 1):
        fqn = ".".join(parts[:i])
        entries.append("L__self___" + fqn.replace(".", "_") + "," + fqn + ",model." + parts[i - 1].title())
    return ";".join(entries)


# The result names of multi-output ops: the getitem nodes' own outputs.
element_names = {}
for n in ir["nodes"]:
    if n["op_type"] == GETITEM:
        producer = n["inputs"][0]["producer_node"]
        element_names[(producer, n["attrs"].get("index", 0))] = n["outputs"][0]["name"]
getitem_alias = {}  # getitem node output name -> itself (consumers already use it)

weight_names = {w["name"] for w in ir["weights"]}
mapping = ir.get("weight_name_mapping", {})
placeholder_of = {v: k for k, v in mapping.items()}
tensor_values = {}
for t in ir["graph_inputs"]:
    tensor_values[t["name"]] = tensor_meta(t)
for w in ir["weights"]:
    tensor_values[placeholder_of[w["name"]]] = tensor_meta(w, placeholder_of[w["name"]].startswith("p_"))

nodes = []
for index, n in enumerate(ir["nodes"]):
    if n["op_type"] == GETITEM:
        continue
    schema = schema_of(n["op_type"])
    inputs = list(n["inputs"])
    attrs = n.get("attrs", {})
    list_sizes = list(attrs.get("_tensor_list_sizes", []))
    named = []
    for a in schema.arguments:
        t = str(a.type)
        kind = 2 if a.kwarg_only else 1
        if t in ("Tensor", "Optional[Tensor]"):
            if inputs and a.name not in attrs:
                named.append({"name": a.name, "arg": {"as_tensor": {"name": inputs.pop(0)["name"]}}, "kind": kind})
            elif a.name in attrs:
                named.append({"name": a.name, "arg": argument(attrs[a.name], "float"), "kind": kind})
        elif t in ("List[Tensor]", "List[Optional[Tensor]]"):
            count = list_sizes.pop(0) if list_sizes else len(inputs)
            names = [inputs.pop(0)["name"] for _ in range(count)]
            named.append({"name": a.name, "arg": {"as_tensors": [{"name": x} for x in names]}, "kind": kind})
        elif a.name in attrs:
            named.append({"name": a.name, "arg": argument(attrs[a.name], t), "kind": kind})
    outs = n["outputs"]
    if len(outs) == 1 and not schema.returns[0].type.str().startswith("List") and len(schema.returns) == 1:
        outputs = [{"as_tensor": {"name": outs[0]["name"]}}]
        tensor_values[outs[0]["name"]] = tensor_meta(outs[0])
    else:
        elements = []
        for k, o in enumerate(outs):
            name = element_names.get((n["name"], k), f"{n['name']}_unused_{k}")
            elements.append({"name": name})
            tensor_values[name] = tensor_meta(o)
        outputs = [{"as_tensors": elements}] if str(schema.returns[0].type).startswith("List") else \
                  [{"as_tensor": e} for e in elements]
    path = modules.get(n["name"], "")
    nodes.append({"target": "torch.ops." + n["op_type"], "inputs": named, "outputs": outputs,
                  "metadata": {"stack_trace": f"File \"/home/user/model/modeling.py\", line {100 + index % 900}, "
                                              f"in forward\n    x = self.op_{index}(x)",
                               "nn_module_stack": nn_module_stack(path),
                               "torch_fn": f"{n['name']};builtin_function_or_method.{n['op_type'].split('.')[1]}"},
                  "is_hop_single_tensor_return": None, "name": n["name"]})

input_specs = []
for w in ir["weights"]:
    ph = placeholder_of[w["name"]]
    if ph.startswith("p_"):
        input_specs.append({"parameter": {"arg": {"name": ph}, "parameter_name": w["name"]}})
    elif ph.startswith("b_"):
        input_specs.append({"buffer": {"arg": {"name": ph}, "buffer_name": w["name"], "persistent": True}})
    else:
        input_specs.append({"tensor_constant": {"arg": {"name": ph}, "tensor_constant_name": w["name"]}})
for t in ir["graph_inputs"]:
    input_specs.append({"user_input": {"arg": {"as_tensor": {"name": t["name"]}}}})
graph_outputs = [{"as_tensor": {"name": o["name"]}} for o in ir["graph_outputs"]]
output_specs = [{"user_output": {"arg": o}} for o in graph_outputs]

program = {
    "graph_module": {
        "graph": {"inputs": [{"as_tensor": {"name": list(s.values())[0]["arg"].get("name") or
                                            list(s.values())[0]["arg"]["as_tensor"]["name"]}} for s in input_specs],
                  "outputs": graph_outputs, "nodes": nodes, "tensor_values": tensor_values, "sym_int_values": {},
                  "sym_bool_values": {}, "is_single_tensor_return": False, "custom_obj_values": {},
                  "sym_float_values": {}},
        "signature": {"input_specs": input_specs, "output_specs": output_specs},
        "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields": {}},
    "opset_version": {"aten": 10}, "schema_version": {"major": 8, "minor": 20}, "torch_version": "2.13.0+cpu",
    "verifiers": ["TRAINING"], "range_constraints": {}, "guards_code": []}

values = None
if args.weights:
    from safetensors.numpy import load_file  # noqa: only when asked
    values = load_file(args.weights)

top = os.path.splitext(os.path.basename(args.output))[0]
config = {}
with zipfile.ZipFile(args.output, "w", zipfile.ZIP_STORED) as z:
    for f, data in (("archive_format", b"pt2"), ("archive_version", b"0"), (".data/version", b"6\n"),
                    ("byteorder", b"little"), (".data/serialization_id", b"0" * 40)):
        z.writestr(f"{top}/{f}", data)
    for i, w in enumerate(ir["weights"]):
        meta = tensor_meta(w, placeholder_of[w["name"]].startswith("p_"))
        count = 1
        for d in w["shape"]:
            count *= d
        nbytes = count * SIZES[meta["dtype"]]
        data = values[w["name"]].tobytes() if values is not None else os.urandom(nbytes)
        z.writestr(f"{top}/data/weights/weight_{i}", data)
        config[w["name"]] = {"path_name": f"weight_{i}", "is_param": meta["requires_grad"], "use_pickle": False,
                             "tensor_meta": meta}
    z.writestr(f"{top}/data/weights/model_weights_config.json", json.dumps({"config": config}))
    z.writestr(f"{top}/models/model.json", json.dumps(program))
print(f"{args.output}: {len(nodes)} nodes, {len(config)} weights, {os.path.getsize(args.output) / 2**20:.1f} MiB")
