#!/usr/bin/env python3
"""Copies the JSON IRs and Mermaid drawings of pytorch-ir's documentation page
on lifted tensor constants (its Markdown source, not in this repository) into
fixtures: <Model>.json and <Model>.mmd (the drawing pytorch-ir's docs show).

Usage: extract_seed_examples.py PATH/TO/lifted-tensor-constants.md
"""
import re
import sys
import textwrap

text = open(sys.argv[1]).read()
sections = re.split(r"^### ", text, flags=re.M)[1:]
for section in sections:
    name = section.split()[0]
    if name not in ("MaskedLinear", "GatherWithIndex", "BufferVsConstant"):
        continue
    blocks = re.findall(r"```(json|mermaid)\n(.*?)```", section, flags=re.S)
    for kind, body in blocks:
        body = textwrap.dedent(body)
        if kind == "json":
            open(f"{name}.json", "w").write(body)
        else:
            open(f"{name}.mmd", "w").write(body.rstrip("\n") + "\n")
