#!/usr/bin/env python3
"""Build a corpus of REAL pytorch-ir exports (PyTorch 2.x torch.export) for irscope's tests.

tests/data/make_ir_fixtures.py fakes pytorch-ir's output on PyTorch 1.13; this script instead
runs the real thing - `torch_ir.extract_ir` from the pytorch-ir wheel on a real PyTorch 2.x -
on ~50 tiny models (real_cases.py: pytorch-ir's own test/example models shrunk, a Kimi-K2.5 MoE
layer, a tiny Llama; real_probes.py: one probe per IR trait), so irscope can be tested against what users'
files really contain, warts included.

For each case NAME it writes into OUTDIR (default: this script's folder):
  NAME.json                torch_ir.extract_ir(model, real_inputs, strict=False) saved with ir.save():
                           the real-device extraction, lifted constants and non-persistent buffers
                           embedded under "constants". When an attr holds a torch object json cannot
                           write (dtype, device, layout, memory_format), the attrs are cleaned the way
                           pytorch-ir's examples/extract_kimi_k25_text_ir.py does (str() of the whole
                           attr value, e.g. "torch.float16", "cpu") and the manifest says so.
  NAME.meta.json           the same model deep-copied to the meta device, extracted with
                           strict=True (pytorch-ir's intended weight-free path); written only when
                           its JSON differs from NAME.json (constants missing, device attrs, ...).
  NAME.weights.pt          torch.save(model.state_dict())
  NAME.weights.safetensors the same state_dict as contiguous clones (tied weights become 2 tensors)
  NAME.constants.pt        {original name: tensor} for every lifted constant and non-persistent
                           buffer (ExportedProgram.constants), only when there are any
  NAME.inputs.pt           {graph input name (as in ir.graph_inputs): tensor}
  NAME.expected.pt         {graph output name (as in ir.graph_outputs): tensor} from the eager module
                           (a name listed twice in graph_outputs appears once)
  NAME.intermediates.pt    {tensor name: tensor} for every node output named in the IR ("node", or
                           "node_0", "node_1", ... for tuple outputs), recorded by running the
                           ExportedProgram's graph module with a torch.fx.Interpreter on the real
                           weights/constants/inputs; each value is cloned right after its node ran
                           (so an in-place op's entry is the value just after it, and a view's entry
                           is its value before later in-place ops changed it)
and manifest.json: one entry per attempted case (also the ones pytorch-ir cannot extract/save):
  {"name", "files", "traits", "status": ok|extract_failed|save_failed|executor_failed (pytorch-ir's
   own execute_ir() on NAME.json + the state_dict fails, or its outputs differ from eager),
   "why": first line of the exception (or of the executor/eager mismatch), "cleaned_attrs": bool,
   "notes": [anything else worth knowing: meta extraction outcome, name mismatches, ...]}

Determinism: torch's RNG is seeded per case from crc32(NAME); one intra-op thread; the interpreter
runs with deterministic algorithms + fill_uninitialized_memory, so torch.empty / new_empty outputs
in NAME.intermediates.pt are NaN-filled (ints: max value) instead of garbage. When OUTDIR already holds a corpus, files whose content (JSON value
or tensors) is unchanged are left untouched and the script prints which files changed / are new /
were removed.

Regenerate (needs PyTorch 2.x, pytorch-ir and safetensors, in a virtual environment under the
build tree, never the system Python):
  python3 -m venv build-py/venv
  build-py/venv/bin/pip install torch==2.13.0 pytorch-ir safetensors
  build-py/venv/bin/python tests/data/real/make_real_exports.py [OUTDIR]
"""
import copy
import json
import os
import shutil
import sys
import tempfile
import warnings
import zlib

import torch
import torch.utils._pytree as pytree
from safetensors.torch import load_file as load_safetensors
from safetensors.torch import save_file as save_safetensors
from torch.export.graph_signature import InputKind, OutputKind, TensorArgument

