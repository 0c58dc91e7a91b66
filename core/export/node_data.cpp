#include "core/export/node_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace irscope::exporter {
namespace {

using json = nlohmann::ordered_json;

double finiteOrLargest(double v) {
    const double big = std::numeric_limits<double>::max();
    return std::isinf(v) ? (v > 0 ? big : -big) : v;
}

[[noreturn]] void fail(const std::string& file, const std::string& where, const std::string& why) {
    throw std::runtime_error(file + ": " + (where.empty() ? "" : where + ": ") + why);
}

NodeData fromGraph(const json& g, const std::string& file, const std::string& where, std::string graphId) {
    NodeData data;
    data.graphId = std::move(graphId);
    const std::string prefix = where.empty() ? "" : where + ".";
    if (!g.is_object()) fail(file, where, "expected an object with \"results\"");
    auto results = g.find("results");
    if (results == g.end()) fail(file, where, "no \"results\" (Model Explorer node data keeps its values there)");
    if (!results->is_object()) fail(file, prefix + "results", "expected an object of node name -> {\"value\": v}");
    for (const auto& [node, entry] : results->items()) {
        const std::string at = prefix + "results." + node;
        if (!entry.is_object()) fail(file, at, "expected {\"value\": number}");
        auto v = entry.find("value");
        if (v == entry.end()) fail(file, at, "no \"value\"");
        if (v->is_null()) continue;  // a node without a number
        if (!v->is_number()) fail(file, at + ".value", "expected a number, got " + std::string(v->type_name()));
        data.values.emplace_back(node, v->get<double>());
    }
    if (auto t = g.find("thresholds"); t != g.end()) {
        if (!t->is_array()) fail(file, prefix + "thresholds", "expected an array of {\"value\", \"bgColor\"}");
        for (size_t i = 0; i < t->size(); ++i) {
            const json& e = (*t)[i];
            const std::string at = prefix + "thresholds[" + std::to_string(i) + "]";
            if (!e.is_object() || !e.contains("value") || !e["value"].is_number())
                fail(file, at, "expected {\"value\": number, \"bgColor\": colour}");
            NodeDataThreshold th;
            th.value = e["value"].get<double>();
            if (auto c = e.find("bgColor"); c != e.end() && c->is_string()) th.bgColor = c->get<std::string>();
            data.thresholds.push_back(std::move(th));
        }
        // Model Explorer applies them in ascending order, whatever the file's.
        std::stable_sort(data.thresholds.begin(), data.thresholds.end(),
                         [](const auto& a, const auto& b) { return a.value < b.value; });
    }
    return data;
}

}  // namespace

std::string nodeDataJson(const NodeData& data) {
    json results = json::object();
    for (const auto& [node, v] : data.values)
        if (!std::isnan(v)) results[node] = json{{"value", finiteOrLargest(v)}};
    json body = {{"results", std::move(results)}};
    if (!data.thresholds.empty()) {
        json t = json::array();
        for (const auto& th : data.thresholds)
            t.push_back(json{{"value", finiteOrLargest(th.value)}, {"bgColor", th.bgColor}});
        body["thresholds"] = std::move(t);
    }
    if (data.graphId.empty()) return body.dump(2) + "\n";
    return json{{data.graphId, std::move(body)}}.dump(2) + "\n";
}

NodeData parseNodeData(const std::string& text, const std::string& file, const std::string& preferredGraph) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        std::string why = e.what();  // "[json.exception.parse_error.101] parse error at line 1, column 13: ..."
        if (auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
        fail(file, "byte " + std::to_string(e.byte), "not JSON (" + why + ")");
    }
    if (!root.is_object()) fail(file, "", "expected a JSON object (Model Explorer node data)");
    if (root.contains("results")) return fromGraph(root, file, "", "");
    if (root.empty()) fail(file, "", "no graph and no \"results\"");
    if (!preferredGraph.empty() && root.contains(preferredGraph))
        return fromGraph(root[preferredGraph], file, preferredGraph, preferredGraph);
    const auto first = root.begin();
    return fromGraph(first.value(), file, first.key(), first.key());
}

std::string nodeDataColour(const std::vector<NodeDataThreshold>& thresholds, double value) {
    for (const auto& t : thresholds)
        if (value <= t.value) return t.bgColor;
    return {};
}

}  // namespace irscope::exporter
