#pragma once
// ExecInfoPanel: the "Execution" section under the properties: the selected
// node's run state, time, output size, missing-value note, error and
// diagnostics.
#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

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

private:
    void rebuild();
    DebugController* c_;
    QTextBrowser* text_;
};

}  // namespace irscope::widgets
