#!/usr/bin/env python3
"""Writes tools/op_schemas/pytorch2_schemas.txt: the PyTorch 2.x schemas of the
ops torch.export emits that libtorch 1.13 lacks or has under an older schema.

The build's op-schema table (tools/op_schemas/dump_op_schemas.cpp) is the
dispatcher of the libtorch the build links, plus these: so `irscope validate`
knows an op the executor runs through an equivalent on 1.13
(core/exec/compat/compat_ops.h), and reads each argument as PyTorch 2.x declares it
(the IR was exported there). On a 2.x libtorch the same lines are that
dispatcher's own schemas.

Run it with the PyTorch 2.13 wheel and torchao (the virtual environment
build-torch2/venv has torch; `pip install torchao` adds torchao):
    build-py/venv/bin/python tools/op_schemas/make_pytorch2_schemas.py \
        > tools/op_schemas/pytorch2_schemas.txt
An op added here is usually also given an equivalent in core/exec/compat/
(docs/libtorch-versions.md says how).
"""
import sys

import torch

# Ops 1.13 lacks, or whose 1.13 schema differs from 2.x's (the second group:
# the equivalents that shadow a 1.13 op, compat_changed_schemas.cpp).
PYTORCH2_OPS = """
aten._native_batch_norm_legit_no_training.default aten._native_batch_norm_legit.default
aten._native_batch_norm_legit.no_stats aten._native_batch_norm_legit_functional.default
aten._batch_norm_no_update.default aten._batch_norm_with_update.default
aten._batch_norm_with_update_functional.default aten.scaled_dot_product_attention.default
aten._scaled_dot_product_flash_attention.default aten._scaled_dot_product_flash_attention_for_cpu.default
aten._scaled_dot_product_efficient_attention.default aten._scaled_dot_product_cudnn_attention.default
aten._safe_softmax.default aten.rms_norm.default aten._fused_rms_norm.default aten.squeeze.dims
aten.any.dims aten.all.dims aten._unsafe_index.Tensor aten._unsafe_index_put.default
aten._unsafe_masked_index.default aten._unsafe_masked_index_put_accumulate.default
aten._prelu_kernel.default aten.empty_permuted.default aten.linspace.Tensor_Tensor
aten.linspace.Tensor_Scalar aten.linspace.Scalar_Tensor aten.mm.dtype aten.bmm.dtype aten.addmm.dtype
aten.nonzero_static.default aten.sym_size.int aten.sym_numel.default aten.sym_stride.int
aten.sym_storage_offset.default aten._assert_tensor_metadata.default aten._assert_scalar.default
aten._assert_async.msg aten.sym_constrain_range.default aten.sym_constrain_range_for_size.default
aten._make_dep_token.default aten._weight_int8pack_mm.default aten._int_mm.default aten._grouped_mm.default
aten._scaled_mm.default aten.copy.default aten.alias.default aten.lift_fresh_copy.default
aten.var.correction aten.std.correction aten.var_mean.correction aten.std_mean.correction
aten.stft.default aten.stft.center aten.pad_sequence.default
""".split() + """
quantized_decomposed.quantize_per_tensor.default quantized_decomposed.quantize_per_tensor.tensor
quantized_decomposed.quantize_per_tensor.tensor2 quantized_decomposed.dequantize_per_tensor.default
quantized_decomposed.dequantize_per_tensor.tensor quantized_decomposed.quantize_per_channel.default
quantized_decomposed.dequantize_per_channel.default quantized_decomposed.choose_qparams.tensor
quantized_decomposed.choose_qparams_symmetric.tensor
quantized_decomposed.choose_qparams_per_token_asymmetric.default
quantized_decomposed.quantize_per_token.default quantized_decomposed.dequantize_per_token.default
""".split() + """
torchao.quantize_affine.default torchao.dequantize_affine.default torchao.choose_qparams_affine.default
export.access_subclass_inner_tensor.default
""".split()
# The ops PyTorch defines in Python, which PT2E quantization leaves in a
# program (core/exec/compat/compat_quantized.cpp), and torchao's affine ones
# (compat_torchao.cpp; the venv has torchao): no libtorch has them.
import torch.ao.quantization.fx._decomposed  # noqa: E402,F401 - registers quantized_decomposed
import torchao.quantization.quant_primitives  # noqa: E402,F401 - registers torchao's ops
import torch.export.custom_ops  # noqa: E402,F401 - access_subclass_inner_tensor (subclass weights)


# PyTorch's symbolic ops: Python callables, serialized by module and name
# (torch/_export/serde/serialize.py's _SYM_OPS), so they have no schema of
# their own. Written as irscope runs them (core/exec/compat/compat_symbolic.cpp):
# every argument a Python number, named as inspect.signature names it.
SYMBOLIC_SCHEMAS = """
_operator::add(Scalar a, Scalar b) -> Scalar
_operator::sub(Scalar a, Scalar b) -> Scalar
_operator::mul(Scalar a, Scalar b) -> Scalar
_operator::floordiv(Scalar a, Scalar b) -> Scalar
_operator::mod(Scalar a, Scalar b) -> Scalar
_operator::truediv(Scalar a, Scalar b) -> Scalar
_operator::pow(Scalar a, Scalar b) -> Scalar
_operator::neg(Scalar a) -> Scalar
_operator::pos(Scalar a) -> Scalar
_operator::eq(Scalar a, Scalar b) -> Scalar
_operator::ne(Scalar a, Scalar b) -> Scalar
_operator::lt(Scalar a, Scalar b) -> Scalar
_operator::le(Scalar a, Scalar b) -> Scalar
_operator::gt(Scalar a, Scalar b) -> Scalar
_operator::ge(Scalar a, Scalar b) -> Scalar
_operator::and_(Scalar a, Scalar b) -> Scalar
_operator::or_(Scalar a, Scalar b) -> Scalar
_operator::lshift(Scalar a, Scalar b) -> Scalar
_operator::rshift(Scalar a, Scalar b) -> Scalar
math::trunc(Scalar x) -> Scalar
torch::sym_int(Scalar a) -> Scalar
torch::sym_float(Scalar a) -> Scalar
torch::sym_not(Scalar a) -> Scalar
torch::sym_ite(Scalar b, Scalar t, Scalar f) -> Scalar
torch::sym_max(Scalar a, Scalar b) -> Scalar
torch::sym_min(Scalar a, Scalar b) -> Scalar
torch::sym_sqrt(Scalar a) -> Scalar
torch::_sym_sqrt(Scalar a) -> Scalar
""".strip().splitlines()


def schema_of(op_type):
    ns, name, overload = op_type.split(".")
    packet = getattr(getattr(torch.ops, ns), name)
    return str(getattr(packet, overload)._schema)


missing = []
print(f"# PyTorch {torch.__version__.split('+')[0]} schemas; generated by "
      "tools/op_schemas/make_pytorch2_schemas.py, do not edit by hand.")
for op_type in sorted(PYTORCH2_OPS):
    try:
        print(schema_of(op_type))
    except (AttributeError, RuntimeError) as e:
        missing.append(f"{op_type}: {e}")
for schema in SYMBOLIC_SCHEMAS:
    print(schema)
if missing:
    sys.exit("not in this PyTorch: " + "; ".join(missing))
