#include "widgets/main_window/panel_host.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDockWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "widgets/common/panel_events.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

namespace {

constexpr int kPanelMinWidth = 180;
constexpr int kPanelMinHeight = 110;

void setDockContent(QDockWidget* dock, QWidget* panel) {
    // A panel's row of buttons made it as wide as all of them (Differences:
    // 659 px), and three such docks side by side kept the window from
    // shrinking below 1196 px. Past this size a panel clips its row instead.
    panel->setMinimumSize(std::min(panel->minimumSizeHint().width(), kPanelMinWidth),
                          std::min(panel->minimumSizeHint().height(), kPanelMinHeight));
    dock->setWidget(panel);
}

QString panelTitle(const PanelRegistration& r) {
    return QCoreApplication::translate("irscope::widgets::Panels", r.title);
}

}  // namespace

PanelHost::PanelHost(MainWindow& window, GraphSession& session, PanelsAt panelsAt)
    : QObject(&window), window_(window), session_(session), deferred_(panelsAt == PanelsAt::AfterFirstFrame) {}

QDockWidget* PanelHost::addPanel(PanelId id, const QString& title, QWidget* panel, const PanelPlacement& where) {
    QDockWidget* dock = addDock(id, title, where);
    setDockContent(dock, panel);
    return dock;
}

QDockWidget* PanelHost::addDock(PanelId id, const QString& title, const PanelPlacement& where) {
    auto* dock = new QDockWidget(title, &window_);
    dock->setObjectName(QLatin1String(id.key));
    docks_.insert(QLatin1String(id.key), dock);
    window_.addDockWidget(where.area, dock);
    place(dock, where);
    return dock;
}

void PanelHost::move(PanelId id, const PanelPlacement& where) {
    QDockWidget* d = dock(id);
    if (!d) return;
    window_.removeDockWidget(d);
    window_.addDockWidget(where.area, d);
    place(d, where);
}

// Splits or tabs an added dock as `where` says. Split first: a dock split off
// one that is already tabbed would land in its tab group instead.
void PanelHost::place(QDockWidget* d, const PanelPlacement& where) {
    const Qt::Orientation across =
        where.area == Qt::LeftDockWidgetArea || where.area == Qt::RightDockWidgetArea ? Qt::Vertical : Qt::Horizontal;
    if (where.besideOf)
        if (QDockWidget* other = dock(*where.besideOf)) window_.splitDockWidget(other, d, across);
    if (where.tabbedWith)
        if (QDockWidget* other = dock(*where.tabbedWith)) window_.tabifyDockWidget(other, d);
}

void PanelHost::addSection(PanelId id, QWidget* section, Qt::Edge edge) {
    QDockWidget* d = dock(id);
    if (!d || !d->widget()) return;
    // The dock's content becomes a box holding the panel and its sections.
    auto* box = d->widget();
    if (box->objectName() != QLatin1String("panelSections")) {
        QWidget* panel = box;
        box = new QWidget(d);
        box->setObjectName(QStringLiteral("panelSections"));
        auto* lay = new QVBoxLayout(box);
        lay->setContentsMargins(0, 0, 0, 0);
        lay->setSpacing(2);
        lay->addWidget(panel, 1);
        d->setWidget(box);
    }
    auto* lay = static_cast<QVBoxLayout*>(box->layout());
    if (edge == Qt::TopEdge)
        lay->insertWidget(0, section);
    else
        lay->addWidget(section);
}

void PanelHost::install(const PanelContext& given) {
    PanelContext context = given;
    context.window = &window_;
    context.session = &session_;
    for (const PanelRegistration& r : registeredPanels()) {
        const bool waits = std::any_of(waiting_.begin(), waiting_.end(), [&r](const auto& w) { return w.first == &r; });
        if (waits || panels_.contains(QLatin1String(r.id.key)) || !contextMeets(context, r.needs)) continue;
        if (!deferred_) {
            make(r, context, nullptr);
            continue;
        }
        // Its dock now, empty, where it goes: the window's layout is final
        // before the first frame. A section waits for its host's content.
        if (!r.sectionOf) {
            QDockWidget* d = addDock(r.id, panelTitle(r), r.where);
            auto* empty = new QWidget(d);
            empty->setObjectName(QStringLiteral("panelToCome"));
            d->setWidget(empty);
        }
        waiting_.emplace_back(&r, context);
    }
}

void PanelHost::makeDeferred(std::function<void()> done) {
    if (!deferred_) {
        if (done) done();
        return;
    }
    if (done) whenMade_.push_back(std::move(done));
    if (!std::exchange(making_, true)) makeNext();
}

// One panel per turn of the event loop: a big model's panels take tens of
// milliseconds each (the 61-layer MoE's summary, module tree and execution
// section), and the window answers between them.
void PanelHost::makeNext() {
    if (!waiting_.empty()) {
        const auto [r, context] = waiting_.front();
        waiting_.erase(waiting_.begin());
        make(*r, context, dock(r->id));
        QTimer::singleShot(0, this, [this] { makeNext(); });
        return;
    }
    deferred_ = false;
    for (auto& done : std::exchange(whenMade_, {})) done();
}

// Makes the panel of `r`: into `d` when its empty dock was placed before
// (PanelsAt::AfterFirstFrame), else into a new dock or its host's.
void PanelHost::make(const PanelRegistration& r, const PanelContext& context, QDockWidget* d) {
    const bool late = deferred_;
    QWidget* made = r.make(context);
    if (d) {
        QWidget* empty = d->widget();
        setDockContent(d, made);
        delete empty;
    } else if (r.sectionOf && dock(*r.sectionOf)) {
        addSection(*r.sectionOf, made, r.sectionEdge);
    } else if (r.sectionOf) {
        // The host panel is not in this window: keep the section, unseen, so its owner is still the window.
        made->setParent(&window_);
        made->hide();
    } else {
        d = addPanel(r.id, panelTitle(r), made, r.where);
    }
    panels_.insert(QLatin1String(r.id.key), made);
    auto* events = dynamic_cast<PanelEvents*>(made);
    if (events) tellEvents(made, events);
    if (r.installed) r.installed(made, d, context);
    // A panel made after the document came is told of it, of the selection
    // and of where the run stands, as if it had been there (RenderDoc tells a
    // viewer registered while a capture is open OnCaptureLoaded, then
    // OnEventChanged). After `installed`: what the hook connected hears it.
    // As the same model: a new panel holds nothing of another model to
    // forget, and what it read from the session when made stays.
    if (events && late && session_.hasDocument()) {
        events->documentOpened(/*sameModel=*/true);
        events->selectionChanged(session_.selectionModel()->selection());
        events->runCursorChanged(session_.selectionModel()->runCursor());
    }
}

// The session's named events (common/panel_events.h), with `panel` as the
// connections' context: they end with it.
void PanelHost::tellEvents(QWidget* panel, PanelEvents* events) {
    connect(&session_, &GraphSession::graphLoaded, panel,
            [this, events] { events->documentOpened(session_.sameModelAsBefore()); });
    connect(session_.selectionModel(), &GraphSelection::selectionChanged, panel,
            [events](const ItemRef& ref) { events->selectionChanged(ref); });
    connect(session_.selectionModel(), &GraphSelection::runCursorChanged, panel,
            [events](qint64 node) { events->runCursorChanged(node); });
}

}  // namespace irscope::widgets
