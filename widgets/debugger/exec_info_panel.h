#pragma once
// ExecInfoPanel: the "Execution" section under the properties: the selected
// node's run state, time, output size, missing-value note, error and
// diagnostics; for a cond the branch it took and its predicate; for a node
// inside a subgraph where it stands against the call the debugger is in.
#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"
#include "widgets/session/item_ref.h"

class QTextBrowser;

namespace irscope::widgets {

class DebugController;

inline constexpr PanelId kExecInfoSection{"execInfoSection"};

class ExecInfoPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit ExecInfoPanel(DebugController* controller, QWidget* parent = nullptr);
    QString text() const;
    void selectionChanged(const ItemRef&) override { rebuild(); }
    // A step, also inside a subgraph's call (its frame moved).
    void runCursorChanged(qint64) override { rebuild(); }

private:
    void rebuild();
    QString subgraphNodeHtml(const ItemRef& sel) const;
    DebugController* c_;
    QTextBrowser* text_;
};

}  // namespace irscope::widgets
