#pragma once
// Comparing and showing attr values as torch_ir means them. JSON's own
// equality calls NaN unequal to itself (a `full(..., nan)` would differ from
// itself), and nlohmann's dump() writes NaN and ±Infinity as null (a mask
// fill changed from -inf to -1e9 would read "null -> -1e9").
#include <string>

#include <nlohmann/json.hpp>

namespace irscope::diff {

// Equal as values: NaN equals NaN, key order of objects ignored, 1 and 1.0 equal.
bool sameAttrValue(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b);
// Compact text with Python's float spelling: [1, 6, -1, 4], 1e-06, -Infinity, NaN, "mean".
std::string attrText(const nlohmann::ordered_json& value);

}  // namespace irscope::diff
