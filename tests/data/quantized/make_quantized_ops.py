"""PyTorch's own results for its quantized_decomposed ops (the quantize,
dequantize and choose_qparams ops PT2E quantization leaves in a program),
which tests/exec/test_quantized_ops.cpp compares with irscope's equivalents
(core/exec/compat/compat_quantized.cpp) bit for bit.

Every op here is elementwise arithmetic, rounding and min/max, which IEEE
float gives alike on every x86-64 processor, so the recorded values hold on
any machine. The inputs put values on the rounding boundaries (k + 0.5 times
the scale) where a different order of operations would round the other way.

Writes quantized_ops.pt: {"CASE.in0": tensor, ..., "CASE.out0": tensor, ...}.
Run with PyTorch 2.13 (the torch2 build's venv):
  build-torch2/venv/bin/python tests/data/quantized/make_quantized_ops.py
"""
import os

import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401 - registers torch.ops.quantized_decomposed

HERE = os.path.dirname(os.path.abspath(__file__))
qd = torch.ops.quantized_decomposed


def boundary_values(scale, n, spread=3.0):
    """Random values, with every fourth one exactly halfway between two steps."""
    x = torch.randn(n) * spread
    k = torch.randint(-100, 100, (n,)).float()
    x[::4] = ((k + 0.5) * scale)[::4].float()
    return x


def main():
    torch.manual_seed(20261128)
    out = {}

    def case(name, inputs, outputs):
        for i, t in enumerate(inputs):
            out[f"{name}.in{i}"] = t
        for i, t in enumerate(outputs if isinstance(outputs, (tuple, list)) else [outputs]):
            out[f"{name}.out{i}"] = t

    x = boundary_values(0.0237, 256)
    q = qd.quantize_per_tensor(x, 0.0237, 3, -128, 127, torch.int8)
    case("quantize_per_tensor", [x], q)
    case("dequantize_per_tensor", [q], qd.dequantize_per_tensor(q, 0.0237, 3, -128, 127, torch.int8))
    xu = boundary_values(0.05, 128)
    case("quantize_per_tensor_uint8", [xu], qd.quantize_per_tensor(xu, 0.05, 128, 0, 255, torch.uint8))
    xh = boundary_values(0.0237, 64).half()
    case("quantize_per_tensor_half", [xh], qd.quantize_per_tensor(xh, 0.0237, -2, -128, 127, torch.int8))

    scale_t = torch.tensor([0.0173], dtype=torch.float64)
    zp_t = torch.tensor([-5], dtype=torch.int64)
    qt = qd.quantize_per_tensor.tensor(x, scale_t, zp_t, -128, 127, torch.int8)
    case("quantize_per_tensor_tensor", [x, scale_t, zp_t], qt)
    case("dequantize_per_tensor_tensor", [qt, scale_t, zp_t],
         qd.dequantize_per_tensor.tensor(qt, scale_t, zp_t, -128, 127, torch.int8))

    w = torch.randn(6, 4, 3) * 0.2
    scales = w.abs().amax(dim=(0, 2)) / 127  # per channel of axis 1
    w[0, :, 0] = (torch.arange(4) + 0.5) * scales  # halfway values
    zps = torch.tensor([0, 1, -1, 2], dtype=torch.int64)
    qc = qd.quantize_per_channel(w, scales, zps, 1, -128, 127, torch.int8)
    case("quantize_per_channel", [w, scales, zps], qc)
    case("dequantize_per_channel", [qc, scales, zps], qd.dequantize_per_channel(qc, scales, zps, 1, -128, 127, torch.int8))
    case("dequantize_per_channel_no_zero_points", [qc, scales],
         qd.dequantize_per_channel(qc, scales, None, 1, -128, 127, torch.int8))

    a = torch.randn(5, 7) * 2 + 0.3
    case("choose_qparams", [a], qd.choose_qparams.tensor(a, -128, 127, torch.finfo(torch.float32).eps, torch.int8))
    case("choose_qparams_symmetric", [a],
         qd.choose_qparams_symmetric.tensor(a, 0, 255, torch.finfo(torch.float32).eps, torch.uint8))
    s, z = qd.choose_qparams.tensor(a, -128, 127, torch.finfo(torch.float32).eps, torch.int8)
    case("quantize_chosen", [a, s, z], qd.quantize_per_tensor.tensor(a, s, z, -128, 127, torch.int8))

    t = torch.randn(2, 3, 8) * 1.5
    ts, tz = qd.choose_qparams_per_token_asymmetric(t, torch.int8)
    case("choose_qparams_per_token_asymmetric", [t], (ts, tz))
    tq = qd.quantize_per_token(t, ts, tz, -128, 127, torch.int8)
    case("quantize_per_token", [t, ts, tz], tq)
    case("dequantize_per_token", [tq, ts, tz], qd.dequantize_per_token(tq, ts, tz, -128, 127, torch.int8, torch.float32))

    torch.save(out, os.path.join(HERE, "quantized_ops.pt"))
    print(f"wrote {len(out)} tensors")


if __name__ == "__main__":
    main()
