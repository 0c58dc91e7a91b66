#include "core/export/modules_report.h"

#include "core/export/info_summary.h"
#include "core/ir/python_json_writer.h"
#include "core/modules/module_kind.h"

namespace irscope::exporter {
namespace {

using modules::Module;
using modules::ModuleId;

void appendTextRow(std::string& out, const Module& m, const std::string& kind) {
    std::string label = m.path.empty() ? std::string("(model)") : m.path;
    std::string line(static_cast<size_t>(2 * m.depth), ' ');
    line += label;
    line += "  [" + kind + "]";
    if (line.size() < 56)
        line.append(56 - line.size(), ' ');
    else
        line += ' ';
    out += line;
    auto count = [&out](int64_t n, const char* one, const char* many) {
        out += withThousands(static_cast<unsigned __int128>(n)) + " " + (n == 1 ? one : many);
    };
    count(m.opCount, "op, ", "ops, ");
    count(m.weightCount, "weight, ", "weights, ");
    count(m.parameterCount, "parameter\n", "parameters\n");
}

}  // namespace

std::string formatModulesText(const modules::ModuleTree& tree, const ir::Graph& graph, int depth) {
    const auto kinds = modules::moduleKinds(tree, graph);
    std::string out;
    std::vector<ModuleId> stack{modules::kRootModule};
    while (!stack.empty()) {
        const ModuleId id = stack.back();
        stack.pop_back();
        const Module& m = tree.module(id);
        appendTextRow(out, m, kinds[static_cast<size_t>(id)]);
        if (depth >= 0 && m.depth >= depth) continue;
        for (auto it = m.children.rbegin(); it != m.children.rend(); ++it) stack.push_back(*it);
    }
    return out;
}

namespace {

void writeModule(ir::PythonJsonWriter& w, const modules::ModuleTree& tree, const ir::Graph& graph,
                 const std::vector<std::string>& kinds, ModuleId id, int depth) {
    const Module& m = tree.module(id);
    w.beginObject();
    w.key("path");
    w.value(m.path);
    w.key("kind");
    w.value(kinds[static_cast<size_t>(id)]);
    w.key("ops");
    w.value(m.opCount);
    w.key("nodes");
    w.beginArray();
    for (int64_t n : m.nodes) w.value(graph.nodes[static_cast<size_t>(n)].name);
    w.endArray();
    w.key("weights");
    w.value(m.weightCount);
    w.key("parameters");
    w.value(m.parameterCount);
    w.key("children");
    w.beginArray();
    if (depth < 0 || m.depth < depth)
        for (ModuleId c : m.children) writeModule(w, tree, graph, kinds, c, depth);
    w.endArray();
    w.endObject();
}

}  // namespace

std::string formatModulesJson(const modules::ModuleTree& tree, const ir::Graph& graph, int depth) {
    const auto kinds = modules::moduleKinds(tree, graph);
    std::string out;
    ir::PythonJsonWriter w(out);
    writeModule(w, tree, graph, kinds, modules::kRootModule, depth);
    out += '\n';
    return out;
}

}  // namespace irscope::exporter
