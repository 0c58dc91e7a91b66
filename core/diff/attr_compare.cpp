#include "core/diff/attr_compare.h"

#include <cmath>

#include "core/ir/python_json_writer.h"

namespace irscope::diff {

bool sameAttrValue(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
    if (a.is_number() && b.is_number()) {
        if (a.is_number_float() || b.is_number_float()) {
            const double x = a.get<double>(), y = b.get<double>();
            return x == y || (std::isnan(x) && std::isnan(y));
        }
        return a == b;
    }
    if (a.type() != b.type()) return false;
    if (a.is_array()) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!sameAttrValue(a[i], b[i])) return false;
        return true;
    }
    if (a.is_object()) {
        if (a.size() != b.size()) return false;
        for (const auto& [key, value] : a.items()) {
            auto it = b.find(key);
            if (it == b.end() || !sameAttrValue(value, *it)) return false;
        }
        return true;
    }
    return a == b;
}

std::string attrText(const nlohmann::ordered_json& value) {
    if (value.is_number_float()) return ir::pythonFloatRepr(value.get<double>());
    if (value.is_array()) {
        std::string out = "[";
        for (size_t i = 0; i < value.size(); ++i) {
            if (i) out += ", ";
            out += attrText(value[i]);
        }
        return out + "]";
    }
    if (value.is_object()) {
        std::string out = "{";
        bool first = true;
        for (const auto& [key, v] : value.items()) {
            if (!first) out += ", ";
            out += nlohmann::ordered_json(key).dump();
            out += ": ";
            out += attrText(v);
            first = false;
        }
        return out + "}";
    }
    return value.dump();
}

}  // namespace irscope::diff
