#include "core/ir/dump_groups.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace irscope::ir {

namespace {

using json = nlohmann::json;

std::vector<std::string> stringList(const json& v, const std::string& where) {
    if (!v.is_array() || v.empty()) throw std::runtime_error(where + ": a non-empty list of names");
    std::vector<std::string> out;
    for (const auto& s : v) {
        if (!s.is_string() || s.get<std::string>().empty())
            throw std::runtime_error(where + ": every entry is a name (a non-empty string)");
        out.push_back(s.get<std::string>());
    }
    return out;
}

std::vector<int64_t> permutationOf(const json& v, const std::string& where) {
    if (v.is_string()) {
        if (auto p = layoutPermutation(v.get<std::string>())) return *p;
        throw std::runtime_error(where + ": '" + v.get<std::string>() +
                                 "' is not a layout irscope knows (NHWC, NWC, NDHWC, or a permutation like "
                                 "[0, 2, 3, 1])");
    }
    if (!v.is_array() || v.empty() || v.size() > 16)
        throw std::runtime_error(where + ": a layout name or a permutation like [0, 2, 3, 1]");
    std::vector<int64_t> p;
    for (const auto& d : v) {
        if (!d.is_number_integer()) throw std::runtime_error(where + ": a permutation holds integers");
        p.push_back(d.get<int64_t>());
    }
    std::vector<int64_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i)
        if (sorted[i] != static_cast<int64_t>(i))
            throw std::runtime_error(where + ": not a permutation of 0.." + std::to_string(p.size() - 1));
    return p;
}

}  // namespace

std::optional<std::vector<int64_t>> layoutPermutation(std::string_view layout) {
    if (layout == "NCHW" || layout == "NCW" || layout == "NCDHW" || layout == "") return std::vector<int64_t>{};
    if (layout == "NHWC") return std::vector<int64_t>{0, 2, 3, 1};
    if (layout == "NWC") return std::vector<int64_t>{0, 2, 1};
    if (layout == "NDHWC") return std::vector<int64_t>{0, 2, 3, 4, 1};
    return std::nullopt;
}

std::vector<DumpGroup> parseDumpGroups(std::string_view text, const std::string& path) {
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded()) throw std::runtime_error(path + ": not JSON");
    if (!doc.is_object() || !doc.contains("groups") || !doc["groups"].is_object())
        throw std::runtime_error(path + ": expected {\"groups\": {NAME: {\"module\" | \"nodes\" | \"outputs\": ...}}}");
    std::vector<DumpGroup> out;
    for (const auto& [name, spec] : doc["groups"].items()) {
        const std::string where = path + ": groups." + name;
        if (name.empty()) throw std::runtime_error(path + ": a group has an empty name");
        if (!spec.is_object()) throw std::runtime_error(where + ": expected an object");
        DumpGroup g;
        g.name = name;
        const int ways = spec.contains("module") + spec.contains("nodes") + spec.contains("outputs");
        if (ways != 1)
            throw std::runtime_error(where + ": say what it is, one way: \"module\", \"nodes\" or \"outputs\"");
        if (spec.contains("module")) {
            if (!spec["module"].is_string()) throw std::runtime_error(where + ".module: a module path (a string)");
            g.selector = DumpGroup::Selector::Module;
            g.module = spec["module"].get<std::string>();
        } else if (spec.contains("nodes")) {
            g.selector = DumpGroup::Selector::Nodes;
            g.names = stringList(spec["nodes"], where + ".nodes");
        } else {
            g.selector = DumpGroup::Selector::Outputs;
            g.names = stringList(spec["outputs"], where + ".outputs");
        }
        if (spec.contains("layout")) {
            g.permutation = permutationOf(spec["layout"], where + ".layout");
            g.layoutText = spec["layout"].dump();
            if (spec["layout"].is_string()) g.layoutText = spec["layout"].get<std::string>();
        }
        if (spec.contains("dtype")) {
            if (!spec["dtype"].is_string()) throw std::runtime_error(where + ".dtype: a dtype name");
            const std::string d = spec["dtype"].get<std::string>();
            if (d == "float32" || d == "float16" || d == "bfloat16" || d == "float64") {
                // A floating dump: compared as the program's own dtype.
            } else if (d == "int8" || d == "uint8" || d == "int16" || d == "int32") {
                g.dtype = d;
                if (!spec.contains("scale") || !spec["scale"].is_number())
                    throw std::runtime_error(where + ": a " + d + " group needs \"scale\" (a number)");
                g.scale = spec["scale"].get<double>();
                if (!(g.scale > 0) || !std::isfinite(g.scale))
                    throw std::runtime_error(where + ".scale: a positive finite number");
                if (spec.contains("zero_point")) {
                    if (!spec["zero_point"].is_number_integer())
                        throw std::runtime_error(where + ".zero_point: an integer");
                    g.zeroPoint = spec["zero_point"].get<int64_t>();
                }
            } else {
                throw std::runtime_error(where + ".dtype: '" + d +
                                         "' (expected int8, uint8, int16, int32 or a floating dtype)");
            }
        }
        for (const auto& [key, value] : spec.items())
            if (key != "module" && key != "nodes" && key != "outputs" && key != "layout" && key != "dtype" &&
                key != "scale" && key != "zero_point")
                throw std::runtime_error(where + ": unknown key '" + key + "'");
        out.push_back(std::move(g));
    }
    if (out.empty()) throw std::runtime_error(path + ": no group");
    return out;
}

}  // namespace irscope::ir
