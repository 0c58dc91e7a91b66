#!/usr/bin/env python3
"""Pairs of tensors with torch.testing.assert_close's own verdict on each, for
irscope's per-dtype default tolerances (core/exec/tolerance.h).

irscope's verdict on a run (`irscope run --expected`, the window's status line,
the Differences dock, First divergence) uses, when the user set no rtol/atol,
the default assert_close picks for the dtypes compared. This script asks
PyTorch itself: for each dtype it builds an expected tensor and actual tensors
whose error sits just inside or just outside that dtype's band
(|actual - expected| <= atol + rtol * |expected|), plus exact-only integer and
bool pairs and mixed-dtype pairs (assert_close with check_dtype=False takes the
looser of the two dtypes' defaults), and records whether assert_close passed.
Nothing here is computed by irscope.

Writes, next to this script:
  tolerance_pairs.pt    {"<case>.actual": tensor, "<case>.expected": tensor}
  tolerance_pairs.json  {"torch": version, "cases": [{"name", "actual_dtype",
                         "expected_dtype", "passes", "rtol", "atol"}]} where rtol
                         and atol are assert_close's defaults for the pair

Run with PyTorch 2.x:  python3 make_tolerance_pairs.py
"""
import json
import os

import torch
from torch.testing._comparison import default_tolerances

HERE = os.path.dirname(os.path.abspath(__file__))


def verdict(actual, expected):
    try:
        torch.testing.assert_close(actual, expected, check_dtype=False)
        return True
    except AssertionError:
        return False


def main():
    torch.manual_seed(0)
    tensors, cases = {}, []

    def add(name, actual, expected):
        rtol, atol = default_tolerances(actual, expected)
        cases.append({"name": name, "actual_dtype": str(actual.dtype).replace("torch.", ""),
                      "expected_dtype": str(expected.dtype).replace("torch.", ""),
                      "passes": verdict(actual, expected), "rtol": rtol, "atol": atol})
        tensors[name + ".actual"] = actual
        tensors[name + ".expected"] = expected

    for dtype in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
        rtol, atol = default_tolerances(torch.empty(0, dtype=dtype))
        # Values of several magnitudes, so both atol (near 0) and rtol matter.
        expected = (torch.randn(4, 8, dtype=torch.float64) * torch.tensor([1e-3, 1.0, 30.0, 1000.0]).view(4, 1)).to(dtype)
        band = atol + rtol * expected.double().abs()
        short = str(dtype).replace("torch.", "")
        for factor, label in ((0.3, "inside"), (3.0, "outside")):
            # The error is placed on one element; the rest are equal.
            delta = torch.zeros_like(expected, dtype=torch.float64)
            delta[1, 3] = factor * band[1, 3]
            actual = (expected.double() + delta).to(dtype)
            add(f"{short}_{label}", actual, expected)
        # Near zero only atol counts: an error of 0.5 atol and of 2 atol.
        zero = torch.zeros(3, dtype=dtype)
        add(f"{short}_near_zero_inside", torch.tensor([0.0, 0.5 * atol, 0.0], dtype=torch.float64).to(dtype), zero)
        add(f"{short}_near_zero_outside", torch.tensor([0.0, 4 * atol, 0.0], dtype=torch.float64).to(dtype), zero)
        # NaN against NaN is not close (equal_nan=False); inf against inf is.
        add(f"{short}_nan", torch.tensor([1.0, float("nan")], dtype=dtype), torch.tensor([1.0, float("nan")], dtype=dtype))
        add(f"{short}_inf", torch.tensor([1.0, float("inf")], dtype=dtype), torch.tensor([1.0, float("inf")], dtype=dtype))

    # float32 noise an LLM's float32 run really has against PyTorch: 1.7e-6 on values ~1.
    expected = torch.linspace(-2, 2, 64, dtype=torch.float32)
    add("float32_llm_noise", expected + 1.67e-6, expected)

    # Integers and bools: exact.
    for dtype in (torch.int64, torch.int32, torch.int8, torch.uint8):
        short = str(dtype).replace("torch.", "")
        e = torch.arange(6, dtype=dtype)
        add(f"{short}_equal", e.clone(), e)
        off = e.clone()
        off[2] += 1
        add(f"{short}_off_by_one", off, e)
    b = torch.tensor([True, False, True])
    add("bool_equal", b.clone(), b)
    add("bool_differs", torch.tensor([True, True, True]), b)

    # Mixed dtypes (a reduced-precision reference against a float32 run): the
    # looser of the two defaults applies.
    e32 = torch.randn(16, dtype=torch.float32)
    for reduced, at_index in ((torch.bfloat16, 5), (torch.float16, 7)):
        e = e32.to(reduced)
        rt, at = default_tolerances(e)
        band = at + rt * e.float().abs()
        short = str(reduced).replace("torch.", "")
        for factor, label in ((0.3, "inside"), (3.0, "outside")):
            a = e.float().clone()
            a[at_index] += factor * band[at_index]
            add(f"float32_vs_{short}_{label}", a, e)

    torch.save(tensors, os.path.join(HERE, "tolerance_pairs.pt"))
    with open(os.path.join(HERE, "tolerance_pairs.json"), "w") as f:
        json.dump({"torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} pairs, {sum(c['passes'] for c in cases)} pass")


if __name__ == "__main__":
    main()
