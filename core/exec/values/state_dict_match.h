#pragma once
// Whether a loaded state_dict belongs to the IR at all. Loading the wrong
// model's checkpoint (or one saved under another prefix, "model." or
// "module.") binds nothing, and a table of 17 red "missing" rows does not
// say why; this says it plainly: "0 of 17 parameters and buffers found in
// it; it holds 23 other names, such as 'encoder.w'; it looks like a
// different model's state_dict".
#include <optional>
#include <string>
#include <vector>

#include "core/exec/values/value_rows.h"

namespace irscope::exec {

struct StateDictMatch {
    int expected = 0;  // IR parameters and buffers a state_dict should hold
    int found = 0;     // of those, present in the file (right shape and dtype or not)
    int unused = 0;    // file entries no IR weight maps to
    std::string firstUnused;
};

StateDictMatch stateDictMatch(const std::vector<WeightRow>& rows);

// The sentence above when nothing matched, for a state_dict at `fileName`;
// nullopt when something did (or nothing was expected).
std::optional<std::string> differentModelNote(const StateDictMatch& match, const std::string& fileName);

}  // namespace irscope::exec
