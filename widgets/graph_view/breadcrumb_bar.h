#pragma once
// BreadcrumbBar: where the selection is in the module tree, above the graph
// ("model › layers › 3 › self_attn › matmul"), like an IDE's path bar. Each
// module crumb selects that module (the view opens its parents and centres
// it); the last crumb is the selected op itself.
#include <QWidget>

class QHBoxLayout;

namespace irscope::widgets {

class GraphSession;

class BreadcrumbBar : public QWidget {
    Q_OBJECT
public:
    explicit BreadcrumbBar(GraphSession* session, QWidget* parent = nullptr);

    // The crumbs' texts, root first (tests, accessibility).
    QStringList crumbs() const;

private:
    void rebuild();

    GraphSession* session_;
    QHBoxLayout* layout_;
};

}  // namespace irscope::widgets
