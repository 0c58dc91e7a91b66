#include "core/ir/tensor_meta.h"

namespace irscope::ir {

std::string shapeToX(const Shape& shape) {
    std::string text;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) text += 'x';
        text += shape[i] == kInvalidDim ? std::string("?") : std::to_string(shape[i]);
    }
    return text;
}

std::string shapeToList(const Shape& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) text += ", ";
        text += shape[i] == kInvalidDim ? std::string("?") : std::to_string(shape[i]);
    }
    return text + "]";
}

std::optional<int64_t> elementCount(const Shape& shape) {
    int64_t count = 1;
    for (int64_t dim : shape) {
        if (dim < 0) return std::nullopt;  // includes kInvalidDim
        if (__builtin_mul_overflow(count, dim, &count)) return std::nullopt;
    }
    return count;
}

}  // namespace irscope::ir
