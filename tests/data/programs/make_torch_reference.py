"""PyTorch's own outputs for every program of tests/data/programs/, computed on
the machine that checks them, by the torch irscope was built against.

PyTorch's CPU kernels are chosen by the processor, so a bit-exact reference
is computed where it is compared (cli.pt2_programs, through the CTest fixture
cli.torch_reference of the build against PyTorch's own libtorch):

  python make_torch_reference.py PROGRAMDIR OUTDIR

loads each NAME.pt2 of PROGRAMDIR/manifest.json with torch.export.load, runs
its module on the example inputs stored in it, and writes
OUTDIR/NAME.torch.pt ({graph output name: tensor}), and NAME.torch_b.pt
for its second input set (NAME.inputs_b.pt) where it has one; then
OUTDIR/done. A
program torch cannot load here (a custom op whose Python is not imported) is
skipped: cli.pt2_programs expects no reference for it.
"""
import json
import os
import sys
import warnings

import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401 - registers quantized_decomposed, as PT2E programs need

try:  # the tensor subclasses of torchao-quantized weights unpickle through it
    import torchao  # noqa: F401
except ImportError:
    pass

warnings.filterwarnings("ignore")


def main(program_dir: str, out_dir: str) -> int:
    os.makedirs(out_dir, exist_ok=True)
    done = os.path.join(out_dir, "done")
    if os.path.exists(done):
        os.remove(done)
    with open(os.path.join(program_dir, "manifest.json")) as f:
        cases = json.load(f)
    written, skipped = 0, []
    for case in cases:
        name = case["name"]
        try:
            ep = torch.export.load(os.path.join(program_dir, name + ".pt2"))
        except Exception as e:  # noqa: BLE001 - reported, and the test expects no file
            skipped.append(f"{name} ({type(e).__name__})")
            continue
        args, kwargs = ep.example_inputs
        with torch.no_grad():
            outs = ep.module()(*args, **kwargs)
        if isinstance(outs, torch.Tensor):
            outs = (outs,)
        result = {n: t.detach().clone() for n, t in zip(case["outputs"], outs)}
        torch.save(result, os.path.join(out_dir, name + ".torch.pt"))
        written += 1
        # The second input set (another size of a dynamic program, the other
        # branch of a cond): NAME.inputs_b.pt holds it by user input name.
        inputs_b = os.path.join(program_dir, name + ".inputs_b.pt")
        if os.path.exists(inputs_b):
            named = torch.load(inputs_b)
            users = [s.arg.name for s in ep.graph_signature.input_specs
                     if s.kind == torch.export.graph_signature.InputKind.USER_INPUT]
            args_b = tuple(named[u] for u in users) if all(u in named for u in users) else tuple(named.values())
            with torch.no_grad():
                outs_b = ep.module()(*args_b)
            if isinstance(outs_b, torch.Tensor):
                outs_b = (outs_b,)
            torch.save({n: t.detach().clone() for n, t in zip(case["outputs"], outs_b)},
                       os.path.join(out_dir, name + ".torch_b.pt"))
    with open(done, "w") as f:
        f.write(f"{written} programs, torch {torch.__version__}\n")
    print(f"make_torch_reference: {written} programs on torch {torch.__version__} into {out_dir}"
          + (f"; not loadable here: {', '.join(skipped)}" if skipped else ""))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
