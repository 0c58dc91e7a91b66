#include "core/io/mapped_storage.h"

#include <algorithm>
#include <cstring>

#include <c10/core/CPUAllocator.h>

namespace irscope::io {

namespace {

void releaseMapping(void* ctx) { delete static_cast<std::shared_ptr<MappedFile>*>(ctx); }

}  // namespace

c10::Storage storageOverFile(const std::shared_ptr<MappedFile>& file, const uint8_t* ptr, size_t nbytes,
                             size_t alignment, bool copy) {
    bool aligned = alignment == 0 || reinterpret_cast<uintptr_t>(ptr) % alignment == 0;
    if (copy || !aligned) {
        c10::Allocator* allocator = c10::GetCPUAllocator();
        c10::DataPtr data = allocator->allocate(nbytes);
        if (nbytes) file->copyOut(static_cast<uint64_t>(ptr - file->data()), data.get(), nbytes);
        return c10::Storage(c10::Storage::use_byte_size_t(), nbytes, std::move(data), allocator, /*resizable=*/true);
    }
    auto* ctx = new std::shared_ptr<MappedFile>(file);
    c10::DataPtr data(const_cast<uint8_t*>(ptr), ctx, &releaseMapping, c10::Device(c10::DeviceType::CPU));
    return c10::Storage(c10::Storage::use_byte_size_t(), nbytes, std::move(data), nullptr, /*resizable=*/false);
}

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

}  // namespace irscope::io
