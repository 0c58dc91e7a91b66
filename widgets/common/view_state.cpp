#include "widgets/common/view_state.h"

#include <QAbstractItemView>
#include <QGuiApplication>
#include <QHeaderView>
#include <QSettings>
#include <QSplitter>
#include <QVariant>

namespace irscope::widgets {

namespace {

constexpr const char* kUserColumns = "irscopeUserColumns";

QString headerKey(const QAbstractItemView& view) {
    return QStringLiteral("views/") + view.objectName() + QStringLiteral("/header");
}
QString splitterKey(const QSplitter& splitter) { return QStringLiteral("splitters/") + splitter.objectName(); }

}  // namespace

void saveViewStates(const QWidget& root, QSettings& settings) {
    for (const QHeaderView* header : root.findChildren<QHeaderView*>()) {
        const auto* view = qobject_cast<const QAbstractItemView*>(header->parentWidget());
        if (!view || view->objectName().isEmpty() || header->orientation() != Qt::Horizontal) continue;
        settings.setValue(headerKey(*view), header->saveState());
    }
    for (const QSplitter* splitter : root.findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty() && splitter->count() >= 2)
            settings.setValue(splitterKey(*splitter), splitter->saveState());
}

void restoreViewStates(QWidget& root, const QSettings& settings) {
    for (QHeaderView* header : root.findChildren<QHeaderView*>()) {
        auto* view = qobject_cast<QAbstractItemView*>(header->parentWidget());
        if (!view || view->objectName().isEmpty() || header->orientation() != Qt::Horizontal) continue;
        const QByteArray state = settings.value(headerKey(*view)).toByteArray();
        if (state.isEmpty() || !header->restoreState(state)) continue;
        view->setProperty(kUserColumns, true);
    }
    for (QSplitter* splitter : root.findChildren<QSplitter*>()) {
        // One pane (the graph view before a comparison adds the second): nothing to size.
        if (splitter->objectName().isEmpty() || splitter->count() < 2) continue;
        const QByteArray state = settings.value(splitterKey(*splitter)).toByteArray();
        if (!state.isEmpty()) splitter->restoreState(state);
    }
    // Widened or narrowed by hand from now on: the user's too.
    for (QHeaderView* header : root.findChildren<QHeaderView*>()) {
        auto* view = qobject_cast<QAbstractItemView*>(header->parentWidget());
        if (!view || view->objectName().isEmpty() || header->orientation() != Qt::Horizontal) continue;
        QObject::connect(header, &QHeaderView::sectionHandleDoubleClicked, view,
                         [view] { view->setProperty(kUserColumns, false); });  // double-click: fit again
        QObject::connect(header, &QHeaderView::sectionResized, view, [view, header](int, int, int) {
            // Only a drag of the handle is the user's; a panel's own fitting happens while no button is down.
            if (header->underMouse() && QGuiApplication::mouseButtons() != Qt::NoButton)
                view->setProperty(kUserColumns, true);
        });
    }
}

bool userColumns(const QWidget& view) { return view.property(kUserColumns).toBool(); }

}  // namespace irscope::widgets
