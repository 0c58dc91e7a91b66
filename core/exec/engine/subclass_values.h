#pragma once
// The value a tensor-subclass weight stands for, rebuilt from its stored
// parts (catalog/tensor_subclass.h): torchao's affine-quantized weights
// (Int8Tensor, IntxUnpackedToInt8Tensor: integer qdata, scale, optional
// zero_point, block_size) dequantize as their own dequantize() does, through
// the same equivalent of torchao.dequantize_affine the run uses
// (compat_torchao.cpp), so the value is torchao's bit for bit. The program
// itself computes with the parts; this value is what the user inspects, what
// a node reading the weight whole gets, and what the quantization debugger
// pairs with the float program's weight.
#include <string>

#include "core/io/tensor_map.h"

namespace irscope::exec {

// The dequantized value, or an undefined tensor with `why` set when the
// subclass is not one irscope can rebuild (a packed int4 layout, float8)
// or a part is missing.
at::Tensor subclassValue(const io::TensorMap& parts, const io::SubclassTensor& subclass, std::string& why);

// `weights` with every subclass's value added under its name; one that
// cannot be rebuilt is listed as skipped, with why (its parts stay usable).
io::TensorMap withSubclassValues(const io::TensorMap& weights);
// Whether `weights` holds a subclass whose value is neither there nor
// skipped: ValueSources rebuilds them once, and whoever binds the map after
// it (the executor) then has nothing to copy or compute.
bool lacksSubclassValues(const io::TensorMap& weights);

}  // namespace irscope::exec
