#pragma once
// Per-node decorations the graph view draws on top of the family colours.
// The debugger (next issue) fills them: run state, breakpoints, and an
// overlay colour (e.g. a per-node value mapped through a colour scale).
#include <cstdint>

#include <QColor>
#include <QString>

namespace irscope::widgets {

enum class NodeState : unsigned char { None, Pending, Current, Done, Failed };

struct NodeDecoration {
    NodeState state = NodeState::None;
    bool breakpoint = false;
    QColor overlay;        // invalid: keep the family fill
    QString badge;         // short text drawn at the box's top-right ("1.2e-3"), empty: none
    bool missingValue = false;   // needs (or, on a placeholder, is) a value the pre-flight check found missing: red mark
    double seconds = 0;          // time the node took when it ran (summed per module in the Modules dock)

    bool isEmpty() const {
        return state == NodeState::None && !breakpoint && !overlay.isValid() && badge.isEmpty() && !missingValue;
    }
};

}  // namespace irscope::widgets
