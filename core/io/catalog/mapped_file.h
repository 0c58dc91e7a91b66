#pragma once
// MappedFile: a whole file mapped read-only-from-disk (MAP_PRIVATE, so an
// in-place op on a tensor that points into it copies the page instead of
// faulting or writing the file). Tensors made from it without copying hold a
// shared_ptr to it, which keeps the mapping alive after the reader returns.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace irscope::io {

class MappedFile {
public:
    // Throws TensorFileError naming the file (missing, a directory, unreadable).
    static std::shared_ptr<MappedFile> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    std::string_view bytes() const { return {reinterpret_cast<const char*>(data_), size_}; }
    const std::string& path() const { return path_; }

    // Copies n bytes at offset into dst with pread() while the descriptor is
    // open (no page faults on the mapping: as fast as Python's file reads),
    // else from the mapping. The caller has checked the range.
    void copyOut(uint64_t offset, void* dst, size_t n) const;
    // Forgets which pages of the mapping are resident in this process (they
    // stay in the page cache, and fault back in when read). Describing a
    // 100,000-record zip touches a page per record's local header: the whole
    // file would otherwise count against the process. Only while no tensor
    // views the mapping: it discards private (copy-on-write) changes.
    void dropResidentPages() const;
    // The same for the pages holding [offset, offset + n): a listing's
    // statistics read each tensor once, and 1 GiB read need not stay 1 GiB
    // resident.
    void dropResidentPages(uint64_t offset, uint64_t n) const;
    // Readers are done: keep only the mapping (a directory of many .npy files
    // must not hold a descriptor per file).
    void closeDescriptor();

private:
    MappedFile() = default;
    std::string path_;
    int fd_ = -1;
    uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace irscope::io
