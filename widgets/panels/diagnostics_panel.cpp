#include "widgets/panels/diagnostics_panel.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QStringList>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "widgets/common/panel_registry.h"
#include "widgets/session/graph_decorations.h"
#include "widgets/session/graph_selection.h"
#include "widgets/session/graph_session.h"

namespace irscope::widgets {

DiagnosticsPanel::DiagnosticsPanel(GraphSession* session, QWidget* parent) : QWidget(parent), session_(session) {
    setObjectName(QStringLiteral("diagnosticsPanel"));
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("diagnosticsTree"));
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(true);
    tree_->setHeaderLabels({tr("Severity"), tr("Node"), tr("Code"), tr("Message")});
    tree_->header()->setStretchLastSection(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(tree_);
    connect(session_->decorations(), &GraphDecorations::suppliedPlaceholdersChanged, this, &DiagnosticsPanel::rebuild);
    connect(tree_, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item, int) {
        const QString node = item->data(0, Qt::UserRole).toString();
        const QString tensor = item->data(0, Qt::UserRole + 1).toString();
        if (!node.isEmpty() && session_->selectionModel()->selectNodeByName(node, true)) return;
        if (!tensor.isEmpty()) session_->selectionModel()->selectNodeByName(tensor, true);
    });
    rebuild();
}

void DiagnosticsPanel::rebuild() {
    tree_->clear();
    int counts[3] = {0, 0, 0}, settledCount = 0;
    if (const auto* doc = session_->document()) {
        QList<QTreeWidgetItem*> items;
        for (const auto& d : doc->diagnostics) {
            // A missing value the user has since supplied stays listed, settled.
            const bool settled =
                d.code == "missing-constant" &&
                session_->decorations()->suppliedPlaceholders().contains(QString::fromStdString(d.tensor));
            auto* item = new QTreeWidgetItem(
                {QString::fromUtf8(ir::severityName(d.severity)), QString::fromStdString(d.node),
                 QString::fromStdString(d.code),
                 (settled ? tr("(value supplied) ") : QString()) + QString::fromStdString(d.message)});
            if (settled) {
                for (int c = 0; c < 4; ++c) item->setForeground(c, palette().color(QPalette::Disabled, QPalette::Text));
                item->setIcon(0, style()->standardIcon(QStyle::SP_DialogApplyButton));
                item->setData(0, Qt::UserRole, QString::fromStdString(d.node));
                item->setData(0, Qt::UserRole + 1, QString::fromStdString(d.tensor));
                items << item;
                ++settledCount;
                continue;  // not a live one: nothing left to act on
            }
            QStyle::StandardPixmap icon = d.severity == ir::Severity::Error     ? QStyle::SP_MessageBoxCritical
                                          : d.severity == ir::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                                                : QStyle::SP_MessageBoxInformation;
            item->setIcon(0, style()->standardIcon(icon));
            item->setData(0, Qt::UserRole, QString::fromStdString(d.node));
            item->setData(0, Qt::UserRole + 1, QString::fromStdString(d.tensor));
            item->setToolTip(3, QString::fromStdString(ir::formatDiagnostic(d)));
            ++counts[static_cast<int>(d.severity)];
            items << item;
        }
        tree_->addTopLevelItems(items);
        for (int c = 0; c < 3; ++c) tree_->resizeColumnToContents(c);
    }
    emit countsChanged(counts[0], counts[1], counts[2], settledCount);
}

namespace {

// The dock's title counts every row the list shows, in the words of its
// kind; an error brings the dock up.
void countInTitle(QWidget* panel, QDockWidget* dock, const PanelContext&) {
    QObject::connect(
        static_cast<DiagnosticsPanel*>(panel), &DiagnosticsPanel::countsChanged, dock,
        [dock](int errors, int warnings, int infos, int settled) {
            QStringList parts;
            if (errors) parts << DiagnosticsPanel::tr("%n error(s)", nullptr, errors);
            if (warnings) parts << DiagnosticsPanel::tr("%n warning(s)", nullptr, warnings);
            if (infos) parts << DiagnosticsPanel::tr("%n info", nullptr, infos);
            if (settled) parts << DiagnosticsPanel::tr("%n settled", nullptr, settled);
            dock->setWindowTitle(parts.isEmpty()
                                     ? DiagnosticsPanel::tr("Diagnostics")
                                     : DiagnosticsPanel::tr("Diagnostics (%1)").arg(parts.join(QStringLiteral(", "))));
            if (errors > 0) dock->show();
        });
}

const bool diagnosticsPanelRegistered = registerPanel({
    .id = kDiagnosticsPanel,
    .title = QT_TRANSLATE_NOOP("irscope::widgets::Panels", "Diagnostics"),
    .order = 6,
    .make = [](const PanelContext& c) -> QWidget* { return new DiagnosticsPanel(c.session); },
    .where = {Qt::BottomDockWidgetArea, {}, {}},
    .installed = countInTitle,
});

}  // namespace

}  // namespace irscope::widgets
