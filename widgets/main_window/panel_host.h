#pragma once
// PanelHost: where a window's panels live. It makes every registered panel
// (common/panel_registry.h) whose needs a context meets, puts it in a dock
// placed as its registration says (or in another panel's dock, as a
// section), tells it the session's named events (common/panel_events.h),
// and finds panels and docks by id. The window arranges what it hosts.
//
// When the panels are made is the window's choice (PanelsAt): with the
// window, or after the graph's first frame. Then each dock is placed empty
// at once, so the first frame has the window's final layout, and the panels
// are made later, one per turn of the event loop: the app draws the graph
// before it spends tens of milliseconds per panel on a big model.
#include <functional>
#include <utility>
#include <vector>

#include <QHash>
#include <QObject>
#include <QString>

#include "widgets/common/panel_registry.h"

class QDockWidget;

namespace irscope::widgets {

class GraphSession;
class MainWindow;
class PanelEvents;

enum class PanelsAt { Construction, AfterFirstFrame };

class PanelHost : public QObject {
public:
    PanelHost(MainWindow& window, GraphSession& session, PanelsAt panelsAt);

    // Makes and places every registered panel not installed yet whose needs
    // `context` meets (its window and session are the host's); while panels
    // are deferred, places an empty dock for each instead.
    void install(const PanelContext& context);
    // Makes the deferred panels, one per turn of the event loop, then calls
    // `done`; from then on install makes panels at once. A panel made while a
    // document is open is told of it (PanelEvents), of the selection and of
    // the run cursor. Called again meanwhile, its `done` waits for the same
    // panels; with no panel deferred, `done` runs at once.
    void makeDeferred(std::function<void()> done);
    bool deferred() const { return deferred_; }

    QWidget* panel(PanelId id) const { return panels_.value(QLatin1String(id.key)); }
    QDockWidget* dock(PanelId id) const { return docks_.value(QLatin1String(id.key)); }
    // Puts `panel` in a new dock titled `title`, placed as `where` says.
    QDockWidget* addPanel(PanelId id, const QString& title, QWidget* panel, const PanelPlacement& where);
    void move(PanelId id, const PanelPlacement& where);
    // Shows `section` above (Qt::TopEdge) or below (Qt::BottomEdge) the panel, in its dock.
    void addSection(PanelId id, QWidget* section, Qt::Edge edge);

private:
    QDockWidget* addDock(PanelId id, const QString& title, const PanelPlacement& where);
    void place(QDockWidget* dock, const PanelPlacement& where);
    void make(const PanelRegistration& r, const PanelContext& context, QDockWidget* dock);
    void makeNext();
    void tellEvents(QWidget* panel, PanelEvents* events);

    MainWindow& window_;
    GraphSession& session_;
    QHash<QString, QDockWidget*> docks_;  // by PanelId key
    QHash<QString, QWidget*> panels_;     // made panels (sections too), by PanelId key
    bool deferred_;
    bool making_ = false;
    std::vector<std::function<void()>> whenMade_;
    // While deferred: the registrations whose docks wait, with the context
    // each was installed with.
    std::vector<std::pair<const PanelRegistration*, PanelContext>> waiting_;
};

}  // namespace irscope::widgets
