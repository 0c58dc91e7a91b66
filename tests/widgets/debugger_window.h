#pragma once
// The window most GUI suites drive: a MainWindow with the debugger installed,
// shown, with one graph open. Each suite used to build it with its own copy
// of these lines.
#include <QSignalSpy>
#include <QSize>
#include <QString>

#include "widgets/debugger/debugger_ui.h"
#include "widgets/main_window/main_window.h"
#include "widgets/session/graph_session.h"

namespace irscope::test {

// Replaces `window` (deleted) with a fresh one of `size` (an invalid size
// keeps the default), installs the debugger into `ui` and opens `file`.
// False when the graph did not load within 30 s.
inline bool openInFreshWindow(widgets::MainWindow*& window, widgets::DebuggerUi& ui, const QString& file,
                              QSize size = QSize(1400, 900)) {
    delete window;
    window = new widgets::MainWindow;
    ui = widgets::installDebugger(*window);
    if (size.isValid()) window->resize(size);
    window->show();
    QSignalSpy loaded(window->session(), &widgets::GraphSession::graphLoaded);
    window->openFile(file);
    return loaded.wait(30000);
}

}  // namespace irscope::test
