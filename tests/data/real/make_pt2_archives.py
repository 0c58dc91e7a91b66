"""Write NAME.pt2 beside each real export: the ExportedProgram pytorch-ir converted, saved by
torch.export.save, so the archive reader is checked against the IR pytorch-ir made of the same
program (NAME.json, written by make_real_exports.py from the same seed and the same model).

Run with the venv that has torch 2.13.0+cpu and pytorch-ir (README: Building against your own
PyTorch):  build-py/venv/bin/python tests/data/real/make_pt2_archives.py [OUTDIR [CASE...]]
(--hostile-only rewrites just hostile/*.pt2 from OUTDIR/add_on_view.pt2, --legacy-only just
legacy/*.pt2, the 2.2-2.7 layout, from OUTDIR/NAME.pt2, --multi-only just multi/*.pt2, several
programs in one archive)

Each case is built exactly as make_real_exports.run_case builds it (seeded by its name), exported
through torch_ir.extract_ir (whose ExportedProgram make_real_exports captures), and saved with
torch.export.save, PyTorch 2.13's PT2 archive: models/model.json, raw weights and constants under
data/, sample inputs. Cases pytorch-ir cannot extract are skipped, as there.
"""
import os
import sys
import warnings

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import make_real_exports as real  # noqa: E402 - its main() is guarded; this reuses its cases and capture

warnings.filterwarnings("ignore")


def main():
    args = [a for a in sys.argv[1:] if a not in ("--hostile-only", "--legacy-only", "--multi-only")]
    outdir = os.path.abspath(args[0] if args else HERE)
    only = set(args[1:])
    if "--hostile-only" in sys.argv:
        write_hostile(outdir)
        return
    if "--legacy-only" in sys.argv:
        write_legacy(outdir)
        return
    if "--multi-only" in sys.argv:
        write_multi(outdir)
        return
    for name, _traits, build in real.CASES:
        if only and name not in only:
            continue
        torch.manual_seed(real.case_seed(name))
        model, inputs = build()
        model.eval()
        try:
            _ir, ep = real.extract(model, inputs, strict=False)
        except Exception as e:  # noqa: BLE001 - as make_real_exports: no IR, no archive
            print(f"skipped  {name:32} {real.first_line(e)[:100]}")
            continue
        path = os.path.join(outdir, name + ".pt2")
        torch.export.save(ep, path)
        print(f"written  {name:32} {os.path.getsize(path):>9} bytes", flush=True)
    if not only:
        write_hostile(outdir)
        write_legacy(outdir)
        write_multi(outdir)



# ------------------------------------------------------------------ hostile archives
# Each is add_on_view.pt2 with one thing broken, rewritten with Python's zipfile
# (stored records, as torch.export.save writes them). tests/io/test_pt2_archive.cpp
# expects a clear error for each.
def write_hostile(outdir):
    import json
    import zipfile

    src = os.path.join(outdir, "add_on_view.pt2")
    with zipfile.ZipFile(src) as z:
        records = {i.filename: z.read(i.filename) for i in z.infolist()}
    top = "add_on_view/"
    model = json.loads(records[top + "models/model.json"])
    weights = json.loads(records[top + "data/weights/model_weights_config.json"])
    hostile_dir = os.path.join(outdir, "hostile")
    os.makedirs(hostile_dir, exist_ok=True)

    def save(name, model_json=None, weights_json=None, compress=None, drop=None, replace=None):
        recs = dict(records)
        if drop is not None:
            del recs[drop]
        recs.update(replace or {})
        if model_json is not None:
            recs[top + "models/model.json"] = json.dumps(model_json).encode()
        if weights_json is not None:
            recs[top + "data/weights/model_weights_config.json"] = json.dumps(weights_json).encode()
        with zipfile.ZipFile(os.path.join(hostile_dir, name), "w", zipfile.ZIP_STORED) as z:
            for n, data in recs.items():
                z.writestr(zipfile.ZipInfo(n), data, compress_type=zipfile.ZIP_DEFLATED if n == compress else None)

    import copy
    m = copy.deepcopy(model)
    m["graph_module"]["graph"]["nodes"][0]["inputs"][0]["arg"] = {"as_tensor": {"name": "nosuch"}}
    save("unknown_tensor.pt2", model_json=m)
    m = copy.deepcopy(model)       # the first node reads the last node's output: a cycle
    m["graph_module"]["graph"]["nodes"][0]["inputs"][0]["arg"] = {"as_tensor": {"name": "mul"}}
    save("cycle.pt2", model_json=m)
    m = copy.deepcopy(model)
    m["schema_version"] = {"major": 99, "minor": 0}
    save("schema_99.pt2", model_json=m)
    w = copy.deepcopy(weights)
    w["config"]["lin.weight"]["tensor_meta"]["sizes"] = [{"as_int": 8}, {"as_int": 800}]
    w["config"]["lin.weight"]["tensor_meta"]["strides"] = [{"as_int": 800}, {"as_int": 1}]
    save("weights_past_end.pt2", weights_json=w)
    w = copy.deepcopy(weights)
    w["config"]["lin.bias"]["path_name"] = "weight_99"
    save("missing_weight_file.pt2", weights_json=w)
    w = copy.deepcopy(weights)
    w["config"]["lin.weight"]["tensor_meta"]["strides"] = [{"as_int": 1}]  # one stride for two dims
    save("stride_count.pt2", weights_json=w)
    save("compressed_graph.pt2", compress=top + "models/model.json")
    # The example inputs: none stored (PyTorch before 2.8 wrote none there), or
    # more tensors than the program takes.
    save("no_sample_inputs.pt2", drop=top + "data/sample_inputs/model.pt")
    import io
    import torch
    buf = io.BytesIO()
    x = torch.zeros(2, 8)
    torch.save(((x, x), {}), buf)
    save("sample_inputs_mismatch.pt2", replace={top + "data/sample_inputs/model.pt": buf.getvalue()})
    print("written  hostile/*.pt2")


