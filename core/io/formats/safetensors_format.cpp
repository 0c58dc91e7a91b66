// .safetensors: an 8-byte little-endian header size, then the JSON header.
#include "core/io/safetensors_file.h"
#include "core/io/tensor_format.h"

namespace irscope::io {
namespace {

const bool registered = registerTensorFormat({
    .name = "safetensors",
    .rank = 40,
    .claims = [](const TensorFileSource& s) { return s.bytes().size() >= 9 && s.bytes()[8] == '{'; },
    .extensions = {".safetensors"},
    .read = [](const TensorFileSource& s, const ReadOptions& o) { return readSafetensors(s.file, o); },
    .write = writeSafetensors,
});

}  // namespace
}  // namespace irscope::io
