// The weights and constants inside a torch.export archive (.pt2), as a
// tensor file: `--weights model.pt2`, `irscope tensors model.pt2`, and the
// values a .pt2 runs with when no other file is given.
//
// PyTorch 2.8 on writes each storage raw (data/weights/weight_<i>,
// data/constants/tensor_<i>) and describes the tensors over it in
// <program>_weights_config.json / _constants_config.json: dtype number,
// sizes, strides and storage offset in elements; tensors sharing a storage
// (tied weights) name the same file. Records point into the mapped archive:
// nothing is copied. A tensor PyTorch pickled instead (a tensor subclass) is
// listed as not supported, and so are the pickled state_dicts of the
// 2.2-2.7 layout, which this reader does not open.
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/catalog/pt2/pt2_payloads.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/catalog/zip_reader.h"

namespace irscope::io {
namespace {

TensorCatalog describePt2Archive(const TensorFileSource& s, const ReadOptions&) {
    TensorCatalog catalog;
    catalog.files.push_back(s.file);
    try {
        ZipReader zip(s.bytes());
        const auto programs = pt2Programs(zip);
        if (programs.empty()) throw FormatError("not a torch.export archive");
        const Pt2Program& program = choosePt2Program(programs, s.path);
        if (program.weightsConfigEntry.empty() && program.constantsConfigEntry.empty())
            throw FormatError(
                "a torch.export archive from PyTorch 2.2-2.7 (pickled state_dict); irscope reads the "
                "weights of archives written by PyTorch 2.8 on");
        const std::string top = program.graphEntry.substr(0, program.graphEntry.find("/models/"));
        addPt2Payloads(catalog, zip, program.weightsConfigEntry, top + "/data/weights/");
        addPt2Payloads(catalog, zip, program.constantsConfigEntry, top + "/data/constants/");
    } catch (const FormatError& e) {
        throw TensorFileError(s.path, e.what());
    }
    return catalog;
}

bool claimsPt2(const TensorFileSource& s) {
    if (s.isDirectory() || !looksLikeZip(s.bytes())) return false;
    try {
        return !pt2Programs(ZipReader(s.bytes())).empty();
    } catch (const FormatError&) {
        return false;
    }
}

const bool pt2ArchiveFormatRegistered = registerTensorFormat({
    .name = "torch.export archive (.pt2)",
    .rank = 5,  // before torch.save's zip, which would claim it too
    .claims = claimsPt2,
    .extensions = {".pt2"},
    .describe = describePt2Archive,
});

}  // namespace
}  // namespace irscope::io