# ------------------------------------------------------------------ the 2.2-2.7 layout
# PyTorch 2.2 to 2.7's torch.export.save wrote flat, stored records:
# serialized_exported_program.json, then serialized_state_dict.pt,
# serialized_constants.pt and serialized_example_inputs.pt (each the bytes of
# a torch.save) and `version`, all made by torch._export.serde.serialize's
# serialize(). 2.13 still has that function, so these are written with it
# from the cases' own programs (loaded back from their 2.13 archives).
# tests/io/test_pt2_archive.cpp reads their weights, constants and inputs.
LEGACY_CASES = ("add_on_view", "tiny_llama", "lifted_mask")


def write_legacy(outdir):
    import zipfile
    from torch._export.serde.serialize import SCHEMA_VERSION, serialize

    legacy_dir = os.path.join(outdir, "legacy")
    os.makedirs(legacy_dir, exist_ok=True)
    for name in LEGACY_CASES:
        ep = torch.export.load(os.path.join(outdir, name + ".pt2"))
        artifact = serialize(ep)
        path = os.path.join(legacy_dir, name + ".pt2")
        with zipfile.ZipFile(path, "w") as z:  # ZIP_STORED, as 2.2-2.7 wrote
            for record, data in (("serialized_exported_program.json", artifact.exported_program),
                                 ("serialized_state_dict.pt", artifact.state_dict),
                                 ("serialized_constants.pt", artifact.constants),
                                 ("serialized_example_inputs.pt", artifact.example_inputs),
                                 ("version", ".".join(map(str, SCHEMA_VERSION)).encode())):
                z.writestr(zipfile.ZipInfo(record), data)
        print(f"written  legacy/{name}.pt2 {os.path.getsize(path):>9} bytes")
    # PyTorch 2.1 named the same torch.save bytes serialized_state_dict.json and
    # serialized_constants.json, and stored no example inputs.
    artifact = serialize(torch.export.load(os.path.join(outdir, "add_on_view.pt2")))
    path = os.path.join(legacy_dir, "add_on_view_2_1.pt2")
    with zipfile.ZipFile(path, "w") as z:
        for record, data in (("serialized_exported_program.json", artifact.exported_program),
                             ("serialized_state_dict.json", artifact.state_dict),
                             ("serialized_constants.json", artifact.constants),
                             ("version", b"1")):
            z.writestr(zipfile.ZipInfo(record), data)
    print(f"written  legacy/add_on_view_2_1.pt2 {os.path.getsize(path):>9} bytes")


# ------------------------------------------------------------------ several programs
# torch.export's package API (package_pt2) stores several programs in one
# archive, one models/<name>.json each with its own weights config and sample
# inputs; none of them is called "model" here, so nothing is the default by
# name. tests/io/test_pt2_archive.cpp opens each as multi/two_programs.pt2#NAME.
MULTI_CASES = ("add_on_view", "tiny_llama")


def write_multi(outdir):
    from torch.export.pt2_archive._package import package_pt2

    multi_dir = os.path.join(outdir, "multi")
    os.makedirs(multi_dir, exist_ok=True)
    programs = {name: torch.export.load(os.path.join(outdir, name + ".pt2")) for name in MULTI_CASES}
    path = os.path.join(multi_dir, "two_programs.pt2")
    package_pt2(path, exported_programs=programs)
    print(f"written  multi/two_programs.pt2 {os.path.getsize(path):>9} bytes")


if __name__ == "__main__":
    main()
