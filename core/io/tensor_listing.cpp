#include "core/io/tensor_listing.h"

#include <ATen/ATen.h>

#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file.h"

namespace irscope::io {

std::vector<TensorListing> listTensorFile(const std::string& path, const ReadOptions& options, bool stats) {
    TensorMap map = readTensorFile(path, options);
    std::vector<TensorListing> out;
    for (const auto& e : map) {
        TensorListing s;
        s.name = e.name;
        s.dtype = scalarTypeName(e.tensor.scalar_type());
        s.shape = e.tensor.sizes().vec();
        if (stats && at::isFloatingType(e.tensor.scalar_type())) {
            try {
                s.stats = summarize(e.tensor);
            } catch (const c10::Error& err) {
                throw TensorFileError(path, "tensor '" + e.name + "': " + err.what_without_backtrace());
            }
        }
        out.push_back(std::move(s));
    }
    for (const auto& k : map.skipped()) {
        TensorListing s;
        s.name = k.name;
        s.dtype = k.dtype;
        s.shape = k.shape;
        s.supported = false;
        s.note = k.reason;
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace irscope::io
