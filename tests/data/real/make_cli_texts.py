#!/usr/bin/env python3
"""What pytorch-ir's own CLI prints for every case of the real-export corpus.

irscope's `info` and `mermaid` promise to print exactly what `pytorch-ir info`
and `pytorch-ir visualize` print for the same file, byte for byte, so that
scripts written against pytorch-ir keep working. This script records
pytorch-ir's texts beside each case, and tests/cli/test_real_exports.cpp
compares irscope's output with them:

  NAME.info.txt        pytorch-ir info NAME.json
  NAME.info_json.txt   pytorch-ir info NAME.json --json
  NAME.visualize.txt   pytorch-ir visualize NAME.json            (30 nodes, weights drawn)
  NAME.visualize_all.txt  pytorch-ir visualize NAME.json --max-nodes 100000 --no-weights

Each text is the CLI's standard output, captured in this process (the CLI
prints with print(), so each ends with one newline). Run it after
make_real_exports.py, with the same environment:

  build-py/venv/bin/python tests/data/real/make_cli_texts.py [OUTDIR]
"""
import contextlib
import io
import json
import sys
from pathlib import Path

from torch_ir import cli

COMMANDS = {
    "info.txt": ["info"],
    "info_json.txt": ["info", "--json"],
    "visualize.txt": ["visualize"],
    "visualize_all.txt": ["visualize", "--max-nodes", "100000", "--no-weights"],
}


def captured(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli.main(argv)
    return out.getvalue()


def main():
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    cases = json.loads((folder / "manifest.json").read_text())
    changed = 0
    for case in cases:
        ir_file = folder / (case["name"] + ".json")
        if not ir_file.exists():
            continue
        for suffix, args in COMMANDS.items():
            text = captured([args[0], str(ir_file)] + args[1:])
            target = folder / f"{case['name']}.{suffix}"
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
                changed += 1
                print(f"changed: {target.name}")
    print(f"{changed} file(s) changed")


if __name__ == "__main__":
    main()
