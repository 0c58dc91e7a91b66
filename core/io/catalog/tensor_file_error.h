#pragma once
// TensorFileError: every failure to read or write a tensor file. what() is
// "FILE: reason" so the CLI and the GUI can show it as is.
#include <stdexcept>
#include <string>

namespace irscope::io {

class TensorFileError : public std::runtime_error {
public:
    TensorFileError(const std::string& path, const std::string& reason)
        : std::runtime_error(path + ": " + reason), path_(path), reason_(reason) {}
    const std::string& path() const { return path_; }
    const std::string& reason() const { return reason_; }

private:
    std::string path_;
    std::string reason_;
};

// Thrown by the byte-level parsers (zip, pickle, safetensors header, npy
// header), which know no file name; the file-level readers catch it and
// rethrow as TensorFileError naming the file.
class FormatError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace irscope::io
