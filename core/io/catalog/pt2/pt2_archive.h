#pragma once
// torch.export archives (.pt2, torch.export.save): which programs one holds
// and where their graph and weights are, for the layouts PyTorch has written:
//   2.8 on   <top>/archive_format ("pt2"), <top>/models/<name>.json (one per
//            program), <top>/data/weights/<name>_weights_config.json with raw
//            per-tensor files beside it, data/constants/ likewise,
//            data/sample_inputs/<name>.pt;
//   2.1-2.7  <top>/serialized_exported_program.json with the state_dict,
//            constants and example inputs as torch.save pickles beside it.
// The archive is read in place (stored zip records); nothing is unpickled here.
#include <string>
#include <string_view>
#include <vector>

#include "core/io/catalog/read_options.h"
#include "core/io/catalog/zip_reader.h"

namespace irscope::io {

// ReadOptions::select for a .pt2's example inputs instead of its weights.
inline constexpr const char* kPt2SampleInputs = "sample_inputs";

struct Pt2Program {
    std::string name;                   // "model" (what torch.export.save names a single program)
    std::string graphEntry;             // the record holding its ExportedProgram JSON
    std::string weightsConfigEntry;     // 2.8 on: <name>_weights_config.json, "" before
    std::string constantsConfigEntry;   // 2.8 on: <name>_constants_config.json, "" before
    std::string sampleInputsEntry;      // data/sample_inputs/<name>.pt (2.8 on) or serialized_example_inputs.pt
                                        // (2.2-2.7): a torch.save of (args, kwargs)
    std::string pickledStateDictEntry;  // 2.2-2.7: serialized_state_dict.pt (2.1: .json), a torch.save of the
                                        // state_dict
    std::string pickledConstantsEntry;  // 2.2-2.7: serialized_constants.pt (2.1: .json), of the lifted constants
};

// The programs in `zip`, in name order; empty when it is not a torch.export archive.
std::vector<Pt2Program> pt2Programs(const ZipReader& zip);

// A .pt2 given for the graph's inputs (`run --inputs model.pt2`, the
// window's Inputs) means the example inputs stored in it: sets `options`
// to select them. Any other file is read as it is.
void selectInputsOf(const std::string& path, ReadOptions& options);

// The program to open: `wanted` (from "model.pt2#wanted"); when empty,
// "model" if present, else the first. Throws FormatError naming the programs
// the archive holds when `wanted` is not one of them.
const Pt2Program& choosePt2Program(const std::vector<Pt2Program>& programs, const std::string& wanted);
// "decoder, encoder, model": for messages.
std::string pt2ProgramList(const std::vector<Pt2Program>& programs);

}  // namespace irscope::io
