#pragma once
// CallStackPanel: the module path of the run cursor (the next node to run) as a call
// stack (innermost first: "matmul_3", "layers.3.self_attn", "layers.3",
// "model"), as RenderDoc and IDE debuggers show where execution stands. A
// click selects that frame's module (or the node) in the graph. Step Over /
// Into / Out (F10 / F11 / Shift+F11) move along it.
#include <QWidget>

#include "widgets/common/panel_events.h"

class QListWidget;

namespace irscope::widgets {

class GraphSession;

class CallStackPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit CallStackPanel(GraphSession* session, QWidget* parent = nullptr);

    // The rows' texts, innermost first (tests).
    QStringList frames() const;

private:
    void documentOpened(bool) override { rebuild(); }
    void runCursorChanged(qint64) override { rebuild(); }
    void rebuild();

    GraphSession* session_;
    QListWidget* list_;
};

}  // namespace irscope::widgets
