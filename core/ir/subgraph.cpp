#include "core/ir/subgraph.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace irscope::ir {

namespace {

TensorMeta boundaryMeta(const TensorMeta& like, const std::string& name) {
    TensorMeta m;
    m.name = name;
    m.shape = like.shape;
    m.dtype = like.dtype;
    return m;  // graph inputs and outputs carry no producer
}

}  // namespace

CutFiles cutFilesBeside(const std::string& irPath) {
    std::string stem = irPath;
    for (const char* ext : {".json", ".pt2"})
        if (stem.size() > std::string(ext).size() && stem.ends_with(ext))
            stem = stem.substr(0, stem.size() - std::string(ext).size());
    return {stem + ".inputs.pt", stem + ".expected.pt"};
}

Subgraph extractSubgraph(const GraphIndex& index, std::vector<int64_t> nodes, bool withSubgraphs) {
    const Graph& g = index.graph();
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes.empty()) throw std::invalid_argument("the selection is empty: no node to extract");
    if (nodes.front() < 0 || nodes.back() >= static_cast<int64_t>(g.nodes.size()))
        throw std::invalid_argument("the selection names a node index outside the graph");
    std::vector<char> kept(g.nodes.size(), 0);
    for (int64_t i : nodes) kept[static_cast<size_t>(i)] = 1;
    for (int64_t i : nodes)
        if (const OpNode& n = g.nodes[static_cast<size_t>(i)]; !withSubgraphs && !n.subgraphs.empty()) {
            std::string names;
            for (const auto& sub : n.subgraphs) names += (names.empty() ? "" : ", ") + sub.name;
            throw HoldsSubgraphs("node '" + n.name + "' (" + n.opType + ") runs subgraphs (" + names +
                                 ") that a torch_ir JSON cannot hold: a repro with it could not run. Extract "
                                 "from the .pt2 to write the cut as a program (-o SUB.pt2), or cut before or "
                                 "after it (irscope run --until " +
                                 n.name + "/<subgraph>/<node> shows the values inside)");
        }

    Subgraph out;
    Graph& s = out.graph;
    s.modelName = g.modelName;
    s.pytorchVersion = g.pytorchVersion;
    std::unordered_set<std::string> inputSeen, weightSeen, placeholderSeen, constantSeen;
    auto keepWeight = [&](const ValueSource& src) {
        // A constant read by its original name (not a weight, not a mapping key).
        if (const ConstantValue* c = index.constant(src.placeholder); c && constantSeen.insert(src.placeholder).second)
            s.constants.emplace_back(src.placeholder, *c);
        if (src.index >= 0) {
            const TensorMeta& w = g.weights[static_cast<size_t>(src.index)];
            if (weightSeen.insert(w.name).second) s.weights.push_back(w);
            if (const ConstantValue* c = index.constant(w.name); c && constantSeen.insert(w.name).second)
                s.constants.emplace_back(w.name, *c);
        }
        if (const std::string* original = index.originalName(src.placeholder))
            if (placeholderSeen.insert(src.placeholder).second) {
                s.weightNameMapping.emplace_back(src.placeholder, *original);
                if (const ConstantValue* c = index.constant(*original); c && constantSeen.insert(*original).second)
                    s.constants.emplace_back(*original, *c);
            }
    };

    // Inputs that come from outside: graph inputs of the cut, in order of first use.
    for (int64_t i : nodes) {
        OpNode node = g.nodes[static_cast<size_t>(i)];
        for (size_t k = 0; k < node.inputs.size(); ++k) {
            const ValueSource& src = index.source(i, static_cast<int64_t>(k));
            TensorMeta& in = node.inputs[k];
            std::string name;
            switch (src.kind) {
            case ValueSource::Kind::Weight: keepWeight(src); continue;
            case ValueSource::Kind::NodeOutput: {
                if (kept[static_cast<size_t>(src.index)]) continue;
                const OpNode& producer = g.nodes[static_cast<size_t>(src.index)];
                if (src.outputIndex < 0 || src.outputIndex >= static_cast<int64_t>(producer.outputs.size()))
                    throw std::invalid_argument(
                        "node '" + node.name + "' reads output " + std::to_string(src.outputIndex) + " of '" +
                        producer.name + "', which lists " + std::to_string(producer.outputs.size()) +
                        ": the cut cannot name that value; keep '" + producer.name + "' in the selection");
                name = producer.outputs[static_cast<size_t>(src.outputIndex)].name;
                break;
            }
            case ValueSource::Kind::GraphInput: name = g.graphInputs[static_cast<size_t>(src.index)].name; break;
            case ValueSource::Kind::Missing:
                if (!in.producerNode) continue;  // looked up by name at run time: the same in the cut
                throw std::invalid_argument("node '" + node.name + "' reads '" + in.name + "' from '" +
                                            *in.producerNode + "', which is not in the IR: it cannot be extracted");
            }
            if (inputSeen.insert(name).second) {
                s.graphInputs.push_back(boundaryMeta(in, name));
                out.inputs.push_back(name);
            }
            in.name = name;
            if (in.producerNode) {  // graph inputs are their own producer
                in.producerNode = name;
                in.producerOutputIdx = 0;
            }
        }
        s.nodes.push_back(std::move(node));
    }

    // Outputs: what the whole graph uses outside the cut, or returns.
    std::unordered_set<std::string> graphOutputs;
    for (const auto& o : g.graphOutputs) graphOutputs.insert(o.name);
    for (int64_t i : nodes) {
        const OpNode& node = g.nodes[static_cast<size_t>(i)];
        for (size_t k = 0; k < node.outputs.size(); ++k) {
            const auto& uses = index.consumersOf(i, static_cast<int64_t>(k));
            const bool usedOutside =
                std::any_of(uses.begin(), uses.end(), [&](const Use& u) { return !kept[static_cast<size_t>(u.node)]; });
            if (usedOutside || graphOutputs.count(node.outputs[k].name)) {
                s.graphOutputs.push_back(boundaryMeta(node.outputs[k], node.outputs[k].name));
                out.outputs.push_back(node.outputs[k].name);
            }
        }
    }
    if (s.graphOutputs.empty())
        throw NothingToCompare(
            "the selection's results are used by nothing (no node outside it, no graph "
            "output): there is nothing to compare; add the nodes that use them");
    return out;
}

}  // namespace irscope::ir
