#pragma once
// The Changes dock: every difference of the comparison in execution order
// (nodes added, removed, changed, renamed; weights, graph inputs and
// outputs), with a summary, a filter and "show renamed". A click goes to the
// change on both sides; F8 moving through the changes moves the row.
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace irscope::widgets {

class ChangesModel;
class CompareSession;

class ChangesPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChangesPanel(CompareSession* compare, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QLabel* summaryLabel() const { return summary_; }
    int visibleRows() const;

private:
    void refresh();
    void followCurrentRow(int row);

    CompareSession* compare_;
    QLabel* summary_;
    QLineEdit* filter_;
    QCheckBox* showRenamed_;
    QTableView* table_;
    ChangesModel* model_;
    QSortFilterProxyModel* proxy_;
    bool following_ = false;
};

}  // namespace irscope::widgets
