#pragma once
// ConstantsPanel: the Constants dock: the constant-like weight rows (lifted
// constants, non-persistent buffers) with their values from the IR, a file or
// typed here; typing a value (name, text, dtype), clearing it, loading a
// constants file and saving what was entered.
#include <functional>

#include <QWidget>

#include "core/exec/values/value_rows.h"
#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace irscope::widgets {

class DebugController;
class WeightFilter;
class WeightsModel;
class RefreshWhenShown;

// Its dock in the MainWindow.
inline constexpr PanelId kConstantsPanel{"constantsDock"};

class ConstantsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit ConstantsPanel(DebugController* controller, QWidget* parent = nullptr);
    // Read directly (tests, scripts): brought up to date first if it waited to be shown.
    QTableView* table() const;
    QComboBox* nameBox() const;
    QLineEdit* valueEdit() const { return value_; }
    QComboBox* dtypeBox() const { return dtype_; }
    QPushButton* setButton() const { return set_; }
    QLabel* messageLabel() const { return message_; }
    void loadDialog();
    // Asks where, then writes off the UI thread; `done(false)`: cancelled or failed.
    void saveDialog(std::function<void(bool saved)> done = {});
    void documentOpened(bool sameModel) override;

private:
    QLayout* buildEditRow();
    void connectEditing();
    void enterTyped();
    void rebuild();
    void showHint(const exec::WeightRow& row);

    DebugController* c_;
    WeightsModel* model_;
    WeightFilter* proxy_;
    QTableView* table_;
    QComboBox* name_;
    QLineEdit* value_;
    QComboBox* dtype_;
    QPushButton* set_;
    QPushButton* clear_;
    QLabel* message_;
    RefreshWhenShown* rebuildWhenShown_;
};

}  // namespace irscope::widgets
