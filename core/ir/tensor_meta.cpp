#include "core/ir/tensor_meta.h"

namespace irscope::ir {

std::string shapeToX(const Shape& shape) {
    const char* const separator = hasSymbols(shape) ? "\u00d7" : "x";
    std::string text;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) text += separator;
        text += shape[i].text();
    }
    return text;
}

std::string shapeToX(const Sizes& sizes) {
    std::string text;
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i) text += 'x';
        text += std::to_string(sizes[i]);
    }
    return text;
}

std::string shapeToList(const Shape& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) text += ", ";
        text += shape[i].text();
    }
    text += ']';
    return text;
}

std::string shapeToList(const Sizes& sizes) {
    std::string text = "[";
    for (size_t i = 0; i < sizes.size(); ++i) {
        if (i) text += ", ";
        text += std::to_string(sizes[i]);
    }
    text += ']';
    return text;
}

std::optional<int64_t> elementCount(const Sizes& sizes) {
    int64_t count = 1;
    for (int64_t dim : sizes) {
        if (dim < 0) return std::nullopt;
        if (__builtin_mul_overflow(count, dim, &count)) return std::nullopt;
    }
    return count;
}

std::optional<int64_t> elementCount(const Shape& shape) {
    const auto sizes = staticSizes(shape);
    return sizes ? elementCount(*sizes) : std::nullopt;
}

}  // namespace irscope::ir
