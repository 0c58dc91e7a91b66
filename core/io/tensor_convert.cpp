#include "core/io/tensor_convert.h"

#include "core/io/tensor_file.h"

namespace irscope::io {

size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options) {
    ReadOptions checked = options;
    checked.verifyChecksums = true;
    TensorMap map = readTensorFile(in, checked);
    writeTensorFile(map, out);
    return map.size();
}

}  // namespace irscope::io
