#pragma once
// Mermaid flowchart text, byte for byte what `pytorch-ir visualize` prints
// (torch_ir's ir_to_mermaid), so users can diff the two.
#include <string>

#include "core/ir/graph.h"

namespace irscope::exporter {

struct MermaidOptions {
    int maxNodes = 30;           // only the first N nodes are drawn (N >= 0)
    bool includeWeights = true;  // --no-weights sets false
};

// Without a trailing newline, like ir_to_mermaid(); the CLI adds one.
std::string graphToMermaid(const ir::Graph& graph, const MermaidOptions& options = {});

}  // namespace irscope::exporter
