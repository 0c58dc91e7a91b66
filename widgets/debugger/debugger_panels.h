#pragma once
// The debugger's docks: weights (every IR weight and its binding status),
// constants (IR / file / typed values, entering and saving), inputs (source per
// graph input, references), the per-node execution info shown under the
// properties, and the pre-flight list of missing values shown in the
// diagnostics dock. Each observes the DebugController (and GraphSession) only.
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTextBrowser;

namespace irscope::widgets {

class DebugController;
class WeightsModel;
class InputsModel;

class WeightsPanel : public QWidget {
    Q_OBJECT
public:
    explicit WeightsPanel(DebugController* controller, QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    QComboBox* filter() const { return filter_; }
    int visibleRows() const;
    void loadDialog();

private:
    DebugController* c_;
    WeightsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QComboBox* filter_;
    QLabel* summary_;
};

class ConstantsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ConstantsPanel(DebugController* controller, QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    QComboBox* nameBox() const { return name_; }
    QLineEdit* valueEdit() const { return value_; }
    QComboBox* dtypeBox() const { return dtype_; }
    QPushButton* setButton() const { return set_; }
    QLabel* messageLabel() const { return message_; }
    void loadDialog();
    void saveDialog();

private:
    void rebuild();
    DebugController* c_;
    WeightsModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QComboBox* name_;
    QLineEdit* value_;
    QComboBox* dtype_;
    QPushButton* set_;
    QLabel* message_;
};

class InputsPanel : public QWidget {
    Q_OBJECT
public:
    explicit InputsPanel(DebugController* controller, QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    QLabel* referencesLabel() const { return refs_; }

private:
    void rebuild();
    DebugController* c_;
    QTableView* table_;
    InputsModel* model_;
    QComboBox* source_;
    QSpinBox* seed_;
    QLabel* refs_;
    QLabel* divergence_;
};

// Per-node time, output size, state and error of the selected node.
class ExecInfoPanel : public QWidget {
    Q_OBJECT
public:
    explicit ExecInfoPanel(DebugController* controller, QWidget* parent = nullptr);
    QString text() const;

private:
    void rebuild();
    DebugController* c_;
    QTextBrowser* text_;
};

// Pre-flight: values that are missing, with the action that fixes each.
class MissingValuesPanel : public QWidget {
    Q_OBJECT
public:
    explicit MissingValuesPanel(DebugController* controller, QWidget* parent = nullptr);
    QListWidget* list() const { return list_; }

private:
    void rebuild();
    DebugController* c_;
    QListWidget* list_;
    QLabel* title_;
};

}  // namespace irscope::widgets
