"""Fixture for core/exec/error_metrics: pairs of (actual, reference) tensors and
the metrics PyTorch computes for them with the formulas error_metrics.h states.

Writes tensors/error_metrics.pt ({"<case>.actual": t, "<case>.reference": t})
and tensors/error_metrics.json ({"rtol", "atol", "cases": {"<case>": {metric:
value}}}), non-finite values spelled "nan", "inf", "-inf".

Run: /usr/bin/python3 tests/data/make_error_metrics_fixture.py [OUTDIR]
"""
import json
import math
import os
import sys

import torch

RTOL, ATOL = 1e-3, 1e-5


def spelled(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def metrics(a, r):
    exact = not (a.is_floating_point() or a.is_complex())
    A, R = a.double().flatten(), r.double().flatten()
    D = A - R
    AD = D.abs()
    nan = float("nan")
    if torch.isnan(D).any():
        max_abs = mean_abs = mse = max_rel = sqnr = nan
    else:
        max_abs = AD.max().item()
        mean_abs = AD.mean().item()
        mse = (D * D).mean().item()
        rel = torch.where(AD == 0, torch.zeros_like(AD), AD / R.abs())
        max_rel = rel.max().item()
        dd, rr = (D * D).sum().item(), (R * R).sum().item()
        sqnr = float("inf") if dd == 0 else float("-inf") if rr == 0 else 10 * math.log10(rr / dd)
    aa, rr, dot = (A * A).sum().item(), (R * R).sum().item(), (A * R).sum().item()
    cosine = 1.0 if aa == 0 and rr == 0 else 0.0 if aa == 0 or rr == 0 else dot / math.sqrt(aa * rr)
    if exact:
        mismatches = int((a != r).sum())
    else:
        mismatches = int((~torch.isclose(A, R, rtol=RTOL, atol=ATOL)).sum())
        assert (mismatches == 0) == torch.allclose(A, R, rtol=RTOL, atol=ATOL)
    return {
        "exact": exact, "numel": a.numel(), "max_abs": spelled(max_abs), "max_rel": spelled(max_rel),
        "mean_abs": spelled(mean_abs), "mse": spelled(mse), "cosine": spelled(cosine), "sqnr_db": spelled(sqnr),
        "mismatches": mismatches, "ok": mismatches == 0,
        "nan_actual": int(torch.isnan(A).sum()), "inf_actual": int(torch.isinf(A).sum()),
        "nan_reference": int(torch.isnan(R).sum()), "inf_reference": int(torch.isinf(R).sum()),
    }


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "tensors")
    torch.manual_seed(12)
    ref = torch.randn(4, 16)
    cases = {}
    cases["noise"] = (ref + 1e-4 * torch.randn(4, 16), ref)
    cases["bf16"] = (ref.to(torch.bfloat16), ref)
    cases["half_vs_float"] = (ref.half(), ref)
    cases["equal"] = (ref.clone(), ref)
    with_nan = ref.clone()
    with_nan[1, 3] = float("nan")
    cases["nan_actual"] = (with_nan, ref)
    zero_ref = ref.clone()
    zero_ref[0, :4] = 0
    cases["zero_reference"] = (ref, zero_ref)
    both_inf = ref.clone()
    both_inf[2, 2] = float("inf")
    cases["same_inf"] = (both_inf, both_inf.clone())
    cases["zeros"] = (torch.zeros(3), torch.zeros(3))
    cases["zero_reference_only"] = (torch.ones(3), torch.zeros(3))
    ints = torch.arange(20, dtype=torch.int64)
    bad_ints = ints.clone()
    bad_ints[[3, 17]] += 1
    cases["int64"] = (bad_ints, ints)
    cases["bool"] = (torch.tensor([True, False, True]), torch.tensor([True, True, True]))
    cases["scaled"] = (ref * 1.01, ref)

    tensors, expected = {}, {}
    for name, (a, r) in cases.items():
        tensors[name + ".actual"] = a
        tensors[name + ".reference"] = r
        expected[name] = metrics(a, r)
    torch.save(tensors, os.path.join(outdir, "error_metrics.pt"))
    with open(os.path.join(outdir, "error_metrics.json"), "w") as f:
        json.dump({"rtol": RTOL, "atol": ATOL, "cases": expected}, f, indent=1)


if __name__ == "__main__":
    main()
