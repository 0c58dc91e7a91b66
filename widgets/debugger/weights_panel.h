#pragma once
// WeightsPanel: the Weights dock: every IR weight and its binding status (a
// table filtered by status group), a one-line summary of the counts, and
// loading a state_dict, casting it to the IR's dtypes. Clicking a row selects
// the weight and shows its tensor.
#include <QWidget>

#include "widgets/common/panel_events.h"
#include "widgets/common/panel_id.h"

class QComboBox;
class QLineEdit;
class QTimer;
class QLabel;
class QPushButton;
class QTableView;

namespace irscope::widgets {

class DebugController;
class WeightFilter;
class WeightsModel;
class RefreshWhenShown;

// Its dock in the MainWindow.
inline constexpr PanelId kWeightsPanel{"weightsDock"};

class WeightsPanel : public QWidget, public PanelEvents {
    Q_OBJECT
public:
    explicit WeightsPanel(DebugController* controller, QWidget* parent = nullptr);
    // Read directly (tests, scripts): brought up to date first if it waited to be shown.
    QTableView* table() const;
    QComboBox* filter() const { return filter_; }
    QLineEdit* nameFilter() const { return name_; }
    QPushButton* castButton() const { return cast_; }
    QString summary() const;
    int visibleRows() const;
    void loadDialog();
    // A sharded Hugging Face checkpoint: its folder (shards and index).
    void loadFolderDialog();
    void documentOpened(bool sameModel) override;

private:
    void refresh();
    QString summaryText() const;

    DebugController* c_;
    WeightsModel* model_;
    WeightFilter* proxy_;
    QTableView* table_;
    QComboBox* filter_;
    QLineEdit* name_;
    QTimer* namePause_;  // a keystroke's pause before filtering 70,000 rows
    QLabel* summary_;
    QPushButton* cast_;
    RefreshWhenShown* refreshWhenShown_;
};

}  // namespace irscope::widgets