import torch_ir
from torch_ir import execute_ir, load_ir

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True    # no __pycache__ next to the corpus
sys.path.insert(0, HERE)
from real_cases import CASES  # noqa: E402 - part 1: pytorch-ir's own models, Kimi MoE, tiny Llama
import real_probes  # noqa: E402,F401 - part 2: registers one probe per IR trait into CASES

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

# ------------------------------------------------------------------ capture the ExportedProgram
# extract_ir() does not return the ExportedProgram it converted, but intermediates and constants
# need it. extract_ir calls the module-global torch_ir.export_model, so wrap that and keep what
# it returns: the IR stays exactly extract_ir's, and the graph we interpret is the one it saw.
_CAPTURED = []
_export_model = torch_ir.export_model


def _capturing_export_model(model, example_inputs, *, strict=True):
    ep = _export_model(model, example_inputs, strict=strict)
    _CAPTURED.append(ep)
    return ep


torch_ir.export_model = _capturing_export_model


def extract(model, inputs, strict):
    _CAPTURED.clear()
    ir = torch_ir.extract_ir(model, inputs, strict=strict)
    return ir, _CAPTURED[-1]


# ------------------------------------------------------------------ small helpers
def first_line(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"


def case_seed(name):
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


def clone_tree(x):
    return pytree.tree_map(lambda t: t.detach().clone() if isinstance(t, torch.Tensor) else t, x)


def clean_ir_attrs(ir):
    """pytorch-ir's examples/extract_kimi_k25_text_ir.py::_clean_ir_attrs, returning whether it changed anything."""
    changed = False
    for node in ir.nodes:
        for key, value in list(node.attrs.items()):
            try:
                json.dumps(value)
            except (TypeError, ValueError):
                node.attrs[key] = str(value)
                changed = True
    return changed


def save_ir_json(ir, path, notes, label):
    """ir.save(path), cleaning attrs first when json cannot write them. Returns cleaned?"""
    cleaned = False
    try:
        json.dumps(ir.to_dict(), indent=2)          # what ir.save() does, without a half-written file
    except (TypeError, ValueError) as e:
        notes.append(f"{label}: raw ir.save() fails ({first_line(e)}); attrs cleaned with str()")
        cleaned = clean_ir_attrs(ir)
    ir.save(path)
    return cleaned


def tensors_close(a, b):
    """Executor/interpreter output vs eager output, tolerant for low-precision floats."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False, f"shape/dtype {tuple(a.shape)}/{a.dtype} vs {tuple(b.shape)}/{b.dtype}"
    if not a.is_floating_point():
        return bool(torch.equal(a, b)), "integer values differ"
    low = a.dtype in (torch.float16, torch.bfloat16)
    ok = torch.allclose(a.float(), b.float(), rtol=1e-2 if low else 1e-4, atol=1e-2 if low else 1e-5, equal_nan=True)
    return bool(ok), f"max |diff| {(a.float() - b.float()).abs().max().item():.3g}"


def compare_named(got, want, label):
    """First mismatch between two {name: tensor} dicts as a string, or None."""
    for name, w in want.items():
        if name not in got:
            return f"{label}: output {name} missing"
        ok, why = tensors_close(got[name], w)
        if not ok:
            return f"{label}: output {name} differs from eager ({why})"
    return None


# ------------------------------------------------------------------ per-case stages
def name_inputs(ep, inputs):
    """{user input placeholder name: tensor}, in forward() argument order."""
    leaves = pytree.tree_leaves(inputs)
    return dict(zip(ep.graph_signature.user_inputs, leaves))


def name_outputs(ep, outputs):
    """{user output name: tensor} for the eager outputs, in graph output order."""
    specs = [s for s in ep.graph_signature.output_specs if s.kind == OutputKind.USER_OUTPUT]
    named = {}
    for spec, value in zip(specs, pytree.tree_leaves(outputs)):
        if isinstance(spec.arg, TensorArgument) and isinstance(value, torch.Tensor):
            named.setdefault(spec.arg.name, value.detach().clone())
    return named


class Recorder(torch.fx.Interpreter):
    """Runs an ExportedProgram's graph module, cloning every call_function output as it appears.

    Names follow torch_ir/analyzer.py::_extract_tensor_meta: a tensor result is "node", a tuple/list
    result gives "node_<i>" for each tensor element (None / non-tensor elements are skipped).
    """

    def __init__(self, gm):
        super().__init__(gm)
        self.values = {}

    def run_node(self, n):
        result = super().run_node(n)
        if n.op == "call_function":
            if isinstance(result, torch.Tensor):
                self.values[n.name] = result.detach().clone()
            elif isinstance(result, (list, tuple)):
                for i, v in enumerate(result):
                    if isinstance(v, torch.Tensor):
                        self.values[f"{n.name}_{i}"] = v.detach().clone()
        return result


def record_intermediates(ep, named_inputs):
    """Interpret ep.graph_module on the real parameters/buffers/constants/inputs."""
    args = []
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            args.append(named_inputs[spec.arg.name])
        elif spec.kind == InputKind.PARAMETER or (spec.kind == InputKind.BUFFER and spec.persistent):
            args.append(ep.state_dict[spec.target])
        elif spec.kind in (InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            args.append(ep.constants[spec.target])
        else:
            raise RuntimeError(f"unsupported input kind {spec.kind} for {spec.arg}")
    rec = Recorder(ep.graph_module)
    # Deterministic mode only here: with fill_uninitialized_memory it NaN-fills torch.empty /
    # new_empty outputs (ints: max value) so the file is reproducible. Not during export: it
    # changes what torch.export produces (meta-device upsample_bilinear2d gets decomposed).
    torch.use_deterministic_algorithms(True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        with torch.no_grad():
            outs = rec.run(*clone_tree(args))
    finally:
        torch.use_deterministic_algorithms(False)
    return rec.values, outs


def describe_meta_diff(real, meta):
    """Short reason why the meta-device JSON differs from the real-device one."""
    why = []
    rc, mc = real.get("constants", {}), meta.get("constants", {})
    if rc != mc:
        why.append(f"constants {sorted(mc)} instead of {sorted(rc)}")
    rn, mn = real["nodes"], meta["nodes"]
    if len(rn) != len(mn):
        i = next((i for i, (a, b) in enumerate(zip(rn, mn)) if a["op_type"] != b["op_type"]), min(len(rn), len(mn)))
        first = (rn[i]["op_type"] if i < len(rn) else "end", mn[i]["op_type"] if i < len(mn) else "end")
        why.append(f"{len(rn)} vs {len(mn)} nodes, first different op at #{i}: %s vs %s" % first)
    else:
        attr_diff = [(a["name"], a["attrs"], b["attrs"]) for a, b in zip(rn, mn) if a["attrs"] != b["attrs"]]
        if attr_diff:
            why.append("attrs differ in %d node(s), first %s: %s vs %s" % (len(attr_diff), *attr_diff[0]))
        strip = [({k: v for k, v in a.items() if k != "attrs"}, {k: v for k, v in b.items() if k != "attrs"})
                 for a, b in zip(rn, mn)]
        bad = [a["name"] for a, b in strip if a != b]
        if bad:
            why.append(f"node inputs/outputs differ in {bad[:4]}")
    others = [k for k in real if k not in ("constants", "nodes") and real[k] != meta.get(k)]
    if others:
        why.append(f"also differ: {others}")
    return "; ".join(why)


def run_case(name, traits, build, out):
    """Export one case into directory `out`; returns its manifest entry."""
    entry = {"name": name, "files": [], "traits": traits, "status": "ok", "why": "", "cleaned_attrs": False,
             "notes": []}
    notes, files = entry["notes"], entry["files"]

    def path(suffix):
        files.append(name + suffix)
        return os.path.join(out, name + suffix)

    torch.manual_seed(case_seed(name))
    model, inputs = build()
    model.eval()
    with torch.no_grad():
        eager = model(*clone_tree(inputs))

    # 1. real-device extraction (the corpus' main file)
    try:
        ir, ep = extract(model, inputs, strict=False)
    except Exception as e:  # noqa: BLE001 - every failure is data for the manifest
        entry.update(status="extract_failed", why=first_line(e))
        return entry
    raw_ir = copy.deepcopy(ir)                      # before any attr cleaning, for step 5
    try:
        json_path = path(".json")
        entry["cleaned_attrs"] = save_ir_json(ir, json_path, notes, "NAME.json")
    except Exception as e:  # noqa: BLE001
        files.clear()
        if os.path.exists(json_path):
            os.remove(json_path)
        entry.update(status="save_failed", why=first_line(e))
        return entry
    with open(json_path) as f:
        real_json = json.load(f)

    named_in = name_inputs(ep, inputs)
    expected = name_outputs(ep, eager)
    ir_in, ir_out = [m.name for m in ir.graph_inputs], [m.name for m in ir.graph_outputs]
    if ir_in != list(named_in):
        notes.append(f"ir.graph_inputs {ir_in} != user inputs {list(named_in)}")
    if sorted(set(ir_out)) != sorted(expected):
        notes.append(f"ir.graph_outputs {ir_out} != user outputs {list(expected)}")
    if len(set(ir_out)) != len(ir_out):
        notes.append(f"graph_outputs repeat a name: {ir_out}")

    # 2. meta-device extraction, kept when it differs
    try:
        meta_model = copy.deepcopy(model).to("meta")
        meta_ir, _ = extract(meta_model, tuple(t.to("meta") for t in inputs), strict=True)
        with tempfile.TemporaryDirectory() as tmp:
            mpath = os.path.join(tmp, "m.json")
            meta_notes = []
            meta_cleaned = save_ir_json(meta_ir, mpath, meta_notes, "NAME.meta.json")
            with open(mpath) as f:
                meta_json = json.load(f)
            if meta_json != real_json:
                shutil.copyfile(mpath, path(".meta.json"))
                notes.append(f"NAME.meta.json differs: {describe_meta_diff(real_json, meta_json)}"
                             + ("; its attrs were cleaned too" if meta_cleaned else ""))
    except Exception as e:  # noqa: BLE001
        notes.append(f"meta-device extraction failed: {first_line(e)}")

    # 3. weights, constants, inputs, expected outputs
    state_dict = model.state_dict()
    torch.save(state_dict, path(".weights.pt"))
    save_safetensors({k: v.detach().clone().contiguous() for k, v in state_dict.items()}, path(".weights.safetensors"))
    constants = {k: v.detach().clone() for k, v in ep.constants.items() if isinstance(v, torch.Tensor)}
    if constants:
        torch.save(constants, path(".constants.pt"))
    unmapped = [v for v in ir.weight_name_mapping.values() if v not in state_dict and v not in constants]
    if unmapped:
        notes.append(f"weight_name_mapping names in neither state_dict nor constants: {unmapped}")
    torch.save(named_in, path(".inputs.pt"))
    torch.save(expected, path(".expected.pt"))

    # 4. intermediates from the FX interpreter
    try:
        values, _ = record_intermediates(ep, named_in)
        ir_names = [o.name for n in ir.nodes for o in n.outputs]
        torch.save({k: values[k] for k in ir_names if k in values}, path(".intermediates.pt"))
        missing = [k for k in ir_names if k not in values]
        if missing:
            notes.append(f"intermediates missing for IR tensors {missing}")
        interp = {k: values[k] for k in expected if k in values}
        bad = compare_named(interp, {k: v for k, v in expected.items() if k in values}, "interpreter")
        if bad:
            notes.append(bad)
    except Exception as e:  # noqa: BLE001
        notes.append(f"intermediates failed: {first_line(e)}")

    # 5. pytorch-ir's own executor on the JSON file just written
    try:
        loaded = load_ir(json_path)
        args = tuple(named_in[m.name].clone() for m in loaded.graph_inputs)
        with torch.no_grad():
            outs = execute_ir(loaded, args, weights=state_dict)
        result = {}
        for meta, t in zip(loaded.graph_outputs, outs):
            result.setdefault(meta.name, t.detach().clone())
        # Not kept: its last bits depend on the processor; the bit-exact check
        # computes it where it runs (make_executor_reference.py).
        bad = compare_named(result, expected, "executor")
        if bad:
            entry.update(status="executor_failed", why=bad)
    except Exception as e:  # noqa: BLE001
        entry.update(status="executor_failed", why=first_line(e))
    if entry["cleaned_attrs"] and entry["status"] == "executor_failed":
        # was it the str() cleaning? run the executor on the uncleaned in-memory IR too
        try:
            with torch.no_grad():
                outs = execute_ir(raw_ir, tuple(named_in[m.name].clone() for m in raw_ir.graph_inputs), weights=state_dict)
            bad = compare_named({m.name: t for m, t in zip(raw_ir.graph_outputs, outs)}, expected, "executor")
            notes.append("executor on the uncleaned in-memory IR: " + (bad or "matches eager"))
        except Exception as e:  # noqa: BLE001
            notes.append(f"executor on the uncleaned in-memory IR fails too: {first_line(e)}")
    return entry


# ------------------------------------------------------------------ write-if-changed sync
def same_value(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return (a.dtype == b.dtype and a.shape == b.shape
                and (torch.equal(a, b) or (a.is_floating_point() and torch.allclose(a, b, 0, 0, equal_nan=True))))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def same_file(new, old):
    """Do two corpus files hold the same content (JSON value / tensors), whatever their bytes?"""
    if not os.path.exists(old):
        return False
    with open(new, "rb") as f1, open(old, "rb") as f2:
        if f1.read() == f2.read():
            return True
    try:
        if new.endswith(".json"):
            with open(new) as f1, open(old) as f2:
                return json.load(f1) == json.load(f2)
        if new.endswith(".safetensors"):
            return same_value(load_safetensors(new), load_safetensors(old))
        if new.endswith(".pt"):
            return same_value(torch.load(new, weights_only=True), torch.load(old, weights_only=True))
    except Exception:  # noqa: BLE001 - an unreadable old file counts as changed
        return False
    return False


def sync(tmp, outdir, new_files):
    old_files = set()
    manifest = os.path.join(outdir, "manifest.json")
    if os.path.exists(manifest):
        with open(manifest) as f:
            old_files = {fn for e in json.load(f) for fn in e["files"]}
    changed = 0
    for fn in new_files + ["manifest.json"]:
        src, dst = os.path.join(tmp, fn), os.path.join(outdir, fn)
        if same_file(src, dst):
            continue
        print(("changed: " if os.path.exists(dst) else "new:     ") + fn)
        shutil.copyfile(src, dst)
        changed += 1
    for fn in sorted(old_files - set(new_files)):
        if os.path.exists(os.path.join(outdir, fn)):
            print("removed: " + fn)
            os.remove(os.path.join(outdir, fn))
            changed += 1
    print(f"{changed} file(s) changed in {outdir}")


def main():
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    os.makedirs(outdir, exist_ok=True)
    names = [n for n, _, _ in CASES]
    assert len(names) == len(set(names)), "duplicate case name"
    with tempfile.TemporaryDirectory() as tmp:
        manifest = []
        for name, traits, build in CASES:
            entry = run_case(name, traits, build, tmp)
            manifest.append(entry)
            print(f"{entry['status']:16} {name:32} {entry['why'][:110]}", flush=True)
        with open(os.path.join(tmp, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=2)
            f.write("\n")
        sync(tmp, outdir, [fn for e in manifest for fn in e["files"]])


if __name__ == "__main__":
    main()
