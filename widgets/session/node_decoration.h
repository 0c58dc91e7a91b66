#pragma once
// Per-node decorations the graph view draws on top of the family colours,
// filled by NodeDecorator from the debugger's snapshot: the run mark,
// breakpoints, missing values, and an overlay colour (a per-node value mapped
// through a colour scale).
#include <cstdint>
#include <vector>

#include <QColor>
#include <QString>

namespace irscope::widgets {

// How a node is drawn for the run: exec::NodeState plus the cursor (Current)
// and "not being debugged" (None).
enum class RunMark : unsigned char { None, Pending, Current, Done, Failed };

struct NodeDecoration {
    RunMark state = RunMark::None;
    bool breakpoint = false;
    QColor overlay;             // invalid: keep the family fill
    QString badge;              // short text drawn at the box's top-right ("1.2e-3"), empty: none
    bool missingValue = false;  // needs (or, on a placeholder, is) a value the pre-flight check found missing: red mark
    double seconds = 0;         // time the node took when it ran (summed per module in the Modules dock)
    // A higher-order op after it ran: the subgraph a cond took, or how often
    // a loop's body ran (-1: not that kind, or not run). Drawn on its region.
    int32_t takenSubgraph = -1;
    int64_t iterations = -1;
    std::vector<int64_t> subgraphRuns;  // per subgraph, how many times it ran (empty: not known)

    bool isEmpty() const {
        return state == RunMark::None && !breakpoint && !overlay.isValid() && badge.isEmpty() && !missingValue &&
               takenSubgraph < 0 && iterations < 0;
    }
};

}  // namespace irscope::widgets
