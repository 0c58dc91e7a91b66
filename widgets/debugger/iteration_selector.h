#pragma once
// IterationSelector: the section above the Call Stack that says which call
// of a higher-order op's subgraph the debugger stands in ("body_graph_0,
// iteration [3] of 5") and chooses another: every iteration's values stay
// recorded (exec::SubgraphFrames), so choosing one shows them all, as a
// debugger's frame selector shows a frame's locals. Hidden outside a cond's
// branch or a loop's body.
#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QLabel;
class QSpinBox;

namespace irscope::widgets {

class DebugController;

inline constexpr PanelId kIterationSection{"iterationSection"};

class IterationSelector : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit IterationSelector(DebugController* controller, QWidget* parent = nullptr);
    // The iteration shown (1-based) and how many there are; 0 outside a frame (tests).
    int iteration() const;
    int iterations() const;
    // Chooses iteration `iteration` (1-based) of the frame's subgraph, as the spin box does.
    void choose(int iteration);

private:
    void rebuild();

    DebugController* c_;
    QLabel* where_;
    QSpinBox* spin_;
    QLabel* count_;
    bool updating_ = false;
};

}  // namespace irscope::widgets
