"""Cuts of .pt2 programs, written by `irscope extract` as programs, loaded
back by PyTorch itself: torch.export.load reads each cut, its module runs on
the values at the cut irscope wrote, and gives the values irscope says the
cut must produce. Every higher-order op of the nested control-flow corpus
(tests/data/nested/) and of the control-flow fixtures is cut alone; a
dynamic-shape decoder's head reshape (sizes computed inside the cut) and a
block of its MLP too. Then random programs that look like real models
(program_grammar.py, as programs.differential draws them: attention, RoPE,
gathers, data-dependent sizes, control flow nested in blocks), each cut at a
random run of its nodes. Run by CTest's torch stage (the interpreter that has
torch 2.x); exits 1 naming each cut that does not load or differs.

    python program_cuts.py --irscope build/bin/irscope [--out DIR] [--random N]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

import torch

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"


def higher_order_nodes(pt2):
    with zipfile.ZipFile(pt2) as z:
        name = next(n for n in z.namelist() if n.endswith("models/model.json"))
        nodes = json.loads(z.read(name))["graph_module"]["graph"]["nodes"]
    return [n["name"] for n in nodes if n["target"].startswith("torch.ops.higher_order.")]


def cases():
    for pt2 in sorted((DATA / "nested").glob("*.pt2")):
        for node in higher_order_nodes(pt2):
            yield pt2, node
    for stem in ("while_loop_count", "cond_branches", "scan_cumulative", "map_rows"):
        pt2 = DATA / "programs" / f"{stem}.pt2"
        for node in higher_order_nodes(pt2):
            yield pt2, node
    llama = DATA / "programs" / "dynamic_seq_llama.pt2"
    yield llama, "linear,view,transpose"
    yield llama, "rms_norm_1,linear_4,silu,linear_5,mul_4,linear_6,add_3"


def random_cases(count, out):
    """(pt2, nodes) for `count` random programs, each cut at a random run of its top-level nodes."""
    import random

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from differential import export
    from program_grammar import make_program

    for seed in range(count):
        program = make_program(seed)
        pt2 = out / f"random_{seed}.pt2"
        try:
            ep, _ = export(program)
            torch.export.save(ep, str(pt2))
        except Exception:  # noqa: BLE001 - a drawn program torch.export refuses is not a cut's case
            continue
        with zipfile.ZipFile(pt2) as z:
            name = next(n for n in z.namelist() if n.endswith("models/model.json"))
            nodes = [n["name"] for n in json.loads(z.read(name))["graph_module"]["graph"]["nodes"]]
        r = random.Random(seed)
        start = r.randrange(len(nodes))
        yield pt2, ",".join(nodes[start : start + r.randint(1, 12)])


def check(irscope, pt2, nodes, out):
    stem = out / (pt2.stem + "_" + nodes.replace(",", "_")[:40])
    cut = stem.with_suffix(".pt2")
    r = subprocess.run([irscope, "extract", str(pt2), "--nodes", nodes, "-o", str(cut), "--weights", str(pt2),
                        "--inputs", str(pt2), "-q", "--force"], capture_output=True, text=True)
    if r.returncode != 0:
        # A cut whose values reach nothing, or that reads a value no program
        # input can carry, is refused with a reason: not a wrong cut.
        if "nothing to return" in r.stderr or "no output to check" in r.stderr or "used by nothing" in r.stderr:
            return None
        return f"extract failed: {r.stderr.strip()}"
    program = torch.export.load(str(cut))
    inputs = torch.load(f"{stem}.inputs.pt")
    expected = torch.load(f"{stem}.expected.pt")
    sig = program.graph_signature
    args = [inputs[s.arg.name] for s in sig.input_specs if s.kind.name == "USER_INPUT"]
    got = program.module()(*args)
    if not isinstance(got, (tuple, list)):
        got = [got]
    names = [s.arg.name for s in sig.output_specs]
    compared = 0
    for value, name in zip(got, names):
        if name not in expected:
            continue  # a size irscope hands on as a value is not in the tensor file
        torch.testing.assert_close(torch.as_tensor(value), expected[name], rtol=1.3e-6, atol=1e-5)
        compared += 1
    if compared == 0:
        return "no output compared"
    # The example inputs the cut keeps are its inputs at the cut.
    stored_args, _ = program.example_inputs
    for stored, given in zip(stored_args, args):
        torch.testing.assert_close(stored, given, rtol=0, atol=0)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--irscope", required=True)
    ap.add_argument("--out")
    ap.add_argument("--random", type=int, default=0, help="also this many random programs, each cut at random")
    a = ap.parse_args()
    out = pathlib.Path(a.out or tempfile.mkdtemp(prefix="program_cuts_"))
    out.mkdir(parents=True, exist_ok=True)
    failures = 0
    count = 0
    import itertools

    for pt2, nodes in itertools.chain(cases(), random_cases(a.random, out)):
        count += 1
        try:
            why = check(a.irscope, pt2, nodes, out)
        except Exception as e:  # a cut torch cannot load or run, or a difference
            why = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        if why:
            failures += 1
            print(f"FAIL {pt2.name} --nodes {nodes}: {why}")
    print(f"{count - failures} of {count} cuts load in torch {torch.__version__} and match")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
