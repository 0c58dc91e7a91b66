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

}  // namespace irscope::io
