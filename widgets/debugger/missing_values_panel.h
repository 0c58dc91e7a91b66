#pragma once
// MissingValuesPanel: the pre-flight list in the Diagnostics dock: values a
// run would lack, each with what supplies it; clicking one selects the first
// node that reads it. Parameters waiting for a state_dict that was not loaded
// yet are one neutral line, not an alarm. Weights in another dtype than the
// IR's count as missing, with a button that casts them.
#include <QWidget>

#include "widgets/common/panel_id.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace irscope::widgets {

class DebugController;

inline constexpr PanelId kMissingValuesSection{"missingValuesSection"};

class MissingValuesPanel : public QWidget {
    Q_OBJECT
public:
    explicit MissingValuesPanel(DebugController* controller, QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }
    QPushButton* castButton() const { return cast_; }
    QString title() const;  // the pre-flight banner's text (rich text)

private:
    void rebuild();
    DebugController* c_;
    QListWidget* list_;
    QLabel* title_;
    QPushButton* cast_;
};

}  // namespace irscope::widgets
