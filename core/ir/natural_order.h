#pragma once
// Names ordered as people count them: "layers.9" before "layers.10", "model-00002-of-00010"
// before "model-00010-of-00010". Every list of names irscope shows (weights,
// modules, shards) sorts with it; it lives at the bottom floor so each can.
#include <string_view>

namespace irscope::ir {

bool naturalLess(std::string_view a, std::string_view b);

}  // namespace irscope::ir
