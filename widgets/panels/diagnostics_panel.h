#pragma once
// DiagnosticsPanel: the validation messages of the loaded IR; clicking one
// selects the node (or tensor) it is about.
#include <QWidget>

class QTreeWidget;

namespace irscope::widgets {

class GraphSession;

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(GraphSession* session, QWidget* parent = nullptr);
    QTreeWidget* tree() const { return tree_; }

signals:
    void countsChanged(int errors, int warnings, int infos);

private:
    void rebuild();
    GraphSession* session_;
    QTreeWidget* tree_;
};

}  // namespace irscope::widgets
