#include "widgets/main_window/shortcuts_dialog.h"

#include <QAction>
#include <QDialog>
#include <QHeaderView>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace irscope::widgets {

namespace {

QString plain(QString text) {
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.replace(QLatin1String("&&"), QLatin1String("&"));
    text.remove(QChar(0x2026));  // "…"
    return text.trimmed();
}

void collect(const QMenu* menu, const QString& where, QList<ShortcutRow>& rows) {
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        if (a->menu()) {
            collect(a->menu(), where + QStringLiteral(" › ") + plain(a->text()), rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty()) rows.push_back({where, plain(a->text()), keys.join(QStringLiteral(", "))});
    }
}

}  // namespace

QList<ShortcutRow> shortcutRows(const QMenuBar* menuBar) {
    QList<ShortcutRow> rows;
    if (menuBar)
        for (const QAction* a : menuBar->actions())
            if (a->menu()) collect(a->menu(), plain(a->text()), rows);
    const QString view = QObject::tr("Graph view");
    rows.push_back({view, QObject::tr("Go to the producer / a consumer of the selection"), QObject::tr("Up / Down")});
    rows.push_back({view, QObject::tr("Open the selected module"), QObject::tr("Right, +")});
    rows.push_back(
        {view, QObject::tr("Close the selected module (or the one around the selected op)"), QObject::tr("Left, -")});
    rows.push_back({view, QObject::tr("Clear the selection"), QObject::tr("Esc")});
    rows.push_back({view, QObject::tr("Zoom at the pointer"), QObject::tr("Ctrl+Wheel")});
    rows.push_back({view, QObject::tr("Mark a node for extraction"), QObject::tr("Shift+Click")});
    rows.push_back({view, QObject::tr("Mark the nodes in a rectangle"), QObject::tr("Shift+Drag")});
    rows.push_back({view, QObject::tr("Open or close a module"), QObject::tr("Double-click")});
    return rows;
}

void showShortcuts(QWidget& window) {
    auto* dialog = new QDialog(&window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts — irscope"));
    auto* filter = new QLineEdit(dialog);
    filter->setPlaceholderText(QObject::tr("Filter by action or key"));
    filter->setClearButtonEnabled(true);
    auto* table = new QTableWidget(dialog);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setColumnCount(3);
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Shortcut"), QObject::tr("Menu")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* main = qobject_cast<QMainWindow*>(&window);
    const QList<ShortcutRow> rows = shortcutRows(main ? main->menuBar() : nullptr);
    table->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].what));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].keys));
        table->setItem(i, 2, new QTableWidgetItem(rows[i].where));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    QObject::connect(filter, &QLineEdit::textChanged, table, [table](const QString& text) {
        for (int i = 0; i < table->rowCount(); ++i) {
            bool match = text.isEmpty();
            for (int col = 0; col < 3 && !match; ++col)
                match = table->item(i, col)->text().contains(text, Qt::CaseInsensitive);
            table->setRowHidden(i, !match);
        }
    });
    auto* lay = new QVBoxLayout(dialog);
    lay->addWidget(filter);
    lay->addWidget(table);
    dialog->resize(640, 520);
    dialog->show();
}

}  // namespace irscope::widgets
