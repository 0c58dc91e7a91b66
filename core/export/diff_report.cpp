#include "core/export/diff_report.h"

#include <map>

#include "core/ir/python_json_writer.h"

namespace irscope::exporter {
namespace {

using diff::GraphDiff;
using diff::TensorDiff;

constexpr size_t kRenamesShown = 6;  // the JSON has them all

const ir::OpNode& nodeOf(const ir::GraphIndex& index, int64_t n) { return index.graph().nodes[static_cast<size_t>(n)]; }

std::string joined(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
}

std::string plural(int64_t n, const char* word) { return std::to_string(n) + " " + word; }

void appendTensorSection(std::string& out, const char* title, const TensorDiff& d, const std::vector<ir::TensorMeta>& a,
                         const std::vector<ir::TensorMeta>& b) {
    if (d.empty()) return;
    out += std::string("\n") + title + "\n";
    for (int64_t i : d.removed) {
        const auto& t = a[static_cast<size_t>(i)];
        out += "  - " + t.name + "  " + ir::shapeToList(t.shape) + " " + t.dtype + "\n";
    }
    for (int64_t i : d.added) {
        const auto& t = b[static_cast<size_t>(i)];
        out += "  + " + t.name + "  " + ir::shapeToList(t.shape) + " " + t.dtype + "\n";
    }
    for (const auto& c : d.changed) {
        const auto& na = a[static_cast<size_t>(c.a)].name;
        const auto& nb = b[static_cast<size_t>(c.b)].name;
        out += "  ~ " + (na == nb ? na : na + " / " + nb) + ": " + c.detail + "\n";
    }
}

// --summary: weights as counts per module (the name up to its last dot:
// "layers.3.mlp.up.weight" counts for "layers.3.mlp.up"), in first-seen
// order, never a line per weight (a whole model's 70,000 otherwise).
void appendWeightCountsByModule(std::string& out, const TensorDiff& d, const std::vector<ir::TensorMeta>& a,
                                const std::vector<ir::TensorMeta>& b) {
    if (d.empty()) return;
    struct Counts {
        int64_t changed = 0, added = 0, removed = 0;
    };
    std::vector<std::string> order;
    std::map<std::string, Counts> byModule;
    auto count = [&](const std::string& name) -> Counts& {
        const size_t dot = name.rfind('.');
        const std::string module = dot == std::string::npos ? std::string("(model)") : name.substr(0, dot);
        auto [it, inserted] = byModule.try_emplace(module);
        if (inserted) order.push_back(module);
        return it->second;
    };
    for (int64_t i : d.removed) ++count(a[static_cast<size_t>(i)].name).removed;
    for (int64_t i : d.added) ++count(b[static_cast<size_t>(i)].name).added;
    for (const auto& c : d.changed) ++count(b[static_cast<size_t>(c.b)].name).changed;
    out += "\nweights by module:\n";
    for (const auto& m : order) {
        const Counts& c = byModule[m];
        out += m + ": " + countsLine(c.changed, c.added, c.removed, 0) + "\n";
    }
}

std::string tensorSummary(const char* what, const TensorDiff& d) {
    if (d.empty()) return std::string(what) + " unchanged";
    std::vector<std::string> parts;
    if (!d.changed.empty()) parts.push_back(plural(static_cast<int64_t>(d.changed.size()), "changed"));
    if (!d.added.empty()) parts.push_back(plural(static_cast<int64_t>(d.added.size()), "added"));
    if (!d.removed.empty()) parts.push_back(plural(static_cast<int64_t>(d.removed.size()), "removed"));
    return std::string(what) + ": " + joined(parts, ", ");
}

}  // namespace

std::string countsLine(int64_t changed, int64_t added, int64_t removed, int64_t renamed) {
    std::vector<std::string> parts;
    if (changed) parts.push_back(plural(changed, "changed"));
    if (added) parts.push_back(plural(added, "added"));
    if (removed) parts.push_back(plural(removed, "removed"));
    if (renamed) parts.push_back(plural(renamed, "renamed"));
    return parts.empty() ? "no change" : joined(parts, ", ");
}

std::string formatDiffText(const GraphDiff& d, const std::vector<diff::ModuleChanges>& modules, const DiffSides& s,
                           bool summaryOnly) {
    const auto& ga = s.a.graph();
    const auto& gb = s.b.graph();
    std::string out;
    out +=
        "A: " + s.labelA + " (" + ga.modelName + ", " + plural(static_cast<int64_t>(ga.nodes.size()), "nodes") + ")\n";
    out +=
        "B: " + s.labelB + " (" + gb.modelName + ", " + plural(static_cast<int64_t>(gb.nodes.size()), "nodes") + ")\n";
    if (d.identical()) {
        out += "identical: same nodes, weights, inputs and outputs\n";
        return out;
    }
    const std::string nodes =
        countsLine(static_cast<int64_t>(d.changedNodes.size()), static_cast<int64_t>(d.addedNodes.size()),
                   static_cast<int64_t>(d.removedNodes.size()), static_cast<int64_t>(d.renamedNodes.size()));
    out += "nodes: " + nodes + "; " + tensorSummary("weights", d.weights) + "; " +
           tensorSummary("inputs", d.graphInputs) + "; " + tensorSummary("outputs", d.graphOutputs) + "\n";
    if (summaryOnly && !modules.empty()) out += "\n";
    for (const auto& m : modules) {
        if (m.changed + m.added + m.removed == 0) continue;
        out += std::string(summaryOnly ? "" : "\n") + (m.path.empty() ? std::string("(model)") : m.path) + ": " +
               countsLine(m.changed, m.added, m.removed, 0) + "\n";
        if (summaryOnly) continue;
        for (int64_t i : m.changedNodes) {
            const auto& c = d.changedNodes[static_cast<size_t>(i)];
            const auto& na = nodeOf(s.a, c.a).name;
            const auto& nb = nodeOf(s.b, c.b).name;
            out += "  ~ " + (na == nb ? nb : na + " -> " + nb) + "  (" + joined(c.what, ", ") + ")\n";
            for (const auto& line : c.details) out += "      " + line + "\n";
        }
        for (int64_t b : m.addedNodes) out += "  + " + nodeOf(s.b, b).name + "  " + nodeOf(s.b, b).opType + "\n";
        for (int64_t a : m.removedNodes) out += "  - " + nodeOf(s.a, a).name + "  " + nodeOf(s.a, a).opType + "\n";
    }
    if (summaryOnly) {
        appendWeightCountsByModule(out, d.weights, ga.weights, gb.weights);
        appendTensorSection(out, "graph inputs:", d.graphInputs, ga.graphInputs, gb.graphInputs);
        appendTensorSection(out, "graph outputs:", d.graphOutputs, ga.graphOutputs, gb.graphOutputs);
        return out;
    }
    // Renames are listed once, not per module: one inserted node renumbers
    // thousands of later ones, and a module listing only renames says nothing.
    if (!d.renamedNodes.empty()) {
        std::vector<std::string> pairs;
        for (size_t k = 0; k < std::min(kRenamesShown, d.renamedNodes.size()); ++k) {
            const auto& [a, b] = d.renamedNodes[k];
            pairs.push_back(nodeOf(s.a, a).name + " -> " + nodeOf(s.b, b).name);
        }
        if (d.renamedNodes.size() > kRenamesShown)
            pairs.push_back("... " + std::to_string(d.renamedNodes.size() - kRenamesShown) +
                            " more (--json lists all)");
        out += "\nrenamed only (same op, same inputs): " + joined(pairs, ", ") + "\n";
    }
    appendTensorSection(out, "weights:", d.weights, ga.weights, gb.weights);
    appendTensorSection(out, "graph inputs:", d.graphInputs, ga.graphInputs, gb.graphInputs);
    appendTensorSection(out, "graph outputs:", d.graphOutputs, ga.graphOutputs, gb.graphOutputs);
    return out;
}

namespace {

// Written as it goes (a DOM of 100,000 changed nodes was most of --json's time).
void stringArray(ir::PythonJsonWriter& w, const char* key, const std::vector<std::string>& values) {
    w.key(key);
    w.beginArray();
    for (const auto& v : values) w.value(v);
    w.endArray();
}

void tensorJson(ir::PythonJsonWriter& w, const char* key, const TensorDiff& d, const std::vector<ir::TensorMeta>& a,
                const std::vector<ir::TensorMeta>& b, bool byPosition) {
    w.key(key);
    w.beginObject();
    w.key("added");
    w.beginArray();
    for (int64_t i : d.added) w.value(b[static_cast<size_t>(i)].name);
    w.endArray();
    w.key("removed");
    w.beginArray();
    for (int64_t i : d.removed) w.value(a[static_cast<size_t>(i)].name);
    w.endArray();
    w.key("changed");
    w.beginArray();
    for (const auto& c : d.changed) {
        const auto& na = a[static_cast<size_t>(c.a)].name;
        const auto& nb = b[static_cast<size_t>(c.b)].name;
        w.beginObject();
        if (byPosition || na != nb) {
            w.key("a");
            w.value(na);
            w.key("b");
            w.value(nb);
        } else {
            w.key("name");
            w.value(nb);
        }
        if (byPosition) {
            w.key("index");
            w.value(c.b);
        }
        stringArray(w, "what", c.what);
        w.key("detail");
        w.value(c.detail);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void side(ir::PythonJsonWriter& w, const char* key, const std::string& label, const ir::Graph& g) {
    w.key(key);
    w.beginObject();
    w.key("file");
    w.value(label);
    w.key("model_name");
    w.value(g.modelName);
    w.key("num_nodes");
    w.value(static_cast<int64_t>(g.nodes.size()));
    w.endObject();
}
}  // namespace

std::string formatDiffJson(const GraphDiff& d, const std::vector<diff::ModuleChanges>& modules, const DiffSides& s) {
    const auto& ga = s.a.graph();
    const auto& gb = s.b.graph();
    std::string out;
    ir::PythonJsonWriter w(out);
    w.beginObject();
    w.key("identical");
    w.value(d.identical());
    side(w, "a", s.labelA, ga);
    side(w, "b", s.labelB, gb);
    w.key("nodes");
    w.beginObject();
    w.key("added");
    w.beginArray();
    for (int64_t b : d.addedNodes) w.value(nodeOf(s.b, b).name);
    w.endArray();
    w.key("removed");
    w.beginArray();
    for (int64_t a : d.removedNodes) w.value(nodeOf(s.a, a).name);
    w.endArray();
    w.key("changed");
    w.beginArray();
    for (const auto& c : d.changedNodes) {
        w.beginObject();
        w.key("a");
        w.value(nodeOf(s.a, c.a).name);
        w.key("b");
        w.value(nodeOf(s.b, c.b).name);
        stringArray(w, "what", c.what);
        w.key("detail");
        w.value(joined(c.details, "; "));
        w.endObject();
    }
    w.endArray();
    w.key("renamed");
    w.beginArray();
    for (const auto& [a, b] : d.renamedNodes) {
        w.beginObject();
        w.key("a");
        w.value(nodeOf(s.a, a).name);
        w.key("b");
        w.value(nodeOf(s.b, b).name);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    tensorJson(w, "weights", d.weights, ga.weights, gb.weights, false);
    tensorJson(w, "graph_inputs", d.graphInputs, ga.graphInputs, gb.graphInputs, false);
    tensorJson(w, "graph_outputs", d.graphOutputs, ga.graphOutputs, gb.graphOutputs, true);
    w.key("modules");
    w.beginArray();
    for (const auto& m : modules) {
        w.beginObject();
        w.key("path");
        w.value(m.path);
        for (const auto& [k, v] : {std::pair{"changed", m.changed}, std::pair{"added", m.added},
                                   std::pair{"removed", m.removed}, std::pair{"renamed", m.renamed}}) {
            w.key(k);
            w.value(v);
        }
        w.endObject();
    }
    w.endArray();
    w.endObject();
    return out + "\n";
}

}  // namespace irscope::exporter
