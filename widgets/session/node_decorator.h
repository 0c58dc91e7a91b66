#pragma once
// NodeDecorator: what the debugger's state looks like on the graph. It turns
// the DebugController's snapshot (node states, breakpoints, missing values,
// the overlay) into GraphSession's decorations: per node (pending / current /
// done / failed, breakpoint, red mark, overlay colour and badge), per
// placeholder (red mark while its value is missing), per closed module (the
// overlay aggregated over its ops), the placeholders whose missing value is now
// supplied, and the run cursor. The controller schedules work and keeps
// snapshots; this object only draws conclusions from them, each time the
// controller announces a new snapshot.
#include <utility>
#include <vector>

#include <QColor>
#include <QObject>
#include <QString>

namespace irscope::widgets {

class DebugController;
class GraphSession;
class OverlayScale;

class NodeDecorator : public QObject {
    Q_OBJECT
public:
    NodeDecorator(DebugController* controller, GraphSession* session, QObject* parent = nullptr);

    // Recomputes everything from the controller's snapshot (also on snapshotChanged).
    void update();

private:
    void decorateNodes(const OverlayScale* scale);
    void decoratePlaceholders();
    std::vector<std::pair<QColor, QString>> moduleOverlays(const OverlayScale& nodeScale) const;

    DebugController* c_;
    GraphSession* session_;
};

}  // namespace irscope::widgets
