"""Write NAME.pt2 beside each real export: the ExportedProgram pytorch-ir converted, saved by
torch.export.save, so the archive reader is checked against the IR pytorch-ir made of the same
program (NAME.json, written by make_real_exports.py from the same seed and the same model).

Run with the venv that has torch 2.13.0+cpu and pytorch-ir (README: Building against your own
PyTorch):  build-py/venv/bin/python tests/data/real/make_pt2_archives.py [OUTDIR]

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
    outdir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else HERE)
    only = set(sys.argv[2:])
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


if __name__ == "__main__":
    main()
