"""pytorch-ir's own executor's outputs for every real-export case, computed on
the machine that checks them.

PyTorch's CPU kernels are chosen by the processor (oneDNN, MKL and its own
vectorized code): linear, layer_norm and reductions can differ in the last bit
between two x86-64 machines. irscope's bit-exact check against pytorch-ir's
IRExecutor therefore compares with outputs computed here and now, by the
torch that irscope itself was built against (the venv of
`packaging/build-torch2.sh`), never with files recorded elsewhere.

  python make_executor_reference.py REALDIR OUTDIR

writes OUTDIR/NAME.executor.pt ({graph output name: tensor}, as
make_real_exports.py step 5 computes it) for every case of REALDIR/manifest.json
whose status is "ok", and OUTDIR/done when all are written. A case the executor
cannot run is an error: its status says it runs.
"""
import json
import os
import sys

import torch
from torch_ir import execute_ir, load_ir


def main(real_dir: str, out_dir: str) -> int:
    # torch's default intra-op threads, as irscope runs with: a matmul split
    # over another number of threads may round differently.
    os.makedirs(out_dir, exist_ok=True)
    done = os.path.join(out_dir, "done")
    if os.path.exists(done):
        os.remove(done)
    with open(os.path.join(real_dir, "manifest.json")) as f:
        manifest = json.load(f)
    cases = manifest if isinstance(manifest, list) else manifest["cases"]
    failed = []
    written = 0
    for case in cases:
        if case.get("status") != "ok":
            continue
        name = case["name"]
        base = os.path.join(real_dir, name)
        if not os.path.exists(base + ".json"):
            continue
        try:
            ir = load_ir(base + ".json")
            weights = torch.load(base + ".weights.pt", weights_only=True)
            named_in = torch.load(base + ".inputs.pt", weights_only=True) if os.path.exists(base + ".inputs.pt") else {}
            args = tuple(named_in[m.name].clone() for m in ir.graph_inputs)
            with torch.no_grad():
                outs = execute_ir(ir, args, weights=weights)
            result = {}
            for meta, t in zip(ir.graph_outputs, outs):
                result.setdefault(meta.name, t.detach().clone())
            torch.save(result, os.path.join(out_dir, name + ".executor.pt"))
            written += 1
        except Exception as e:  # noqa: BLE001 - every case is reported, then the script fails
            failed.append(f"{name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    for line in failed:
        print("make_executor_reference: " + line, file=sys.stderr)
    if failed:
        return 1
    with open(done, "w") as f:
        f.write(f"{written} cases, torch {torch.__version__}\n")
    print(f"make_executor_reference: {written} cases on torch {torch.__version__} into {out_dir}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
