#pragma once
// InputsPanel: the "Inputs and references" dock: where each graph input's value
// comes from (random with a seed, zeros, ones, a file), loading the inputs,
// the expected outputs and the reference intermediates, and going to the
// first node whose output differs from its reference.
#include <QWidget>

#include "core/exec/values/value_rows.h"
#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace irscope::widgets {

class DebugController;
class InputsModel;
class RefreshWhenShown;

// Its dock in the MainWindow.
inline constexpr PanelId kInputsPanel{"inputsDock"};

class InputsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit InputsPanel(DebugController* controller, QWidget* parent = nullptr);
    // Read directly (tests, scripts): brought up to date first if it waited to be shown.
    QTableView* table() const;
    QLabel* referencesLabel() const;
    void documentOpened(bool sameModel) override;
    // Asks for an inputs, expected-outputs or reference-intermediates file
    // and loads it (the dock's buttons, and Debug ▸ Load).
    void loadDialog(exec::ValueFile file);

private:
    void connectSources();
    void connectFiles(QPushButton* load, QPushButton* expected, QPushButton* intermediates);
    void onRowClicked(const QModelIndex& index);
    QString selectedInput() const;
    void rebuild();

    DebugController* c_;
    QTableView* table_;
    InputsModel* model_;
    QComboBox* source_;
    QPushButton* all_;
    QSpinBox* seed_;
    QLabel* refs_;
    QLabel* divergence_;
    RefreshWhenShown* rebuildWhenShown_;
};

}  // namespace irscope::widgets
