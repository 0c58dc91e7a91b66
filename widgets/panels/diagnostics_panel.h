#pragma once
// DiagnosticsPanel: the validation messages of the loaded IR; clicking one
// selects the node (or tensor) it is about.
#include <QWidget>

#include "widgets/common/panel_events.h"

class QTreeWidget;

namespace irscope::widgets {

class GraphSession;

class DiagnosticsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(GraphSession* session, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return tree_; }

signals:
    // What the list shows: live errors, warnings, infos, and the rows whose
    // value the user has since supplied (listed, greyed, not counted as live).
    void countsChanged(int errors, int warnings, int infos, int settled);

private:
    void documentOpened(bool) override { rebuild(); }
    void rebuild();
    GraphSession* session_;
    QTreeWidget* tree_;
};

}  // namespace irscope::widgets
