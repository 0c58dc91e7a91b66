#pragma once
// ComparePane: side B of a comparison, shown beside (or under) the window's
// graph view in its splitter: a header naming both files with the diff's
// colour key, and B's GraphView. With "Sync viewports" on, panning or zooming
// either view moves the other to the same place through the match: the node
// at the centre of one is centred in the other, at the same zoom and offset.
#include <QWidget>

class QLabel;

namespace irscope::widgets {

class CompareSession;
class GraphView;

class ComparePane : public QWidget {
    Q_OBJECT
public:
    ComparePane(CompareSession* compare, GraphView* viewA, QWidget* parent = nullptr);

    GraphView* viewB() const { return viewB_; }
    QLabel* header() const { return header_; }
    void setSyncViewports(bool on) { sync_ = on; }
    bool syncViewports() const { return sync_; }
    // Moves `to` so it shows what `from` shows (public for tests and the first frame).
    void follow(GraphView* from, GraphView* to);

signals:
    void closeRequested();

private:
    void watch(GraphView* view);
    void updateHeader();

    CompareSession* compare_;
    GraphView* viewA_;
    GraphView* viewB_;
    QLabel* header_;
    bool sync_ = true;
    bool following_ = false;
};

}  // namespace irscope::widgets
