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

std::string shapeToX(const TensorMeta& meta) {
    if (meta.symbolicDims.size() != meta.shape.size()) return shapeToX(meta.shape);
    // With symbols the dims are joined by a multiplication sign, so that
    // "s77×s27×32" does not read as one name and "4*s77×8" keeps its product.
    std::string text;
    for (size_t i = 0; i < meta.shape.size(); ++i) {
        if (i) text += "\u00d7";
        text += !meta.symbolicDims[i].empty() ? meta.symbolicDims[i] : shapeToX(Shape{meta.shape[i]});
    }
    return text;
}

std::string shapeWithSymbols(const TensorMeta& meta) {
    if (meta.symbolicDims.size() != meta.shape.size()) return shapeToList(meta.shape);
    std::string text = "[";
    for (size_t i = 0; i < meta.shape.size(); ++i) {
        if (i) text += ", ";
        text += !meta.symbolicDims[i].empty()  ? meta.symbolicDims[i]
                : meta.shape[i] == kInvalidDim ? std::string("?")
                                               : std::to_string(meta.shape[i]);
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
