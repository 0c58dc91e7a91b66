// Writes NumPy's .npy (version 1.0, C order, little-endian), padded so the
// data starts on a 64-byte boundary as NumPy itself does.
#include <fstream>

#include <ATen/ATen.h>

#include "core/io/catalog/npy_header.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_writer.h"

namespace irscope::io {
namespace {

void writeNpy(const at::Tensor& tensor, const std::string& path) {
    std::string descr = npyDescrFor(scalarTypeName(tensor.scalar_type()));
    if (descr.empty())
        throw TensorFileError(path, "dtype " + scalarTypeName(tensor.scalar_type()) + " has no NumPy equivalent");
    at::Tensor c = tensor.contiguous();
    std::string shape = "(";
    for (int64_t d : c.sizes()) shape += std::to_string(d) + ", ";
    if (c.dim() == 1)
        shape.erase(shape.size() - 1);  // "(3,)"
    else if (c.dim() > 1)
        shape.erase(shape.size() - 2);
    shape += ")";
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // NumPy pads so the data starts on a 64-byte boundary, ending in '\n'.
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw TensorFileError(path, "cannot open for writing");
    out.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = static_cast<uint16_t>(header.size());
    out.write(reinterpret_cast<const char*>(&len), 2);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(static_cast<const char*>(c.data_ptr()), static_cast<std::streamsize>(c.nbytes()));
    out.flush();
    if (!out) throw TensorFileError(path, "write failed (disk full?)");
}

const bool npyWriterRegistered = registerTensorWriter({
    .name = "npy",
    .extensions = {".npy"},
    .write = [](const TensorMap& tensors,
                const std::string& path) { writeNpy(tensors.entries().front().tensor, path); },
    .onlyOneTensor = true,
});

}  // namespace
}  // namespace irscope::io
