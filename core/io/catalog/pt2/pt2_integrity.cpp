// Checks a torch.export archive against its own program (pt2_integrity.h).
// Reads the configs the way the weights format does (pt2_payloads.h), so an
// archive this accepts is one whose weights load.
#include "core/io/catalog/pt2/pt2_integrity.h"

#include <unordered_set>

#include "core/io/catalog/pt2/pt2_payloads.h"
#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

namespace {

// "<top>/data/weights/" for a config "<top>/data/weights/model_weights_config.json".
std::string folderOf(const std::string& entry) { return entry.substr(0, entry.rfind('/') + 1); }

// "<top>/data/weights/<name>_weights_config.json", for a config the archive lacks.
std::string expectedConfig(const Pt2Program& program, const char* kind) {
    const std::string& g = program.graphEntry;
    const std::string top = g.substr(0, g.find("/models/"));
    return top + "/data/" + kind + "/" + program.name + "_" + kind + "_config.json";
}

}  // namespace

std::optional<std::string> pt2Damage(const ZipReader& zip, const Pt2Program& program, const ir::Graph& graph) {
    if (graph.weights.empty()) return std::nullopt;
    const std::string count = std::to_string(graph.weights.size());
    const bool configs = program.graphEntry.find("/models/") != std::string::npos;  // 2.8 on
    if (!configs) {
        if (program.pickledStateDictEntry.empty() && program.pickledConstantsEntry.empty())
            return "serialized_state_dict.pt, beside " + program.graphEntry + ", is missing; it holds the program's " +
                   count + " weights";
        return std::nullopt;
    }
    TensorCatalog stored;
    try {
        addPt2Payloads(stored, zip, program.weightsConfigEntry, folderOf(program.weightsConfigEntry));
        addPt2Payloads(stored, zip, program.constantsConfigEntry, folderOf(program.constantsConfigEntry));
    } catch (const FormatError& e) {
        return e.what();
    }
    std::unordered_set<std::string> names;
    for (const auto& r : stored.records) names.insert(r.name);
    for (const auto& w : graph.weights) {
        if (names.count(w.name)) continue;
        if (program.weightsConfigEntry.empty())
            return expectedConfig(program, "weights") + " is missing; it says where the program's " + count +
                   " weights are stored";
        return program.weightsConfigEntry + " lists no value for '" + w.name + "', a weight of the program";
    }
    return std::nullopt;
}

}  // namespace irscope::io
