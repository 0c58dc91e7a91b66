// Finding the programs of a .pt2 (pt2_archive.h), and the graph reader that
// lets every IR command open one (registered with core/ir/archive_readers).
#include "core/io/catalog/pt2/pt2_archive.h"

#include "core/io/catalog/tensor_format.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/io/catalog/pt2/pt2_constants.h"
#include "core/io/catalog/pt2/pt2_integrity.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/ir/archive_path.h"
#include "core/ir/archive_readers.h"
#include "core/ir/exported_program_reader.h"
#include "core/ir/json_io.h"

namespace irscope::io {
namespace {

bool endsWith(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// "tiny_cond" for "/models/tiny_cond.pt2".
std::string fileStem(const std::string& file) {
    const std::string base = file.substr(file.rfind('/') == std::string::npos ? 0 : file.rfind('/') + 1);
    return base.substr(0, base.rfind('.') == 0 || base.rfind('.') == std::string::npos ? base.size() : base.rfind('.'));
}

ir::Graph readPt2Graph(std::string_view bytes, const std::string& path, const ir::LoadOptions& options) {
    std::vector<Pt2Program> programs;
    try {
        ZipReader zip(bytes);
        programs = pt2Programs(zip);
        if (programs.empty())
            throw ir::LoadError(
                path, "", 0, 0,
                "is a zip archive but not a torch.export archive (no models/<name>.json and no "
                "serialized_exported_program.json in it); a torch.save file holds tensors, not a graph");
        const Pt2Program& program = choosePt2Program(programs, options.program);
        const ZipRecord* record = zip.find(program.graphEntry);
        const std::string_view text = zip.data(*record);
        ir::Graph g = ir::graphFromExportedProgram(text, path, program.graphEntry);
        g.fileHoldsExampleInputs = !program.sampleInputsEntry.empty();
        // A program whose modules torch.export did not record (its nodes carry
        // only export's own placeholder stack) is named as the archive names it.
        if (g.modelName.empty())
            g.modelName = program.name != "model" ? program.name : fileStem(ir::splitArchivePath(path).file);
        if (auto damage = pt2Damage(zip, program, g))
            g.loadDiagnostics.push_back(
                {ir::Severity::Error, "pt2-damaged", "", "", program.graphEntry,
                 "the archive is damaged: " + *damage + ". Save the program again with torch.export.save"});
        try {
            g.constants = readPt2Constants(zip, bytes, program);
        } catch (const FormatError& e) {
            // The graph still opens; the constants stay as weights (shape and dtype only).
            g.loadDiagnostics.push_back({ir::Severity::Warning, "pt2-constants", "", "", "",
                                         std::string("constants not embedded: ") + e.what()});
        }
        g.archivePrograms.clear();
        for (const auto& p : programs) g.archivePrograms.push_back(p.name);
        g.archiveProgram = program.name;
        if (programs.size() > 1 && options.program.empty()) {
            // Said once, on the default choice; a program named in the path was chosen.
            std::string others;
            for (const auto& p : programs)
                if (p.name != program.name) others += (others.empty() ? "" : ", ") + p.name;
            const std::string file = ir::splitArchivePath(path).file;
            g.loadDiagnostics.push_back({ir::Severity::Info, "pt2-programs", "", "", "",
                                         "the archive holds " + std::to_string(programs.size()) +
                                             " programs; opened '" + program.name + "'. Open another as " + file +
                                             "#NAME (NAME: " + others + ")"});
        }
        return g;
    } catch (const FormatError& e) {
        throw ir::LoadError(path, "", 0, 0, std::string("is not a readable zip archive: ") + e.what());
    } catch (const nlohmann::json::exception& e) {
        // A field of the wrong type deep in the program (a hand-edited or damaged archive).
        throw ir::LoadError(path, "", 0, 0, std::string("holds an ExportedProgram irscope cannot read: ") + e.what());
    }
}

const bool pt2GraphReaderRegistered =
    ir::registerArchiveGraphReader(std::string_view("PK\x03\x04", 4), "torch.export archive (.pt2)", readPt2Graph);

}  // namespace

std::vector<Pt2Program> pt2Programs(const ZipReader& zip) {
    std::vector<Pt2Program> out;
    for (const auto& r : zip.records()) {
        const std::string_view name = r.name;
        // <top>/models/<name>.json (2.8 on)
        if (auto at = name.find("/models/"); at != std::string_view::npos && endsWith(name, ".json") &&
                                             name.find('/', at + 8) == std::string_view::npos) {
            Pt2Program p;
            p.name = std::string(name.substr(at + 8, name.size() - at - 8 - 5));
            p.graphEntry = r.name;
            const std::string top(name.substr(0, at));
            p.weightsConfigEntry = top + "/data/weights/" + p.name + "_weights_config.json";
            p.constantsConfigEntry = top + "/data/constants/" + p.name + "_constants_config.json";
            if (!zip.find(p.weightsConfigEntry)) p.weightsConfigEntry.clear();
            if (!zip.find(p.constantsConfigEntry)) p.constantsConfigEntry.clear();
            p.sampleInputsEntry = top + "/data/sample_inputs/" + p.name + ".pt";
            if (!zip.find(p.sampleInputsEntry)) p.sampleInputsEntry.clear();
            out.push_back(std::move(p));
        } else if (endsWith(name, "serialized_exported_program.json")) {  // 2.1-2.7
            // Flat records beside it, each a torch.save written into the zip.
            const std::string folder(
                name.substr(0, name.size() - std::string_view("serialized_exported_program.json").size()));
            auto beside = [&](const char* record) {
                const std::string path = folder + record;
                return zip.find(path) ? path : std::string();
            };
            Pt2Program p;
            p.name = "model";
            p.graphEntry = r.name;
            p.sampleInputsEntry = beside("serialized_example_inputs.pt");
            // PyTorch 2.1 named the same torch.save bytes .json (its own loader
            // reads both names alike).
            p.pickledStateDictEntry = beside("serialized_state_dict.pt");
            if (p.pickledStateDictEntry.empty()) p.pickledStateDictEntry = beside("serialized_state_dict.json");
            p.pickledConstantsEntry = beside("serialized_constants.pt");
            if (p.pickledConstantsEntry.empty()) p.pickledConstantsEntry = beside("serialized_constants.json");
            out.push_back(std::move(p));
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return out;
}

void selectInputsOf(const std::string& path, ReadOptions& options) {
    if (ir::isArchivePath(path)) options.select = kPt2SampleInputs;
}

const Pt2Program& choosePt2Program(const std::vector<Pt2Program>& programs, const std::string& wanted) {
    const std::string& name = wanted.empty() ? std::string("model") : wanted;
    for (const auto& p : programs)
        if (p.name == name) return p;
    if (!wanted.empty())
        throw FormatError("holds no program '" + wanted + "' (it holds: " + pt2ProgramList(programs) + ")");
    return programs.front();
}

std::string pt2ProgramList(const std::vector<Pt2Program>& programs) {
    std::string list;
    for (const auto& p : programs) list += (list.empty() ? "" : ", ") + p.name;
    return list;
}

}  // namespace irscope::io
