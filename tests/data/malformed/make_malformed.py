#!/usr/bin/env python3
"""Writes the malformed-IR corpus: each case is the SimpleMLP or MaskedLinear seed
with one thing broken, and expected.tsv says what irscope must report for it:

    FILE <TAB> load|error|warning|info <TAB> CODE-or-'-' <TAB> text the message must contain

`load` cases must fail to load (LoadError naming the JSON path / line:column);
the others must load and produce a diagnostic of that severity and code.
The expected texts are written by hand here, from the rules in docs/ir-format.md.
"""
import copy
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "..", "seeds")
mlp = json.load(open(os.path.join(SEEDS, "SimpleMLP.json")))
masked = json.load(open(os.path.join(SEEDS, "MaskedLinear.json")))
cases = []


def case(name, kind, code, text, data=None, raw=None):
    path = os.path.join(HERE, name)
    if raw is not None:
        open(path, "wb").write(raw if isinstance(raw, bytes) else raw.encode())
    else:
        open(path, "w").write(json.dumps(data, indent=2))
    cases.append((name, kind, code, text))


def mutate(base, fn):
    d = copy.deepcopy(base)
    fn(d)
    return d


# --- files that must not load -------------------------------------------------
case("empty.json", "load", "-", "empty", raw="")
case("not_json.json", "load", "-", "expected an object", raw="hello")
case("truncated.json", "load", "-", "unexpected end of file", raw=json.dumps(mlp, indent=2)[:700])
case("trailing_comma.json", "load", "-", "trailing comma", raw='{"model_name": "x", "nodes": [],}')
case("extra_data.json", "load", "-", "extra data", raw=json.dumps(mlp) + " {}")
case("missing_nodes.json", "load", "-", "missing required key 'nodes'", mutate(mlp, lambda d: d.pop("nodes")))
case("missing_shape.json", "load", "-", "nodes[1].inputs[0]: missing required key 'shape'",
     mutate(mlp, lambda d: d["nodes"][1]["inputs"][0].pop("shape")))
case("shape_not_list.json", "load", "-", "nodes[0].outputs[0].shape: expected an array",
     mutate(mlp, lambda d: d["nodes"][0]["outputs"][0].update(shape=5)))
case("name_not_string.json", "load", "-", "nodes[2].name: expected a string",
     mutate(mlp, lambda d: d["nodes"][2].update(name=7)))
case("invalid_utf8.json", "load", "-", "invalid UTF-8",
     raw=json.dumps(mlp).replace('"SimpleMLP"', '"Simple\udcffMLP"', 1).encode("utf-8", "surrogateescape"))
case("deep_nesting.json", "load", "-", "nesting deeper than",
     raw='{"graph_inputs": [], "nodes": [{"attrs": {"x": ' + "[" * 100000 + "]" * 100000 + "}}]}")
case("bad_escape.json", "load", "-", "invalid escape", raw='{"model_name": "a\\qb"}')
case("control_char.json", "load", "-", "control character", raw='{"model_name": "a\tb"}')
case("single_quotes.json", "load", "-", "expected a key in double quotes", raw="{'model_name': 'x'}")
case("bad_number.json", "load", "-", "expected a digit after the decimal point",
     raw='{"graph_inputs": [{"name": "x", "shape": [1.], "dtype": "float32"}]}')

# --- files that load, with errors ---------------------------------------------
case("duplicate_node.json", "error", "duplicate-node", "node name 'linear' is used by nodes[0] and nodes[1]",
     mutate(mlp, lambda d: d["nodes"][1].update(name="linear")))
case("unknown_producer.json", "error", "unknown-producer", "names producer 'nowhere'",
     mutate(mlp, lambda d: d["nodes"][1]["inputs"][0].update(producer_node="nowhere")))
case("order_violation.json", "error", "order-violation", "comes later in the file",
     mutate(mlp, lambda d: d["nodes"][0]["inputs"][0].update(producer_node="relu")))
case("output_index.json", "error", "output-index", "takes output 3 of 'linear', which has 1 output",
     mutate(mlp, lambda d: d["nodes"][1]["inputs"][0].update(producer_output_idx=3)))
