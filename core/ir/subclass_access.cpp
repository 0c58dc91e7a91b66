// Names the stored inner tensor a subclass accessor reads (subclass_access.h).
#include "core/ir/subclass_access.h"

namespace irscope::ir {

bool isSubclassAccess(const OpNode& node) {
    return node.opType == "export.access_subclass_inner_tensor.default" ||
           node.opType == "export.access_subclass_inner_tensor";
}

std::optional<std::string> subclassPartName(const Graph& graph, const GraphIndex& index, int64_t node) {
    std::string path;
    // A subclass nested in a subclass is read by a chain of accessors; the
    // chain is at most as long as the graph (a crafted file cannot loop: a
    // producer always comes before its consumer).
    for (int64_t at = node; at >= 0;) {
        const OpNode& n = graph.nodes[static_cast<size_t>(at)];
        const auto attr = n.attrs.find("attr");
        if (!isSubclassAccess(n) || n.inputs.empty() || attr == n.attrs.end() || !attr->is_string())
            return std::nullopt;
        path = "." + attr->get<std::string>() + path;
        const std::string& source = n.inputs[0].name;
        const auto producer = index.producerOfTensor(source);
        if (producer && producer->first < at) {
            at = producer->first;
            continue;
        }
        if (producer || index.graphInputIndex(source)) return std::nullopt;
        const std::string* original = index.originalName(source);
        return (original ? *original : source) + path;
    }
    return std::nullopt;
}

}  // namespace irscope::ir
