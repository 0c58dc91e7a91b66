#include "core/diff/change_rows.h"

#include <algorithm>

namespace irscope::diff {
namespace {

ChangeRow makeRow(ChangeRow::Kind kind, ChangeRow::Change change, int64_t a, int64_t b) {
    ChangeRow r;
    r.kind = kind;
    r.change = change;
    r.a = a;
    r.b = b;
    return r;
}

std::string joinLines(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
    return out;
}

std::string moduleOf(const modules::ModuleTree* tree, int64_t node) {
    if (!tree || node < 0 || static_cast<size_t>(node) >= tree->nodeModules().size()) return {};
    const auto m = tree->moduleOfNode(node);
    return m >= 0 ? tree->module(m).path : std::string();
}

void tensorRows(std::vector<ChangeRow>& rows, ChangeRow::Kind kind, const TensorDiff& d,
                const std::vector<ir::TensorMeta>& a, const std::vector<ir::TensorMeta>& b) {
    for (const auto& c : d.changed) {
        ChangeRow r = makeRow(kind, ChangeRow::Change::Changed, c.a, c.b);
        r.nameA = a[static_cast<size_t>(c.a)].name;
        r.nameB = b[static_cast<size_t>(c.b)].name;
        r.what = joinLines(c.what, ", ");
        r.detail = c.detail;
        rows.push_back(std::move(r));
    }
    for (int64_t i : d.added) {
        ChangeRow r = makeRow(kind, ChangeRow::Change::Added, -1, i);
        r.nameB = b[static_cast<size_t>(i)].name;
        r.detail = ir::shapeToList(b[static_cast<size_t>(i)].shape) + " " + b[static_cast<size_t>(i)].dtype;
        rows.push_back(std::move(r));
    }
    for (int64_t i : d.removed) {
        ChangeRow r = makeRow(kind, ChangeRow::Change::Removed, i, -1);
        r.nameA = a[static_cast<size_t>(i)].name;
        r.detail = ir::shapeToList(a[static_cast<size_t>(i)].shape) + " " + a[static_cast<size_t>(i)].dtype;
        rows.push_back(std::move(r));
    }
}

}  // namespace

std::vector<ChangeRow> changeRows(const GraphDiff& d, const ir::GraphIndex& a, const ir::GraphIndex& b,
                                  const modules::ModuleTree* treeA, const modules::ModuleTree* treeB) {
    const auto& ga = a.graph();
    const auto& gb = b.graph();
    // Where each row sits in B's execution order, in halves: a removed node
    // goes just after the B partner of the last matched node before it in A.
    std::vector<std::pair<int64_t, ChangeRow>> nodeRows;
    auto nodeRow = [&](ChangeRow::Kind kind, ChangeRow::Change change, int64_t na, int64_t nb) {
        ChangeRow r = makeRow(kind, change, na, nb);
        if (na >= 0) r.nameA = ga.nodes[static_cast<size_t>(na)].name;
        if (nb >= 0) r.nameB = gb.nodes[static_cast<size_t>(nb)].name;
        r.opType = nb >= 0 ? gb.nodes[static_cast<size_t>(nb)].opType : ga.nodes[static_cast<size_t>(na)].opType;
        r.module = nb >= 0 ? moduleOf(treeB, nb) : moduleOf(treeA, na);
        return r;
    };
    for (const auto& c : d.changedNodes) {
        auto r = nodeRow(ChangeRow::Kind::NodeChanged, ChangeRow::Change::Changed, c.a, c.b);
        r.what = joinLines(c.what, ", ");
        r.detail = joinLines(c.details, "; ");
        nodeRows.emplace_back(2 * c.b, std::move(r));
    }
    for (int64_t nb : d.addedNodes) {
        auto r = nodeRow(ChangeRow::Kind::NodeAdded, ChangeRow::Change::Added, -1, nb);
        r.detail = "new " + r.opType;
        nodeRows.emplace_back(2 * nb, std::move(r));
    }
    if (!d.removedNodes.empty()) {
        std::vector<int64_t> placeInB(ga.nodes.size(), -1);  // B index of the last matched node up to here
        int64_t last = -1;
        for (size_t n = 0; n < ga.nodes.size(); ++n) {
            if (d.match.aToB[n] >= 0) last = d.match.aToB[n];
            placeInB[n] = last;
        }
        for (int64_t na : d.removedNodes) {
            auto r = nodeRow(ChangeRow::Kind::NodeRemoved, ChangeRow::Change::Removed, na, -1);
            r.detail = "was " + r.opType;
            nodeRows.emplace_back(2 * placeInB[static_cast<size_t>(na)] + 1, std::move(r));
        }
    }
    for (const auto& [na, nb] : d.renamedNodes) {
        auto r = nodeRow(ChangeRow::Kind::NodeRenamed, ChangeRow::Change::Renamed, na, nb);
        r.detail = "renamed " + r.nameA + " -> " + r.nameB;
        nodeRows.emplace_back(2 * nb, std::move(r));
    }
    std::stable_sort(nodeRows.begin(), nodeRows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<ChangeRow> rows;
    rows.reserve(nodeRows.size());
    for (auto& [pos, r] : nodeRows) rows.push_back(std::move(r));
    tensorRows(rows, ChangeRow::Kind::Weight, d.weights, ga.weights, gb.weights);
    tensorRows(rows, ChangeRow::Kind::GraphInput, d.graphInputs, ga.graphInputs, gb.graphInputs);
    tensorRows(rows, ChangeRow::Kind::GraphOutput, d.graphOutputs, ga.graphOutputs, gb.graphOutputs);
    return rows;
}

std::vector<int32_t> changesInsideModules(const std::vector<NodeDiffState>& states, const modules::ModuleTree& tree) {
    std::vector<int32_t> counts(tree.size(), 0);
    const auto& nodeModules = tree.nodeModules();
    for (size_t n = 0; n < states.size() && n < nodeModules.size(); ++n) {
        const auto s = states[n];
        if (s == NodeDiffState::Unchanged || s == NodeDiffState::Renamed) continue;
        for (auto m = nodeModules[n]; m >= 0; m = tree.module(m).parent) ++counts[static_cast<size_t>(m)];
    }
    return counts;
}

std::vector<uint8_t> changeKindsInsideModules(const std::vector<NodeDiffState>& states,
                                              const modules::ModuleTree& tree) {
    std::vector<uint8_t> kinds(tree.size(), 0);
    const auto& nodeModules = tree.nodeModules();
    for (size_t n = 0; n < states.size() && n < nodeModules.size(); ++n) {
        const uint8_t bit = states[n] == NodeDiffState::Changed   ? kModuleHasChanged
                            : states[n] == NodeDiffState::Added   ? kModuleHasAdded
                            : states[n] == NodeDiffState::Removed ? kModuleHasRemoved
                                                                  : 0;
        if (!bit) continue;
        for (auto m = nodeModules[n]; m >= 0; m = tree.module(m).parent) kinds[static_cast<size_t>(m)] |= bit;
    }
    return kinds;
}

}  // namespace irscope::diff
