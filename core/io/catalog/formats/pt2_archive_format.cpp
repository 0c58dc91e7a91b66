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
// listed as not supported. PyTorch 2.2-2.7 wrote the state_dict and the
// constants as torch.save files stored in the archive
// (serialized_state_dict.pt, serialized_constants.pt): read in place through
// the restricted unpickler, as any torch.save.
// Selected "sample_inputs" (what `--inputs model.pt2` asks for), it is the
// example inputs torch.export.save stored, named as the program's inputs.
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/catalog/pt2/pt2_payloads.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/tensor_format.h"
#include "core/io/catalog/torch_save_zip.h"
#include "core/io/catalog/zip_reader.h"
#include "core/ir/exported_program_reader.h"

namespace irscope::io {
namespace {

// The example inputs torch.export.save stored beside the program: a torch.save
// of (args, kwargs), stored uncompressed, so its tensors are read in place
// like the weights. Named as the program's user inputs, one for one in the
// order torch.export flattened them (args, then kwargs).
TensorCatalog describeSampleInputs(const TensorFileSource& s, const ZipReader& zip, const Pt2Program& program) {
    if (program.sampleInputsEntry.empty())
        throw FormatError("holds no sample inputs (data/sample_inputs/" + program.name +
                          ".pt: torch.export.save writes them from PyTorch 2.8 on)");
    const ZipRecord* record = zip.find(program.sampleInputsEntry);
    if (record->method != 0) throw FormatError(program.sampleInputsEntry + " is stored compressed");
    TensorCatalog catalog;
    try {
        catalog = describeTorchSaveZip(s.file, zip.data(*record), {});
    } catch (const FormatError& e) {
        throw FormatError(program.sampleInputsEntry + ": " + e.what());
    }
    std::vector<std::string> names;
    try {
        names = ir::exportedProgramUserInputs(zip.data(*zip.find(program.graphEntry)), s.path, program.graphEntry);
    } catch (const std::exception& e) {
        throw FormatError(std::string("its program does not read: ") + e.what());
    }
    if (names.size() != catalog.records.size())
        throw FormatError(program.sampleInputsEntry + " holds " + std::to_string(catalog.records.size()) +
                          " tensors, but the program takes " + std::to_string(names.size()) + " tensor inputs");
    for (size_t i = 0; i < names.size(); ++i) catalog.records[i].name = names[i];
    return catalog;
}

TensorCatalog describePt2Archive(const TensorFileSource& s, const ReadOptions& options) {
    TensorCatalog catalog;
    catalog.files.push_back(s.file);
    try {
        ZipReader zip(s.bytes());
        const auto programs = pt2Programs(zip);
        if (programs.empty()) throw FormatError("not a torch.export archive");
        const Pt2Program& program = choosePt2Program(programs, s.program);
        if (options.select == kPt2SampleInputs) return describeSampleInputs(s, zip, program);
        if (!options.select.empty())
            throw FormatError("a .pt2 selects \"" + std::string(kPt2SampleInputs) +
                              "\" (its example inputs) or nothing " + "(its weights and constants), not \"" +
                              options.select + "\"");
        if (!program.pickledStateDictEntry.empty() || !program.pickledConstantsEntry.empty()) {
            // PyTorch 2.2-2.7: the state_dict and the constants as torch.save files
            // inside the archive, read in place through the restricted unpickler.
            for (const std::string* entry : {&program.pickledStateDictEntry, &program.pickledConstantsEntry}) {
                if (entry->empty()) continue;
                const ZipRecord* record = zip.find(*entry);
                if (record->method != 0) throw FormatError(*entry + " is stored compressed");
                try {
                    TensorCatalog part = describeTorchSaveZip(s.file, zip.data(*record), {});
                    for (auto& r : part.records) catalog.records.push_back(std::move(r));
                } catch (const FormatError& e) {
                    throw FormatError(*entry + ": " + e.what());
                }
            }
            return catalog;
        }
        if (program.weightsConfigEntry.empty() && program.constantsConfigEntry.empty())
            throw FormatError(
                "a torch.export archive without weights (no data/weights/ config and no "
                "serialized_state_dict.pt): the graph opens, its values come from a state_dict file");
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
    .name = kPt2FormatName,
    .rank = 5,  // before torch.save's zip, which would claim it too
    .claims = claimsPt2,
    .extensions = {".pt2"},
    .describe = describePt2Archive,
});

}  // namespace
}  // namespace irscope::io
