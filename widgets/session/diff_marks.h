#pragma once
// What the Compare view paints on one side's graph: each node's
// change (added green, removed red, changed amber), how many changes each
// module holds (a collapsed box says "contains changes"), and whether
// unchanged nodes are dimmed. A GraphSession holds one; the renderer reads it.
#include <cstdint>
#include <vector>

#include <QColor>

namespace irscope::widgets {

enum class DiffMark : uint8_t { None, Unchanged, Renamed, Changed, Added, Removed };

struct DiffMarks {
    std::vector<DiffMark> nodes;         // per node of this side's graph
    std::vector<DiffMark> graphInputs;   // per graph input
    std::vector<DiffMark> weights;       // per weights[] index (a placeholder item's irIndex)
    std::vector<int32_t> moduleChanges;  // per ModuleId: changed, added or removed nodes in it or below
    std::vector<uint8_t> moduleKinds;    // per ModuleId: diff::ModuleChangeKind bits of those
    bool dimUnchanged = false;

    bool empty() const { return nodes.empty(); }
    DiffMark node(int64_t n) const { return at(nodes, n); }
    DiffMark graphInput(int64_t i) const { return at(graphInputs, i); }
    DiffMark weight(int64_t w) const { return at(weights, w); }
    int32_t changesIn(int64_t module) const {
        return module >= 0 && static_cast<size_t>(module) < moduleChanges.size()
                   ? moduleChanges[static_cast<size_t>(module)]
                   : 0;
    }
    // The colour a module box holding changes takes: green when they are all
    // additions, red when all removals, else amber.
    DiffMark moduleMark(int64_t module) const {
        const uint8_t k = module >= 0 && static_cast<size_t>(module) < moduleKinds.size()
                              ? moduleKinds[static_cast<size_t>(module)]
                              : 0;
        return k == 2 ? DiffMark::Added : k == 4 ? DiffMark::Removed : DiffMark::Changed;
    }
    static DiffMark at(const std::vector<DiffMark>& v, int64_t i) {
        return i >= 0 && static_cast<size_t>(i) < v.size() ? v[static_cast<size_t>(i)] : DiffMark::None;
    }
    static bool isChange(DiffMark m) {
        return m == DiffMark::Changed || m == DiffMark::Added || m == DiffMark::Removed;
    }
    static QColor color(DiffMark m) {
        switch (m) {
        case DiffMark::Added: return QColor("#2e9e44");
        case DiffMark::Removed: return QColor("#d0302a");
        case DiffMark::Changed: return QColor("#e08a00");
        default: return {};
        }
    }
};

}  // namespace irscope::widgets
