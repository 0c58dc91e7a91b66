#include "core/io/catalog/mapped_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw TensorFileError(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        throw TensorFileError(path, std::string("cannot stat: ") + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw TensorFileError(path, "not a regular file");
    }
    std::shared_ptr<MappedFile> file(new MappedFile());
    file->path_ = path;
    file->size_ = static_cast<size_t>(st.st_size);
    if (file->size_ > 0) {
        // PROT_WRITE with MAP_PRIVATE: writes stay in this process (copy on write).
        void* p = ::mmap(nullptr, file->size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int err = errno;
            ::close(fd);
            throw TensorFileError(path, std::string("cannot map: ") + std::strerror(err));
        }
        file->data_ = static_cast<uint8_t*>(p);
    }
    file->fd_ = fd;
    return file;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(data_, size_);
    closeDescriptor();
}

void MappedFile::dropResidentPages() const {
    if (data_) ::madvise(data_, size_, MADV_DONTNEED);
}

void MappedFile::dropResidentPages(uint64_t offset, uint64_t n) const {
    if (!data_ || offset >= size_) return;
    const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    const uint64_t begin = offset / page * page;
    const uint64_t end = std::min<uint64_t>(offset + std::min<uint64_t>(n, size_ - offset), size_);
    ::madvise(data_ + begin, end - begin, MADV_DONTNEED);
}

void MappedFile::closeDescriptor() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void MappedFile::copyOut(uint64_t offset, void* dst, size_t n) const {
    auto* out = static_cast<uint8_t*>(dst);
    while (fd_ >= 0 && n > 0) {
        ssize_t got = ::pread(fd_, out, n, static_cast<off_t>(offset));
        if (got <= 0) {
            if (got < 0 && errno == EINTR) continue;
            break;  // fall back to the mapping for whatever is left
        }
        out += got;
        offset += static_cast<uint64_t>(got);
        n -= static_cast<size_t>(got);
    }
    if (n > 0) std::memcpy(out, data_ + offset, n);
}

}  // namespace irscope::io
