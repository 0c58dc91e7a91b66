#pragma once
// BreakpointsPanel: every place the run will stop, in one list as Qt
// Creator's and RenderDoc's breakpoint views have it: breakpoints (before a
// node: F9), watchpoints on a node (after it, when its output has NaN, Inf,
// a max |x| above a limit, or fails the reference check: right-click on the
// node) and the watchpoint on every node (Debug ▸ Watchpoints). A click
// selects the node; Delete removes the entry.
#include <QWidget>

#include "widgets/common/panel_id.h"

class QListWidget;
class QPushButton;

namespace irscope::widgets {

class DebugController;

inline constexpr PanelId kBreakpointsPanel{"breakpointsDock"};

class BreakpointsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BreakpointsPanel(DebugController* controller, QWidget* parent = nullptr);
    QStringList entries() const;  // the rows' texts (tests)
    void removeSelected();
    void removeAll();

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    void rebuild();

    DebugController* c_;
    QListWidget* list_;
    QPushButton* remove_;
    QPushButton* removeAll_;
    QStringList shown_;  // the entries' texts, to rebuild only on a change
};

}  // namespace irscope::widgets
