#pragma once
// A torch.save zip read from bytes inside a mapped file: the file itself
// (formats/torch_save_format.cpp) or one nested, stored, in another archive
// (the sample inputs of a .pt2). The records' offsets are the mapped file's,
// so a nested one reads in place like any other.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/read_options.h"
#include "core/io/catalog/tensor_catalog.h"

namespace irscope::io {

// `bytes` lies inside `file`. Throws FormatError (the caller names the file).
TensorCatalog describeTorchSaveZip(const std::shared_ptr<MappedFile>& file, std::string_view bytes,
                                   const ReadOptions& options);

// The same over any buffer: `bytes` lies inside `container`, and the
// records' storage offsets count from container's start (the catalog holds
// no file: the caller reads the bytes). `read(offset, n)` is told what was
// consumed, (0, 0) meaning every local header. rootName names a bare tensor.
TensorCatalog describeTorchSaveZipIn(std::string_view container, std::string_view bytes, const std::string& rootName,
                                     const ReadOptions& options,
                                     const std::function<void(uint64_t, uint64_t)>& read = {});

}  // namespace irscope::io
