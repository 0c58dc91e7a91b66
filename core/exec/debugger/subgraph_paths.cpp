// SubgraphFrames' names of subgraphs and of the values inside them
// ("while_loop/while_loop_body_graph_0/cos"). Static, torch-free and in a
// light part (irscope_exec_terms): the window names values by them before the
// execution engine is loaded.
#include "core/exec/debugger/subgraph_frames.h"

namespace irscope::exec {

std::string SubgraphFrames::subgraphPath(const std::string& where, const std::string& op, const std::string& subgraph) {
    std::string out = where;
    if (!out.empty()) out += '/';
    out += op;
    out += '/';
    out += subgraph;
    return out;
}

std::string SubgraphFrames::qualifiedName(const std::string& subgraphPath, const std::string& tensor) {
    return subgraphPath + "/" + tensor;
}

std::string SubgraphFrames::qualifiedName(const std::string& node, const std::string& subgraph,
                                          const std::string& tensor) {
    return subgraphPath("", node, subgraph) + "/" + tensor;
}

}  // namespace irscope::exec
