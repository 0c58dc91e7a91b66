"""PyTorch's own results for its quantized_decomposed ops (the quantize,
dequantize and choose_qparams ops PT2E quantization leaves in a program), and
torchao's for its affine ones, which tests/exec/test_quantized_ops.cpp
compares with irscope's equivalents (core/exec/compat/compat_quantized.cpp,
compat_torchao.cpp) bit for bit.

Every op here is elementwise arithmetic, rounding and min/max, which IEEE
float gives alike on every x86-64 processor, so the recorded values hold on
any machine. The inputs put values on the rounding boundaries (k + 0.5 times
the scale) where a different order of operations would round the other way.

Writes quantized_ops.pt: {"CASE.in0": tensor, ..., "CASE.out0": tensor, ...}.
Run with PyTorch 2.13 and torchao (the torch2 build's venv, plus
`pip install torchao`):
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

    # torchao's affine ops (core/exec/compat/compat_torchao.cpp): per row,
    # per group of 4, an int4 range kept in int8, bfloat16 in and out.
    import torchao.quantization.quant_primitives  # noqa: F401 - registers torch.ops.torchao

    ta = torch.ops.torchao
    w = torch.randn(8, 16) * 0.3
    ws, wz = ta.choose_qparams_affine(w, "SYMMETRIC", [1, 16], torch.int8, None, None, None, None, None, False)
    case("choose_qparams_affine_symmetric", [w], (ws, wz))
    w1 = w.clone()
    w1[:, 0] = ((torch.arange(8) % 5 - 2).float() + 0.5) * ws  # halfway between two steps
    wq = ta.quantize_affine(w1, [1, 16], ws, wz, torch.int8, None, None)
    case("quantize_affine_per_row", [w1, ws, wz], wq)
    case("dequantize_affine_per_row", [wq, ws, wz],
         ta.dequantize_affine(wq, [1, 16], ws, wz, torch.int8, None, None, torch.float32))
    g = torch.randn(4, 16) * 2 + 0.5
    gs, gz = ta.choose_qparams_affine(g, "ASYMMETRIC", [1, 4], torch.uint8, None, None, None, torch.float32,
                                      torch.int32, False)
    case("choose_qparams_affine_asymmetric_groups", [g], (gs, gz))
    gq = ta.quantize_affine(g, [1, 4], gs, gz, torch.uint8, None, None)
    case("quantize_affine_groups", [g, gs, gz], gq)
    case("dequantize_affine_groups_bf16", [gq, gs, gz],
         ta.dequantize_affine(gq, [1, 4], gs, gz, torch.uint8, None, None, torch.bfloat16))
    h = torch.randn(6, 8)
    hs, hz = ta.choose_qparams_affine(h, "SYMMETRIC_NO_CLIPPING_ERR", [1, 8], torch.int8, -8, 7, None, None, None,
                                      True)
    case("choose_qparams_affine_int4_keepdim", [h], (hs, hz))
    hb = h.bfloat16()
    case("quantize_affine_bf16_int4", [hb, hs, hz], ta.quantize_affine(hb, [1, 8], hs, hz, torch.int8, -8, 7))

    torch.save(out, os.path.join(HERE, "quantized_ops.pt"))
    print(f"wrote {len(out)} tensors")


if __name__ == "__main__":
    main()
