#include "core/io/catalog/tensor_geometry.h"

#include <algorithm>

namespace irscope::io {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes) {
    std::vector<int64_t> strides(sizes.size());
    int64_t step = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
        strides[d] = step;
        step *= std::max<int64_t>(sizes[d], 1);
    }
    return strides;
}

std::optional<int64_t> checkedNumel(const std::vector<int64_t>& sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 0) return std::nullopt;
        if (__builtin_mul_overflow(n, s, &n)) return std::nullopt;
    }
    return n;
}

std::optional<std::string> checkView(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                                     int64_t storageOffset, int64_t storageElements) {
    if (sizes.size() != strides.size()) return "size and stride have different lengths";
    if (storageOffset < 0) return "negative storage offset " + std::to_string(storageOffset);
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (sizes[d] < 0) return "negative size " + std::to_string(sizes[d]) + " in dim " + std::to_string(d);
        if (strides[d] < 0) return "negative stride " + std::to_string(strides[d]) + " in dim " + std::to_string(d);
    }
    if (!checkedNumel(sizes)) return "element count overflows 64 bits";
    for (int64_t s : sizes)
        if (s == 0) return std::nullopt;  // empty: touches no storage
    int64_t last = storageOffset;         // index of the last element the view reaches
    for (size_t d = 0; d < sizes.size(); ++d) {
        int64_t step;
        if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &step) || __builtin_add_overflow(last, step, &last))
            return "view extent overflows 64 bits";
    }
    if (last >= storageElements)
        return "view reaches element " + std::to_string(last) + " but its storage holds " +
               std::to_string(storageElements) + " elements";
    return std::nullopt;
}

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
    return s + "]";
}

}  // namespace irscope::io
