#include "core/export/mermaid.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace irscope::exporter {
namespace {

// Mermaid labels are double-quoted: torch_ir replaces '"' with '\''.
std::string label(std::string text) {
    std::replace(text.begin(), text.end(), '"', '\'');
    return text;
}

}  // namespace

std::string graphToMermaid(const ir::Graph& graph, const MermaidOptions& options) {
    std::string out = "flowchart TD";
    auto line = [&out](const std::string& text) {
        out += "\n    ";
        out += text;
    };

    std::unordered_map<std::string, std::string> producers;  // tensor name -> mermaid node id
    for (const auto& input : graph.graphInputs) {
        line("input_" + input.name + "[/\"" + label("Input: " + input.name + "<br/>" + ir::shapeToX(input.shape)) +
             "\"/]");
        producers[input.name] = "input_" + input.name;
    }

    std::unordered_set<std::string> weightNames;
    for (const auto& weight : graph.weights) weightNames.insert(weight.name);
    for (const auto& [placeholder, original] : graph.weightNameMapping) weightNames.insert(placeholder);

    const size_t drawn = std::min(graph.nodes.size(), static_cast<size_t>(std::max(options.maxNodes, 0)));
    for (size_t n = 0; n < drawn; ++n)
        for (const auto& output : graph.nodes[n].outputs) producers[output.name] = "op_" + graph.nodes[n].name;

    for (size_t n = 0; n < drawn; ++n) {
        const auto& node = graph.nodes[n];
        const std::string id = "op_" + node.name;
        std::string text = node.shortOpName();
        if (!node.outputs.empty()) text += "<br/>" + ir::shapeToX(node.outputs.front().shape);
        line(id + "[\"" + label(text) + "\"]");
        for (const auto& input : node.inputs) {
            const std::string shape = label(ir::shapeToX(input.shape));
            if (weightNames.count(input.name)) {
                if (!options.includeWeights) continue;
                line("w_" + input.name + "[/\"" + label(input.name + "<br/>" + ir::shapeToX(input.shape)) + "\"/]");
                line("w_" + input.name + " -.->|\"" + shape + "\"| " + id);
            } else if (auto producer = producers.find(input.name); producer != producers.end()) {
                line(producer->second + " -->|\"" + shape + "\"| " + id);
            }
        }
    }

    for (size_t i = 0; i < graph.graphOutputs.size(); ++i) {
        const auto& output = graph.graphOutputs[i];
        const std::string id = "output_" + std::to_string(i);
        line(id + "[\\\"" + label("Output<br/>" + ir::shapeToX(output.shape)) + "\"/]");
        if (auto producer = producers.find(output.name); producer != producers.end())
            line(producer->second + " --> " + id);
    }

    if (graph.nodes.size() > drawn)
        line("note[\"... " + std::to_string(graph.nodes.size() - drawn) + " more nodes ...\"]");
    return out;
}

}  // namespace irscope::exporter
