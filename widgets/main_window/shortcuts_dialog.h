#pragma once
// Help ▸ Keyboard Shortcuts: every shortcut the window has, read from its
// menus when the page opens (so a panel or the comparison that adds actions
// is listed without being named here), plus the graph view's keys and mouse
// gestures, which no menu shows. Qt Creator and RenderDoc have the same page;
// a debugger is driven from the keyboard (F5, F10, F9, Ctrl+D).
#include <QList>
#include <QString>

class QMenuBar;
class QWidget;

namespace irscope::widgets {

struct ShortcutRow {
    QString where;  // "Debug", "View › Expand Modules", "Graph view"
    QString what;   // "Continue", "Zoom In" (mnemonics and "…" removed)
    QString keys;   // "F5", "Ctrl++, Ctrl+=" in the platform's text
};

// The menu bar's actions that have a shortcut, in menu order, then the graph view's keys.
QList<ShortcutRow> shortcutRows(const QMenuBar* menuBar);

// A modeless page over `window` with the rows and a filter.
void showShortcuts(QWidget& window);

}  // namespace irscope::widgets
