// torch.save, both layouts: the zip one (PyTorch >= 1.6, also what irscope
// writes for .pt/.pth/.bin) and the legacy pickle stream before it.
#include "core/io/tensor_format.h"
#include "core/io/torch_save.h"
#include "core/io/zip_reader.h"

namespace irscope::io {
namespace {

// A legacy torch.save starts with the pickled magic number: PROTO n, LONG1 10.
bool isLegacyTorchSave(std::string_view b) {
    return b.size() >= 4 && uint8_t(b[0]) == 0x80 && b.substr(2, 2) == std::string_view("\x8a\x0a", 2);
}

const bool zipRegistered = registerTensorFormat({
    .name = "torch.save (zip)",
    .rank = 10,
    .claims = [](const TensorFileSource& s) { return !s.isDirectory() && looksLikeZip(s.bytes()); },
    .extensions = {".pt", ".pth", ".bin"},
    .read = [](const TensorFileSource& s, const ReadOptions& o) { return readTorchSaveZip(s.file, o); },
    .write = writeTorchSave,
});

const bool legacyRegistered = registerTensorFormat({
    .name = "torch.save (legacy)",
    .rank = 30,
    .claims = [](const TensorFileSource& s) { return !s.isDirectory() && isLegacyTorchSave(s.bytes()); },
    .extensions = {},
    .read = [](const TensorFileSource& s, const ReadOptions& o) { return readTorchSaveLegacy(s.file, o); },
});

}  // namespace
}  // namespace irscope::io
