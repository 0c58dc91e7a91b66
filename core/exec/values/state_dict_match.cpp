#include "core/exec/values/state_dict_match.h"

namespace irscope::exec {

StateDictMatch stateDictMatch(const std::vector<WeightRow>& rows) {
    StateDictMatch m;
    for (const WeightRow& r : rows) {
        if (r.status == WeightStatus::UnusedInFile) {
            if (m.unused++ == 0) m.firstUnused = r.originalName;
            continue;
        }
        // Lifted constants and non-persistent buffers never come from a state_dict.
        if (r.constantLike || (r.kind != 'p' && r.kind != 'b')) continue;
        ++m.expected;
        if (r.status == WeightStatus::Loaded || r.status == WeightStatus::ShapeMismatch ||
            r.status == WeightStatus::DTypeMismatch)
            ++m.found;
    }
    return m;
}

std::optional<std::string> differentModelNote(const StateDictMatch& m, const std::string& fileName) {
    if (m.expected == 0 || m.found > 0) return std::nullopt;
    std::string s = fileName + ": 0 of " + std::to_string(m.expected) +
                    (m.expected == 1 ? " parameter or buffer" : " parameters and buffers") + " found in it";
    if (m.unused > 0)
        s += "; it holds " + std::to_string(m.unused) + (m.unused == 1 ? " other name, '" : " other names, such as '") +
             m.firstUnused + "'";
    else
        s += "; it holds no tensors";
    s += "; it looks like a different model's state_dict";
    return s;
}

}  // namespace irscope::exec
