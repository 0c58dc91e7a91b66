#include "core/io/npy_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <ATen/ATen.h>

#include "core/io/mapped_storage.h"
#include "core/io/npy_header.h"
#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file_error.h"

namespace irscope::io {

namespace fs = std::filesystem;

TensorMap readNpy(const std::shared_ptr<MappedFile>& file, const ReadOptions& options) {
    TensorMap map;
    try {
        NpyHeader h = parseNpyHeader(file->bytes());
        NpyDType dt = npyDType(h.descr);
        auto type = scalarTypeFromName(dt.torchName);
        if (!type) throw FormatError("npy dtype '" + h.descr + "' is not supported");
        auto numel = checkedNumel(h.shape);
        int64_t nbytes;
        if (!numel || __builtin_mul_overflow(*numel, int64_t(dt.elementSize), &nbytes))
            throw FormatError("npy shape is absurd (element count overflows)");
        uint64_t available = file->size() - h.dataOffset;
        if (static_cast<uint64_t>(nbytes) > available)
            throw FormatError("truncated: npy data needs " + std::to_string(nbytes) + " bytes, the file has " +
                              std::to_string(available));
        const uint8_t* ptr = file->data() + h.dataOffset;
        c10::Storage storage = storageOverFile(file, ptr, static_cast<size_t>(nbytes), std::min(dt.elementSize, 16),
                                               options.copy || dt.bigEndian);
        std::vector<int64_t> strides = contiguousStrides(h.shape);
        if (h.fortranOrder) {
            // Column-major: strides grow from the first dim.
            std::vector<int64_t> reversed(h.shape.rbegin(), h.shape.rend());
            std::vector<int64_t> rs = contiguousStrides(reversed);
            strides.assign(rs.rbegin(), rs.rend());
        }
        at::Tensor t = at::empty({0}, at::TensorOptions().dtype(*type));
        t.set_(storage, 0, h.shape, strides);
        if (dt.bigEndian) {
            // Swap bytes in place (the storage is our own copy), per element
            // component for complex numbers.
            auto* bytes = static_cast<uint8_t*>(storage.data());
            int width = c10::isComplexType(*type) ? dt.elementSize / 2 : dt.elementSize;
            for (int64_t k = 0; k + width <= nbytes; k += width) std::reverse(bytes + k, bytes + k + width);
        }
        map.insert(fs::path(file->path()).stem().string(), std::move(t), file->path());
    } catch (const FormatError& e) {
        throw TensorFileError(file->path(), e.what());
    } catch (const c10::Error& e) {
        throw TensorFileError(file->path(), e.what_without_backtrace());
    }
    return map;
}

TensorMap readNpyDirectory(const std::string& directory, const ReadOptions& options) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".npy" && it->is_regular_file()) files.push_back(it->path());
    }
    if (ec) throw TensorFileError(directory, "cannot list directory: " + ec.message());
    if (files.empty()) throw TensorFileError(directory, "a directory without .npy files");
    std::sort(files.begin(), files.end());
    TensorMap map;
    for (const auto& path : files) {
        auto file = MappedFile::open(path.string());
        TensorMap one = readNpy(file, options);
        file->closeDescriptor();
        for (const auto& e : one) map.insert(e.name, e.tensor, e.source);
    }
    return map;
}

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

}  // namespace irscope::io
