#include "core/diff/tensor_name_map.h"

namespace irscope::diff {

std::vector<std::pair<std::string, std::string>> tensorNamesBToA(const GraphDiff& diff, const ir::GraphIndex& a,
                                                                 const ir::GraphIndex& b) {
    const auto& ga = a.graph();
    const auto& gb = b.graph();
    std::vector<std::pair<std::string, std::string>> names;
    for (size_t i = 0; i < gb.graphInputs.size(); ++i) {
        const int64_t ai = diff.match.inputBToA[i];
        if (ai >= 0 && ir::shapesAgree(ga.graphInputs[static_cast<size_t>(ai)].shape, gb.graphInputs[i].shape))
            names.emplace_back(gb.graphInputs[i].name, ga.graphInputs[static_cast<size_t>(ai)].name);
    }
    for (size_t n = 0; n < gb.nodes.size(); ++n) {
        const int64_t an = diff.match.bToA[n];
        if (an < 0) continue;
        const auto& outsA = ga.nodes[static_cast<size_t>(an)].outputs;
        const auto& outsB = gb.nodes[n].outputs;
        // A value of another shape cannot be compared element by element.
        for (size_t k = 0; k < std::min(outsA.size(), outsB.size()); ++k)
            if (ir::shapesAgree(outsA[k].shape, outsB[k].shape)) names.emplace_back(outsB[k].name, outsA[k].name);
    }
    return names;
}

}  // namespace irscope::diff
