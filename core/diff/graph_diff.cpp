#include "core/diff/graph_diff.h"

#include "core/diff/attr_compare.h"

#include <algorithm>

namespace irscope::diff {
namespace {

using ir::GraphIndex;
using ir::TensorMeta;
using ir::ValueSource;

// A node with hundreds of inputs (a 384-way stack) whose shapes all changed
// would otherwise list them all.
constexpr size_t kMaxDetailLines = 8;

std::string arrow(const std::string& a, const std::string& b) { return a + " -> " + b; }

// "linear", "split[1]", "input x", "weight fc1.weight": where a slot reads from.
std::string describeSource(const GraphIndex& index, int64_t node, size_t slot) {
    const auto& g = index.graph();
    const auto& s = index.source(node, static_cast<int64_t>(slot));
    switch (s.kind) {
    case ValueSource::Kind::GraphInput: return "input " + g.graphInputs[static_cast<size_t>(s.index)].name;
    case ValueSource::Kind::NodeOutput: {
        std::string name = g.nodes[static_cast<size_t>(s.index)].name;
        if (s.outputIndex != 0) {
            name += '[';
            name += std::to_string(s.outputIndex);
            name += ']';
        }
        return name;
    }
    case ValueSource::Kind::Weight:
        return "weight " + (s.index >= 0 ? g.weights[static_cast<size_t>(s.index)].name : s.placeholder);
    case ValueSource::Kind::Missing: break;
    }
    return g.nodes[static_cast<size_t>(node)].inputs[slot].name + " (undefined)";
}

// Whether slot `slot` of A's node and of B's node read the same value, through the match.
bool sameSource(const GraphDiff& d, const GraphIndex& a, int64_t na, const GraphIndex& b, int64_t nb, size_t slot) {
    const auto& sa = a.source(na, static_cast<int64_t>(slot));
    const auto& sb = b.source(nb, static_cast<int64_t>(slot));
    if (sa.kind != sb.kind) return false;
    const auto& m = d.match;
    switch (sb.kind) {
    case ValueSource::Kind::GraphInput: return m.inputBToA[static_cast<size_t>(sb.index)] == sa.index;
    case ValueSource::Kind::NodeOutput:
        return m.bToA[static_cast<size_t>(sb.index)] == sa.index && sa.outputIndex == sb.outputIndex;
    case ValueSource::Kind::Weight:
        if (sb.index < 0 || sa.index < 0) return sa.placeholder == sb.placeholder;
        return m.weightBToA[static_cast<size_t>(sb.index)] == sa.index;
    case ValueSource::Kind::Missing: break;
    }
    return a.graph().nodes[static_cast<size_t>(na)].inputs[slot].name ==
           b.graph().nodes[static_cast<size_t>(nb)].inputs[slot].name;
}

// Shape and dtype lines of one tensor slot ("input 0 (linear): shape [2, 8] -> [4, 8]").
void compareMeta(const TensorMeta& ta, const TensorMeta& tb, const std::string& label, std::vector<std::string>& out) {
    if (!ir::shapesAgree(ta.shape, tb.shape))
        out.push_back(label + ": shape " + arrow(ir::shapeToList(ta.shape), ir::shapeToList(tb.shape)));
    if (ta.dtype != tb.dtype) out.push_back(label + ": dtype " + arrow(ta.dtype, tb.dtype));
}

void cap(std::vector<std::string>& lines) {
    if (lines.size() <= kMaxDetailLines) return;
    const size_t more = lines.size() - kMaxDetailLines;
    lines.resize(kMaxDetailLines);
    lines.push_back("... and " + std::to_string(more) + " more");
}

// One kind of difference ("attrs", "inputs", "outputs") with its lines, if any.
void addSection(NodeChange& change, const char* what, std::vector<std::string> lines) {
    if (lines.empty()) return;
    change.what.emplace_back(what);
    cap(lines);
    change.details.insert(change.details.end(), lines.begin(), lines.end());
}

std::vector<std::string> attrChanges(const ir::AttrMap& a, const ir::AttrMap& b) {
    std::vector<std::string> out;
    for (const auto& [key, va] : a.items()) {
        auto it = b.find(key);
        if (it == b.end())
            out.push_back(key + ": " + attrText(va) + " -> (absent)");
        else if (!sameAttrValue(va, *it))
            out.push_back(key + ": " + arrow(attrText(va), attrText(*it)));
    }
    for (const auto& [key, vb] : b.items())
        if (!a.contains(key)) out.push_back(key + ": (absent) -> " + attrText(vb));
    return out;
}

NodeChange compareNodes(const GraphDiff& d, const GraphIndex& ia, int64_t na, const GraphIndex& ib, int64_t nb) {
    const auto& a = ia.graph().nodes[static_cast<size_t>(na)];
    const auto& b = ib.graph().nodes[static_cast<size_t>(nb)];
    NodeChange change{na, nb, {}, {}};
    if (a.opType != b.opType) {
        change.what.emplace_back("op_type");
        change.details.push_back("op " + arrow(a.opType, b.opType));
    }
    addSection(change, "attrs", attrChanges(a.attrs, b.attrs));
    std::vector<std::string> inputs;
    if (a.inputs.size() != b.inputs.size())
        inputs.push_back("inputs: " + arrow(std::to_string(a.inputs.size()), std::to_string(b.inputs.size())));
    for (size_t i = 0; i < std::min(a.inputs.size(), b.inputs.size()); ++i) {
        const std::string label = "input " + std::to_string(i);
        if (!sameSource(d, ia, na, ib, nb, i)) {
            std::string to = describeSource(ib, nb, i);
            const auto& sb = ib.source(nb, static_cast<int64_t>(i));
            if (sb.kind == ValueSource::Kind::NodeOutput && d.match.bToA[static_cast<size_t>(sb.index)] < 0)
                to += " (added)";
            inputs.push_back(label + ": from " + arrow(describeSource(ia, na, i), to));
        }
        compareMeta(a.inputs[i], b.inputs[i], label, inputs);
    }
    addSection(change, "inputs", std::move(inputs));
    std::vector<std::string> outputs;
    if (a.outputs.size() != b.outputs.size())
        outputs.push_back("outputs: " + arrow(std::to_string(a.outputs.size()), std::to_string(b.outputs.size())));
    for (size_t i = 0; i < std::min(a.outputs.size(), b.outputs.size()); ++i)
        compareMeta(a.outputs[i], b.outputs[i], "output " + std::to_string(i), outputs);
    addSection(change, "outputs", std::move(outputs));
    return change;
}

// Shape, dtype and (where given) value of two tensors paired by name or position.
TensorChange compareTensors(int64_t ia, const TensorMeta& a, int64_t ib, const TensorMeta& b) {
    TensorChange change{ia, ib, {}, {}};
    std::vector<std::string> lines;
    if (!ir::shapesAgree(a.shape, b.shape)) {
        change.what.emplace_back("shape");
        lines.push_back("shape " + arrow(ir::shapeToList(a.shape), ir::shapeToList(b.shape)));
    }
    if (a.dtype != b.dtype) {
        change.what.emplace_back("dtype");
        lines.push_back("dtype " + arrow(a.dtype, b.dtype));
    }
    for (size_t i = 0; i < lines.size(); ++i) change.detail += (i ? "; " : "") + lines[i];
    return change;
}

void appendDetail(TensorChange& change, const std::string& what, const std::string& line) {
    change.what.push_back(what);
    change.detail += (change.detail.empty() ? "" : "; ") + line;
}

void diffWeights(GraphDiff& d, const GraphIndex& ia, const GraphIndex& ib) {
    const auto& ga = ia.graph();
    const auto& gb = ib.graph();
    for (size_t w = 0; w < ga.weights.size(); ++w)
        if (d.match.weightAToB[w] < 0) d.weights.removed.push_back(static_cast<int64_t>(w));
    for (size_t w = 0; w < gb.weights.size(); ++w) {
        const int64_t wa = d.match.weightBToA[w];
        if (wa < 0) {
            d.weights.added.push_back(static_cast<int64_t>(w));
            continue;
        }
        const auto& ma = ga.weights[static_cast<size_t>(wa)];
        const auto& mb = gb.weights[w];
        auto change = compareTensors(wa, ma, static_cast<int64_t>(w), mb);
        // Values only where both files carry them (IRs extracted on a real device).
        const auto* ca = ia.constant(ma.name);
        const auto* cb = ib.constant(mb.name);
        if (ca && cb && change.what.empty() && ca->usable() && cb->usable() && ca->bytes != cb->bytes)
            appendDetail(change, "value", "values differ");
        else if ((ca == nullptr) != (cb == nullptr) && change.what.empty())
            appendDetail(change, "value", ca ? "value dropped (only A carries it)" : "value added (only B carries it)");
        if (!change.what.empty()) d.weights.changed.push_back(std::move(change));
    }
}

void diffGraphInputs(GraphDiff& d, const ir::Graph& ga, const ir::Graph& gb) {
    for (size_t i = 0; i < ga.graphInputs.size(); ++i)
        if (d.match.inputAToB[i] < 0) d.graphInputs.removed.push_back(static_cast<int64_t>(i));
    for (size_t i = 0; i < gb.graphInputs.size(); ++i) {
        const int64_t ai = d.match.inputBToA[i];
        if (ai < 0) {
            d.graphInputs.added.push_back(static_cast<int64_t>(i));
            continue;
        }
        auto change =
            compareTensors(ai, ga.graphInputs[static_cast<size_t>(ai)], static_cast<int64_t>(i), gb.graphInputs[i]);
        if (ga.graphInputs[static_cast<size_t>(ai)].name != gb.graphInputs[i].name)
            appendDetail(change, "name",
                         "renamed " + arrow(ga.graphInputs[static_cast<size_t>(ai)].name, gb.graphInputs[i].name));
        // Graph inputs are positional in the forward() signature: a swap changes the call.
        if (ai != static_cast<int64_t>(i) && ga.graphInputs.size() == gb.graphInputs.size())
            appendDetail(change, "position", "position " + arrow(std::to_string(ai), std::to_string(i)));
        if (!change.what.empty()) d.graphInputs.changed.push_back(std::move(change));
    }
}

// Outputs pair by position: their names are their producers', which FX renumbers.
void diffGraphOutputs(GraphDiff& d, const GraphIndex& ia, const GraphIndex& ib) {
    const auto& outsA = ia.graph().graphOutputs;
    const auto& outsB = ib.graph().graphOutputs;
    // An output pairs first with the A output its (matched) producer made, so
    // an output added in front does not shift every other; the rest by position.
    std::vector<int64_t> partner(outsB.size(), -1);
    std::vector<char> taken(outsA.size(), 0);
    for (size_t k = 0; k < outsB.size(); ++k) {
        const auto pb = ib.producerOfTensor(outsB[k].name);
        if (!pb || d.match.bToA[static_cast<size_t>(pb->first)] < 0) continue;
        for (size_t j = 0; j < outsA.size(); ++j) {
            const auto pa = ia.producerOfTensor(outsA[j].name);
            if (taken[j] || !pa || pa->first != d.match.bToA[static_cast<size_t>(pb->first)] ||
                pa->second != pb->second)
                continue;
            partner[k] = static_cast<int64_t>(j);
            taken[j] = 1;
            break;
        }
    }
    size_t nextA = 0;
    for (size_t k = 0; k < outsB.size(); ++k) {
        if (partner[k] >= 0) continue;
        while (nextA < outsA.size() && taken[nextA]) ++nextA;
        if (nextA == outsA.size()) break;
        partner[k] = static_cast<int64_t>(nextA);
        taken[nextA] = 1;
    }
    for (size_t j = 0; j < outsA.size(); ++j)
        if (!taken[j]) d.graphOutputs.removed.push_back(static_cast<int64_t>(j));
    for (size_t k = 0; k < outsB.size(); ++k) {
        const int64_t j = partner[k];
        if (j < 0) {
            d.graphOutputs.added.push_back(static_cast<int64_t>(k));
            continue;
        }
        const auto& ta = outsA[static_cast<size_t>(j)];
        auto change = compareTensors(j, ta, static_cast<int64_t>(k), outsB[k]);
        const auto pa = ia.producerOfTensor(ta.name);
        const auto pb = ib.producerOfTensor(outsB[k].name);
        const bool same = pa && pb
                              ? d.match.bToA[static_cast<size_t>(pb->first)] == pa->first && pa->second == pb->second
                              : ta.name == outsB[k].name;
        if (!same) appendDetail(change, "producer", "produced by " + arrow(ta.name, outsB[k].name));
        if (j != static_cast<int64_t>(k))
            appendDetail(change, "position", "position " + arrow(std::to_string(j), std::to_string(k)));
        if (!change.what.empty()) d.graphOutputs.changed.push_back(std::move(change));
    }
}

}  // namespace

GraphDiff diffGraphs(const GraphIndex& ia, const GraphIndex& ib, MatchMode mode) {
    GraphDiff d;
    d.match = matchGraphs(ia, ib, mode);
    const auto& ga = ia.graph();
    const auto& gb = ib.graph();
    for (size_t n = 0; n < ga.nodes.size(); ++n)
        if (d.match.aToB[n] < 0) d.removedNodes.push_back(static_cast<int64_t>(n));
    for (size_t n = 0; n < gb.nodes.size(); ++n) {
        const int64_t a = d.match.bToA[n];
        if (a < 0) {
            d.addedNodes.push_back(static_cast<int64_t>(n));
            continue;
        }
        auto change = compareNodes(d, ia, a, ib, static_cast<int64_t>(n));
        if (!change.what.empty())
            d.changedNodes.push_back(std::move(change));
        else if (ga.nodes[static_cast<size_t>(a)].name != gb.nodes[n].name)
            d.renamedNodes.emplace_back(a, n);
    }
    diffWeights(d, ia, ib);
    diffGraphInputs(d, ga, gb);
    diffGraphOutputs(d, ia, ib);
    return d;
}

namespace {
std::vector<NodeDiffState> statesFrom(const GraphDiff& d, bool sideB) {
    const auto& partner = sideB ? d.match.bToA : d.match.aToB;
    std::vector<NodeDiffState> states(partner.size(), NodeDiffState::Unchanged);
    for (size_t n = 0; n < partner.size(); ++n)
        if (partner[n] < 0) states[n] = sideB ? NodeDiffState::Added : NodeDiffState::Removed;
    for (const auto& c : d.changedNodes) states[static_cast<size_t>(sideB ? c.b : c.a)] = NodeDiffState::Changed;
    for (const auto& [a, b] : d.renamedNodes) states[static_cast<size_t>(sideB ? b : a)] = NodeDiffState::Renamed;
    return states;
}
}  // namespace

std::vector<NodeDiffState> nodeStatesA(const GraphDiff& diff) { return statesFrom(diff, false); }
std::vector<NodeDiffState> nodeStatesB(const GraphDiff& diff) { return statesFrom(diff, true); }

}  // namespace irscope::diff