case("unmapped_placeholder.json", "error", "unmapped-placeholder", "placeholder 'p_fc1_weight' is not in weight_name_mapping",
     mutate(mlp, lambda d: d["weight_name_mapping"].pop("p_fc1_weight")))
case("mapping_target_missing.json", "error", "mapping-target-missing", "'fc2.bias', which is not in 'weights'",
     mutate(mlp, lambda d: d["weights"].pop(3)))
case("negative_dim.json", "error", "negative-dim", "negative dimension (-1)",
     mutate(mlp, lambda d: d["nodes"][1]["outputs"][0].update(shape=[1, -1])))
case("float_dim.json", "error", "invalid-dim", "dimension 1 is not an integer (8.5)",
     mutate(mlp, lambda d: d["nodes"][1]["outputs"][0].update(shape=[1, 8.5])))
case("symbolic_dim.json", "error", "invalid-dim", "dimension 0 is not an integer (\"s0\")",
     mutate(mlp, lambda d: d["graph_inputs"][0].update(shape=["s0", 4])))
case("overflow_dims.json", "error", "shape-overflow", "does not fit in 64 bits",
     mutate(mlp, lambda d: d["weights"][0].update(shape=[4294967296, 4294967296, 16])))
case("unproduced_output.json", "error", "unproduced-output", "graph output 'ghost' is not produced by any node",
     mutate(mlp, lambda d: d["graph_outputs"][0].update(name="ghost")))
case("constant_shape.json", "error", "constant-mismatch", "holds data of shape [2, 2] but 'weights' declares [4]",
     mutate(masked, lambda d: d["constants"]["mask"].update(data=[[1.0, 0.0], [1.0, 0.0]])))
case("constant_dtype.json", "error", "constant-mismatch", "holds int64 data but 'weights' declares float32",
     mutate(masked, lambda d: d["constants"]["mask"].update(data=[1, 0, 1, 0], dtype="int64")))
case("constant_ragged.json", "error", "bad-constant", "ragged data",
     mutate(masked, lambda d: d["constants"]["mask"].update(data=[[1.0, 0.0], [1.0]])))
case("constant_unknown_dtype.json", "error", "bad-constant", "unknown dtype 'floaty'",
     mutate(masked, lambda d: d["constants"]["mask"].update(dtype="floaty")))
case("unknown_dtype.json", "error", "unknown-dtype", "unknown dtype 'flaot32'",
     mutate(mlp, lambda d: d["nodes"][0]["outputs"][0].update(dtype="flaot32")))
case("getitem_no_index.json", "error", "getitem-index", "no integer 'index' attr",
     mutate(mlp, lambda d: d["nodes"][1].update(op_type="<built-in function getitem>", attrs={})))

# --- warnings and info --------------------------------------------------------
case("meta_mismatch.json", "warning", "meta-mismatch", "declared float32 [1, 9] but its producer 'linear' says float32 [1, 8]",
     mutate(mlp, lambda d: d["nodes"][1]["inputs"][0].update(shape=[1, 9])))
case("unknown_op.json", "warning", "unknown-op", "op_type 'aten.frobnicate.default' is not an ATen op",
     mutate(mlp, lambda d: d["nodes"][1].update(op_type="aten.frobnicate.default")))
case("meta_extracted.json", "warning", "missing-constant",
     "lifted constant 'c_mask' (original name 'mask' (float32 [4])) has no value",
     mutate(masked, lambda d: d.pop("constants")))
case("unused_weight.json", "info", "unused-weight", "weight 'bn.num_batches_tracked' (b_bn_num_batches_tracked) is not used",
     mutate(mlp, lambda d: (d["weights"].append({"name": "bn.num_batches_tracked", "shape": [], "dtype": "int64"}),
                            d["weight_name_mapping"].update(b_bn_num_batches_tracked="bn.num_batches_tracked"))))

with open(os.path.join(HERE, "expected.tsv"), "w") as f:
    for row in cases:
        f.write("\t".join(row) + "\n")
print(f"{len(cases)} cases")
