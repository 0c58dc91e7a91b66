#include "core/layout/graph_to_layout.h"

#include <algorithm>
#include <string>

namespace irscope::layout {

double defaultTextWidth(std::string_view line) {
    size_t codePoints = 0;
    for (unsigned char c : line)
        if ((c & 0xC0) != 0x80) ++codePoints;
    return 7.2 * static_cast<double>(codePoints);
}

ItemKind weightItemKind(ir::TensorKind kind) {
    switch (kind) {
    case ir::TensorKind::Parameter: return ItemKind::Parameter;
    case ir::TensorKind::Buffer: return ItemKind::Buffer;
    case ir::TensorKind::Constant: return ItemKind::Constant;
    default: return ItemKind::OtherWeight;
    }
}

namespace {

struct Builder {
    const GraphLayoutOptions& opt;
    LayoutGraph out;

    int32_t add(ItemKind kind, int64_t irIndex, std::string name, std::vector<std::string> lines,
                OpFamily family = OpFamily::Other) {
        LayoutNode node;
        node.kind = kind;
        node.family = family;
        node.irIndex = irIndex;
        node.name = std::move(name);
        while (!lines.empty() && lines.back().empty()) lines.pop_back();
        double w = 0;
        for (const auto& l : lines) w = std::max(w, opt.textWidth ? opt.textWidth(l) : defaultTextWidth(l));
        w += 2 * opt.paddingX;
        if (kind != ItemKind::Op) w += opt.slant;
        node.width = std::max(w, opt.minWidth);
        node.height = static_cast<double>(std::max<size_t>(lines.size(), 1)) * opt.lineHeight + 2 * opt.paddingY;
        node.lines = std::move(lines);
        return out.addNode(std::move(node));
    }
};

}  // namespace

std::string opLabel(const ir::OpNode& node) {
    if (!node.isGetitem()) return node.shortOpName();
    const auto it = node.attrs.find("index");
    if (it == node.attrs.end() || !it->is_number_integer()) return "getitem";
    return "getitem [" + std::to_string(it->get<int64_t>()) + "]";
}

LayoutGraph buildLayoutGraph(const ir::Graph& graph, const ir::GraphIndex& index, const GraphLayoutOptions& options) {
    Builder b{options, {}};
    const auto nodeCount = static_cast<int64_t>(graph.nodes.size());
    b.out.nodes.reserve(graph.graphInputs.size() + graph.nodes.size() * 2 + graph.graphOutputs.size());

    std::vector<int32_t> inputItem(graph.graphInputs.size());
    for (size_t i = 0; i < graph.graphInputs.size(); ++i) {
        const auto& t = graph.graphInputs[i];
        inputItem[i] =
            b.add(ItemKind::GraphInput, static_cast<int64_t>(i), t.name, {"Input: " + t.name, ir::shapeToX(t.shape)});
    }
    std::vector<int32_t> opItem(nodeCount);
    for (int64_t j = 0; j < nodeCount; ++j) {
        const auto& node = graph.nodes[j];
        std::vector<std::string> lines{opLabel(node)};
        if (!node.outputs.empty()) lines.push_back(ir::shapeToX(node.outputs[0].shape));
        opItem[j] = b.add(ItemKind::Op, j, node.name, std::move(lines), classifyOp(node.opType));
    }

    std::vector<int32_t> seenSources;  // this node's sources so far (a node reading x twice gets one edge)
    for (int64_t j = 0; j < nodeCount; ++j) {
        const auto& node = graph.nodes[j];
        seenSources.clear();
        for (int64_t i = 0; i < static_cast<int64_t>(node.inputs.size()); ++i) {
            const ir::ValueSource& src = index.source(j, i);
            const std::string shape = ir::shapeToX(node.inputs[i].shape);
            LayoutEdge edge;
            edge.target = opItem[j];
            edge.targetInput = i;
            switch (src.kind) {
            case ir::ValueSource::Kind::GraphInput:
                if (src.index < 0 || src.index >= static_cast<int64_t>(inputItem.size())) continue;
                edge.source = inputItem[src.index];
                break;
            case ir::ValueSource::Kind::NodeOutput:
                if (src.index < 0 || src.index >= nodeCount) continue;
                edge.source = opItem[src.index];
                break;
            case ir::ValueSource::Kind::Weight: {
                if (!options.includeWeights) continue;
                const std::string& name = src.placeholder.empty() ? node.inputs[i].name : src.placeholder;
                edge.source = b.add(weightItemKind(index.kindOf(name)), src.index, name, {name, shape});
                edge.style = EdgeStyle::Dashed;
                b.out.addEdge(std::move(edge));
                continue;
            }
            case ir::ValueSource::Kind::Missing: continue;
            }
            if (std::find(seenSources.begin(), seenSources.end(), edge.source) != seenSources.end()) continue;
            seenSources.push_back(edge.source);
            edge.label = shape;
            b.out.addEdge(std::move(edge));
        }
    }

    for (size_t i = 0; i < graph.graphOutputs.size(); ++i) {
        const auto& t = graph.graphOutputs[i];
        const int32_t item =
            b.add(ItemKind::Output, static_cast<int64_t>(i), t.name, {"Output", ir::shapeToX(t.shape)});
        LayoutEdge edge;
        edge.target = item;
        if (auto p = index.producerOfTensor(t.name))
            edge.source = opItem[p->first];
        else if (auto in = index.graphInputIndex(t.name))
            edge.source = inputItem[*in];
        if (edge.source >= 0) b.out.addEdge(std::move(edge));
    }
    return std::move(b.out);
}

}  // namespace irscope::layout
